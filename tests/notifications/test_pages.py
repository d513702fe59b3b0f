"""The notifications' pages: one's own subscription and its test, the webhooks (a secret shown once,
rotation, deactivation) and the deliveries (filters, exports, retry); who may use each."""

import re

import pytest
from django.core import mail
from django.urls import reverse

from notifications.models import Delivery, Subscription, WebhookEndpoint
from tests.alerts.pages_support import CS, C, S, csv_rows, html_of, raised, signed_in, tables
from tests.factories import user

pytestmark = pytest.mark.django_db

__all__ = ["tables"]

PAGES = ["notifications:subscription", "notifications:webhook_list", "notifications:delivery_list"]


@pytest.fixture
def endpoint(tables):
    endpoint = WebhookEndpoint.objects.create(
        owner=user(S), name="Ops pager", url="https://hooks.example/ops", secret="s" * 64
    )
    endpoint.tables.set([tables["DLX1"]])
    return endpoint


@pytest.fixture
def deliveries(endpoint):
    """A failed webhook delivery of an alert's raising, and a sent email one of a test."""
    alert = raised("DLX1", "silent_table", summary="Open, and no round for 15 minutes.")
    failed = Delivery.objects.create(
        event=alert.events.get(),
        channel="webhook",
        endpoint=endpoint,
        address=endpoint.url,
        status="failed",
        attempts=6,
        last_error="HTTP 503 from the receiver",
    )
    sent = Delivery.objects.create(channel="email", user=user(C), address="c@casino.example", status="sent")
    return {"alert": alert, "failed": failed, "sent": sent}


def with_email(role: str, address: str):
    who = user(role)
    who.email = address
    who.save()
    return who


def rows_of(response) -> str:
    return html_of(response).split("<tbody")[1].split("</tbody>")[0]


# --- who sees what -----------------------------------------------------------------------------------


@pytest.mark.parametrize("role", [S, C])
@pytest.mark.parametrize("name", [*PAGES, "notifications:webhook_detail"])
def test_each_page_shows_to_supervisors_and_compliance(client, endpoint, role, name):
    args = [endpoint.pk] if name.endswith("detail") else []
    response = signed_in(client, role).get(reverse(name, args=args))
    assert response.status_code == 200
    html = html_of(response)
    assert 'aria-label="Alerts"' in html  # under the alerts' sub-menu
    for url in ("/notifications/", "/notifications/webhooks/", "/notifications/deliveries/"):
        assert f'href="{url}"' in html
    assert 'class="active">Alerts</a>' in html  # the main menu's entry is the page's


@pytest.mark.parametrize(
    ("name", "args"),
    [
        ("notifications:subscription", None),
        ("notifications:subscription_test", None),
        ("notifications:webhook_list", None),
        ("notifications:webhook_add", None),
        ("notifications:webhook_detail", "endpoint"),
        ("notifications:webhook_rotate", "endpoint"),
        ("notifications:webhook_deactivate", "endpoint"),
        ("notifications:delivery_list", None),
        ("notifications:delivery_retry", "delivery"),
    ],
)
def test_customer_service_is_refused_every_page_and_post(client, deliveries, endpoint, name, args):
    pk = {"endpoint": endpoint.pk, "delivery": deliveries["failed"].pk}.get(args)
    url = reverse(name, args=[pk] if pk else [])
    client = signed_in(client, CS)
    assert client.post(url, {"endpoint-name": "x", "endpoint-url": "https://x.example"}).status_code == 403
    if not name.endswith(("_test", "_add", "_rotate", "_deactivate", "_retry")):
        assert client.get(url).status_code == 403
    assert WebhookEndpoint.objects.get().active and WebhookEndpoint.objects.count() == 1
    assert Delivery.objects.get(pk=deliveries["failed"].pk).status == "failed"
    assert not Subscription.objects.exists()


# --- one's own subscription --------------------------------------------------------------------------


def test_the_role_default_is_said_plainly_until_one_chooses(client, tables):
    with_email(S, "sam@casino.example")
    html = html_of(signed_in(client, S).get(reverse("notifications:subscription")))
    assert "You have not chosen: you hear of what reaches supervisor" in html
    assert "warnings of Cancellation spike, Dealer findings, Open but silent, Ingest behind" in html
    assert "every critical alert, at every table, by email to sam@casino.example" in html
    assert 'placeholder="sam@casino.example"' in html
    compliance = html_of(signed_in(client, C).get(reverse("notifications:subscription")))
    assert "warnings of RTP drift, Win above amount, and every critical alert" in compliance


def test_the_subscription_form_saves_ones_choices(client, tables):
    client = signed_in(client, S)
    data = {
        "by_email": "on",
        "email": "pager@casino.example",
        "tables": ["DLX1", "CLS1"],
        "monitors": ["silent_table", "ingest_behind"],
        "severity": "2",
    }
    response = client.post(reverse("notifications:subscription"), data)
    assert response.status_code == 302 and response["Location"] == reverse("notifications:subscription")
    chosen = Subscription.objects.get(user=user(S))
    assert chosen.email == "pager@casino.example" and chosen.by_email and chosen.severity == 2
    assert sorted(chosen.monitors) == ["ingest_behind", "silent_table"]
    assert sorted(table.code for table in chosen.tables.all()) == ["CLS1", "DLX1"]
    html = html_of(client.get(reverse("notifications:subscription")))
    assert "You hear of <strong>CLS1, DLX1 · " in html and "critical only" in html
    assert "by email to pager@casino.example" in html
    assert re.search(r'value="DLX1"[^>]*checked', html)  # ticked as saved
    assert not re.search(r'value="big_win"[^>]*checked', html)


@pytest.mark.parametrize(
    ("data", "field", "message"),
    [
        ({"email": "not an address"}, "email", "Enter a valid email address."),
        ({"monitors": ["no_such_monitor"]}, "monitors", "no_such_monitor"),
    ],
    ids=["email", "monitor"],
)
def test_a_bad_choice_is_refused_beside_its_field(client, tables, data, field, message):
    response = signed_in(client, S).post(reverse("notifications:subscription"), {"severity": "1", **data})
    assert response.status_code == 400
    html = html_of(response)
    assert message in html
    assert html.index(message) > html.index(f'name="{field}"')  # beside its field
    assert not Subscription.objects.exists()


def test_send_a_test_says_where_it_went(client, endpoint, django_capture_on_commit_callbacks):
    with_email(S, "sam@casino.example")
    client = signed_in(client, S)
    with django_capture_on_commit_callbacks() as sending:  # not sent: the webhook's host is made up
        response = client.post(reverse("notifications:subscription_test"))
    assert response.status_code == 302 and sending
    sent = Delivery.objects.filter(event=None)
    assert {delivery.channel for delivery in sent} == {"email", "webhook"}
    html = html_of(client.get(response["Location"]))
    assert (
        "A test was sent by email to sam@casino.example and to the webhook Ops pager "
        "(https://hooks.example/ops)." in html
    )
    assert 'href="/notifications/deliveries/"' in html
    assert f'href="/notifications/webhooks/{endpoint.pk}/"' in html  # one's own webhooks


def test_a_test_email_is_sent_when_the_request_commits(client, tables, django_capture_on_commit_callbacks):
    with_email(C, "cleo@casino.example")
    with django_capture_on_commit_callbacks(execute=True):
        signed_in(client, C).post(reverse("notifications:subscription_test"))
    assert [message.to for message in mail.outbox] == [["cleo@casino.example"]]
    assert Delivery.objects.get().status == "sent"


def test_a_test_without_an_address_is_refused_on_the_page(client, tables):
    response = signed_in(client, S).post(reverse("notifications:subscription_test"))
    assert response.status_code == 400
    assert "Your account has no email address" in html_of(response)
    assert not Delivery.objects.exists()


# --- webhooks ----------------------------------------------------------------------------------------


def test_a_new_webhooks_secret_is_shown_once_and_never_again(client, tables):
    client = signed_in(client, C)
    data = {
        "endpoint-name": "Compliance desk",
        "endpoint-url": "https://desk.example/hook",
        "endpoint-monitors": ["big_win"],
        "endpoint-tables": ["CLS1"],
        "endpoint-severity": "1",
    }
    response = client.post(reverse("notifications:webhook_add"), data)
    assert response.status_code == 200
    endpoint = WebhookEndpoint.objects.get()
    assert endpoint.owner == user(C) and endpoint.monitors == ["big_win"]
    html = html_of(response)
    assert endpoint.secret and endpoint.secret in html
    assert "shown only this once" in html and "Pitboss-Signature: t=" in html
    assert "secret" not in client.session.get("_messages", "")
    for url in (
        reverse("notifications:webhook_list"),
        reverse("notifications:webhook_detail", args=[endpoint.pk]),
        reverse("notifications:subscription"),
        reverse("notifications:webhook_list") + "?_export=csv",
    ):
        page = client.get(url)
        assert page.status_code == 200
        assert endpoint.secret not in page.getvalue().decode()
    listed = html_of(client.get(reverse("notifications:webhook_list")))
    assert "Compliance desk" in listed and "CLS1 · Win above amount · warnings and critical" in listed


def test_a_webhook_without_a_name_is_refused_on_the_list(client, tables):
    response = signed_in(client, S).post(
        reverse("notifications:webhook_add"), {"endpoint-url": "https://x.example", "endpoint-severity": "1"}
    )
    assert response.status_code == 400 and "This field is required." in html_of(response)
    assert not WebhookEndpoint.objects.exists()


def test_rotating_shows_the_new_secret_once(client, endpoint):
    client = signed_in(client, S)  # its owner
    old = endpoint.secret
    response = client.post(reverse("notifications:webhook_rotate", args=[endpoint.pk]))
    assert response.status_code == 200
    endpoint.refresh_from_db()
    assert endpoint.secret != old and endpoint.rotated_at is not None
    html = html_of(response)
    assert endpoint.secret in html and old not in html and "its new secret" in html
    assert "The previous secret still signs until" in html
    detail = html_of(client.get(reverse("notifications:webhook_detail", args=[endpoint.pk])))
    assert endpoint.secret not in detail and old not in detail


def test_only_its_owner_rotates_or_deactivates_a_webhook(client, endpoint):
    client = signed_in(client, C)
    assert 'formaction="/notifications/webhooks/' not in html_of(
        client.get(reverse("notifications:webhook_list"))
    )
    for name in ("notifications:webhook_rotate", "notifications:webhook_deactivate"):
        assert client.post(reverse(name, args=[endpoint.pk])).status_code == 403
    assert WebhookEndpoint.objects.get().secret == endpoint.secret and WebhookEndpoint.objects.get().active


def test_deactivating_stops_the_webhook(client, endpoint):
    client = signed_in(client, S)
    response = client.post(reverse("notifications:webhook_deactivate", args=[endpoint.pk]))
    assert response.status_code == 302 and response["Location"] == reverse("notifications:webhook_list")
    assert not WebhookEndpoint.objects.get().active
    html = html_of(client.get(response["Location"]))
    assert "is deactivated" in html and "badge-past" in html
    assert 'formaction="/notifications/webhooks/' not in html  # no buttons on an inactive one
    again = client.post(reverse("notifications:webhook_deactivate", args=[endpoint.pk]))
    assert again.status_code == 409 and "form-errors" in html_of(again)


def test_the_webhook_list_filters_and_exports(client, endpoint):
    WebhookEndpoint.objects.create(owner=user(C), name="Desk", url="https://desk.example/", secret="d" * 64)
    client = signed_in(client, S)
    url = reverse("notifications:webhook_list")
    assert "Desk" not in rows_of(client.get(url, {"name": "ops"}))
    assert "Ops pager" in rows_of(client.get(url, {"owner": S + "-user"}))
    header, *rows = csv_rows(client.get(url, {"_export": "csv"}))
    assert header[:4] == ["Name", "URL", "Owner", "Sends"]
    assert [row[0] for row in rows] == ["Desk", "Ops pager"]
    assert not [cell for row in rows for cell in row if "<" in cell or "d" * 64 in cell]


# --- deliveries --------------------------------------------------------------------------------------


def test_the_delivery_list_shows_each_and_retries_a_failed_one(client, deliveries):
    client = signed_in(client, S)
    url = reverse("notifications:delivery_list")
    html = rows_of(client.get(url))
    alert = deliveries["alert"]
    assert f'href="/alerts/{alert.pk}/"' in html and "Raised" in html
    assert "badge-failed" in html and "badge-sent" in html and "HTTP 503 from the receiver" in html
    assert html.count(">Retry</button>") == 1
    failed = deliveries["failed"]
    response = client.post(reverse("notifications:delivery_retry", args=[failed.pk]))
    assert response.status_code == 302 and response["Location"] == url
    assert Delivery.objects.get(pk=failed.pk).status != "failed"
    assert "is sent again" in html_of(client.get(url))
    refused = client.post(reverse("notifications:delivery_retry", args=[deliveries["sent"].pk]))
    assert refused.status_code == 409 and "form-errors" in html_of(refused)


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ({"status": "failed"}, ["failed"]),
        ({"status": ["failed", "sent"]}, ["sent", "failed"]),
        ({"channel": "email"}, ["sent"]),
        ({"alert": "ALERT"}, ["failed"]),
        ({"endpoint": "ENDPOINT"}, ["failed"]),
        ({"created_from": "9999-12-31"}, []),
        ({"created_to": "9999-12-31"}, ["sent", "failed"]),
    ],
    ids=str,
)
def test_the_delivery_list_filters(client, deliveries, endpoint, query, expected):
    values = {"ALERT": str(deliveries["alert"].pk), "ENDPOINT": str(endpoint.pk)}
    query = {key: values.get(value, value) for key, value in query.items() if isinstance(value, str)} | {
        key: value for key, value in query.items() if not isinstance(value, str)
    }
    response = signed_in(client, C).get(reverse("notifications:delivery_list"), query)
    assert response.status_code == 200
    rows = rows_of(response)
    shown = [name for name in ("sent", "failed") if deliveries[name].address in rows]
    assert sorted(shown) == sorted(expected)


def test_a_refused_delivery_filter_says_why(client, deliveries):
    response = signed_in(client, C).get(reverse("notifications:delivery_list"), {"alert": "2" * 30})
    assert response.status_code == 400


def test_the_delivery_csv_holds_the_rows_as_data(client, deliveries):
    response = signed_in(client, C).get(reverse("notifications:delivery_list"), {"_export": "csv"})
    assert response["Content-Type"].startswith("text/csv")
    header, *rows = csv_rows(response)
    assert header == [
        "When",
        "Alert",
        "Event",
        "Channel",
        "To",
        "Status",
        "Attempts",
        "Last error",
        "Next attempt",
        "Sent",
    ]
    by_status = {row[5]: row for row in rows}
    assert by_status["Failed"][1:5] == [
        str(deliveries["alert"].pk),
        "Raised",
        "Webhook",
        "https://hooks.example/ops",
    ]
    assert by_status["Sent"][1:3] == ["", ""]  # a test: of no alert
    assert not [cell for row in rows for cell in row if "<" in cell]
    xlsx = signed_in(client, C).get(reverse("notifications:delivery_list"), {"_export": "xlsx"})
    assert xlsx.status_code == 200 and xlsx["Content-Disposition"].endswith('deliveries.xlsx"')

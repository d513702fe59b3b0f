"""The alert pages: the list (filters, exports), one alert and its forms, each refusal shown on its form,
the navigation and the API. The silences', thresholds' and faults' pages are in test_*_pages.py here."""

from datetime import UTC
from zoneinfo import ZoneInfo

import pytest
from django.conf import settings
from django.urls import reverse
from django.utils import timezone
from rest_framework.test import APIClient

from alerts.models import Alert, AlertEvent
from alerts.services import alert_claim
from rounds.services import incident_open
from tables.models import TableConfiguration
from tests.alerts.pages_support import CS, C, S, alerts, csv_rows, html_of, listed, raised, signed_in, tables
from tests.factories import configuration_approved, user

pytestmark = pytest.mark.django_db

__all__ = ["alerts", "tables"]


# --- who sees what ---------------------------------------------------------------------------------

PAGES = [
    ("alerts:alert_list", None),
    ("alerts:alert_detail", "drift"),
    ("alerts:silence_list", None),
    ("alerts:threshold_list", None),
]


@pytest.mark.parametrize("role", [S, C])
@pytest.mark.parametrize(("name", "alert"), PAGES)
def test_each_page_shows_to_supervisors_and_compliance(client, alerts, role, name, alert):
    args = [alerts[alert].pk] if alert else []
    response = signed_in(client, role).get(reverse(name, args=args))
    assert response.status_code == 200
    # A list under the links to the other lists; an alert under its crumb.
    assert ('aria-label="Alerts"' if alert is None else '<a href="/alerts/">Alerts</a> /') in html_of(
        response
    )


@pytest.mark.parametrize(("name", "alert"), PAGES)
def test_customer_service_is_refused_every_page(client, alerts, name, alert):
    args = [alerts[alert].pk] if alert else []
    assert signed_in(client, CS).get(reverse(name, args=args)).status_code == 403


def test_the_navigation_has_alerts_for_who_may_read_them(client, alerts):
    assert 'href="/alerts/"' in html_of(signed_in(client, S).get("/"))
    assert 'href="/alerts/"' in html_of(signed_in(client, C).get("/"))
    assert 'href="/alerts/"' not in html_of(signed_in(client, CS).get("/"))
    html = html_of(signed_in(client, S).get(reverse("alerts:alert_list")))
    assert 'class="active">Alerts</a>' in html  # the navigation's entry is the page's
    for url in ("/alerts/silences/", "/alerts/thresholds/", "/alerts/faults/"):
        assert f'href="{url}"' in html


# --- the list ----------------------------------------------------------------------------------------


def test_the_list_shows_each_alert_latest_seen_first(client, alerts):
    response = signed_in(client, S).get(reverse("alerts:alert_list"))
    html = html_of(response)
    assert listed(response) == [str(alerts[name].pk) for name in ("silent", "dealer", "drift")]
    assert "21+3" in html and "D-BEN" in html  # the subject: a bet kind by its label, a dealer
    assert 'class="badge badge-critical"' in html and 'class="badge badge-warning"' in html
    assert 'class="badge badge-open"' in html
    assert 'href="/floor/DLX1/"' in html  # the table's live page


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ({"table": "CLS1"}, ["dealer"]),
        ({"monitor": ["rtp_drift", "dealer_findings"]}, ["dealer", "drift"]),
        ({"severity": "2"}, ["dealer"]),
        ({"subject": "21+3"}, ["drift"]),  # a bet kind by its label
        ({"subject": "twenty_one_plus_three"}, ["drift"]),
        ({"subject": "D-BEN"}, ["dealer"]),
        ({"status": "acknowledged"}, ["silent", "dealer"]),  # a claim acknowledges
        ({"status": ["open", "acknowledged"], "table": "DLX1"}, ["silent", "drift"]),  # the floor tile's
        ({"claimed": "me"}, ["silent"]),
    ],
    ids=str,
)
def test_the_list_filters(client, alerts, query, expected):
    alert_claim(alert=alerts["silent"], by=user(S))
    alert_claim(alert=alerts["dealer"], by=user(S, "another-supervisor"))
    response = signed_in(client, S).get(reverse("alerts:alert_list"), query)
    assert response.status_code == 200
    assert listed(response) == [str(alerts[name].pk) for name in expected]


def local_day(moment) -> str:
    """The day of `moment` where a user without a chosen zone sees it: the gaming day's zone."""
    return moment.astimezone(ZoneInfo(settings.PITBOSS_GAMING_DAY_TIME_ZONE)).date().isoformat()


def test_first_seen_filters_by_day_in_the_users_time_zone(client, alerts):
    client = signed_in(client, C)
    url = reverse("alerts:alert_list")
    drift, others = str(alerts["drift"].pk), [str(alerts[name].pk) for name in ("silent", "dealer")]
    assert listed(client.get(url, {"first_seen_from": local_day(timezone.now())})) == others
    day = local_day(alerts["drift"].first_seen)
    assert listed(client.get(url, {"first_seen_from": day, "first_seen_to": day})) == [drift]
    assert listed(client.get(url, {"first_seen_from": "9999-12-31"})) == []
    assert listed(client.get(url, {"first_seen_to": "9999-12-31"})) == [*others, drift]
    response = client.get(url, {"first_seen_from": "2026-13-01"})
    assert response.status_code == 400 and "Enter a valid date." in html_of(response)


def test_the_csv_export_holds_the_filtered_rows_as_data(client, alerts):
    response = signed_in(client, C).get(reverse("alerts:alert_list"), {"table": "DLX1", "_export": "csv"})
    assert response["Content-Type"].startswith("text/csv")
    header, *rows = csv_rows(response)
    assert header[:6] == ["Alert", "Table", "Monitor", "Subject", "Severity", "Status"]
    assert [row[0] for row in rows] == [str(alerts["silent"].pk), str(alerts["drift"].pk)]
    drift = rows[1]
    assert drift[1:6] == ["DLX1", "RTP drift", "twenty_one_plus_three", "Warning", "Open"]
    assert drift[header.index("Seen")] == "2"
    assert drift[header.index("First seen")] == alerts["drift"].first_seen.astimezone(UTC).isoformat()
    assert not [cell for row in rows for cell in row if "<" in cell]
    xlsx = signed_in(client, C).get(reverse("alerts:alert_list"), {"_export": "xlsx"})
    assert xlsx.status_code == 200 and xlsx["Content-Disposition"].endswith('alerts.xlsx"')


# --- one alert ---------------------------------------------------------------------------------------


def test_the_alert_page_shows_its_monitor_figures_and_timeline(client, alerts):
    from rounds.ingest import round_ingest
    from tests.fixtures import round_document

    round_id = round_ingest(document=round_document("deluxe-split-double-play-behind")).round.round_id
    drift = raised("DLX1", "rtp_drift", subject="twenty_one_plus_three", figures={"round": round_id})
    html = html_of(signed_in(client, C).get(reverse("alerts:alert_detail", args=[drift.pk])))
    assert "drifting from theory while every payout is right" in html  # the monitor's explanation
    assert f'href="/rounds/{round_id}/"' in html  # the figures' round, linked
    assert 'href="/floor/DLX1/"' in html
    assert "CUSUM <strong>15</strong> over its limit 10" in html
    assert html.count('<tr class="event-raised">') == 1  # repeats add to the alert, not to its timeline
    assert "3 occurrences" in html


def test_acknowledge_then_claim_then_resolve_with_an_incident(client, alerts):
    alert = alerts["silent"]
    incident = incident_open(table=alert.table, kind="other", opened_by=user(S), note="The stream froze.")
    client = signed_in(client, S)
    page = reverse("alerts:alert_detail", args=[alert.pk])
    assert 'id="acknowledge"' in html_of(client.get(page))
    response = client.post(
        reverse("alerts:alert_acknowledge", args=[alert.pk]), {"acknowledge-note": "On it."}
    )
    assert response.status_code == 302 and response["Location"] == page
    html = html_of(client.get(page))
    assert "acknowledged: it no longer escalates" in html and 'id="acknowledge"' not in html

    assert client.post(reverse("alerts:alert_claim", args=[alert.pk])).status_code == 302
    html = html_of(client.get(page))
    assert 'id="claim"' not in html  # one's own already

    data = {"resolve-note": "The encoder restarted.", "resolve-link": "incident", "resolve-ref": incident.pk}
    assert client.post(reverse("alerts:alert_resolve", args=[alert.pk]), data).status_code == 302
    alert.refresh_from_db()
    assert alert.status == "resolved" and alert.resolution_ref == str(incident.pk)
    html = html_of(client.get(page))
    assert f'<a href="/rounds/incidents/{incident.pk}/">Incident {incident.pk}</a>' in html
    assert 'id="resolve"' not in html and 'id="claim"' not in html
    kinds = list(AlertEvent.objects.filter(alert=alert).values_list("kind", flat=True))
    assert kinds == ["raised", "acknowledged", "claimed", "resolved"]


def test_resolving_without_a_note_shows_the_services_refusal(client, alerts):
    alert = alerts["silent"]
    response = signed_in(client, C).post(
        reverse("alerts:alert_resolve", args=[alert.pk]), {"resolve-note": " "}
    )
    assert response.status_code == 400
    assert "Say what was found and done: the note is the alert&#x27;s record." in html_of(response)
    assert Alert.objects.get(pk=alert.pk).status == "open"


def test_a_link_to_another_tables_incident_is_refused_beside_its_number(client, alerts):
    other = incident_open(table=alerts["dealer"].table, kind="other", opened_by=user(S), note="CLS1")
    data = {"resolve-note": "Seen.", "resolve-link": "incident", "resolve-ref": other.pk}
    response = signed_in(client, S).post(reverse("alerts:alert_resolve", args=[alerts["silent"].pk]), data)
    assert response.status_code == 400
    html = html_of(response)
    assert f"Incident {other.pk} is of another table." in html
    assert html.index("is of another table") > html.index('name="resolve-ref"')  # beside its field
    data["resolve-ref"] = "99999"
    response = signed_in(client, S).post(reverse("alerts:alert_resolve", args=[alerts["silent"].pk]), data)
    assert "There is no incident 99999." in html_of(response)
    assert Alert.objects.get(pk=alerts["silent"].pk).status == "open"


def test_a_configuration_is_named_by_its_version_at_the_table(client, alerts):
    dlx = alerts["silent"].table
    version = configuration_approved(dlx, {"seats": 6})
    client = signed_in(client, S)
    url = reverse("alerts:alert_resolve", args=[alerts["silent"].pk])
    response = client.post(url, {"resolve-note": "x", "resolve-link": "configuration", "resolve-ref": "9"})
    assert response.status_code == 400 and "DLX1 has no configuration version 9." in html_of(response)
    data = {
        "resolve-note": "Fewer seats.",
        "resolve-link": "configuration",
        "resolve-ref": str(version.version),
    }
    assert client.post(url, data).status_code == 302
    assert Alert.objects.get(pk=alerts["silent"].pk).resolution_ref == str(version.pk)
    html = html_of(client.get(reverse("alerts:alert_detail", args=[alerts["silent"].pk])))
    assert f'<a href="/tables/DLX1/#versions">Version {version.version} of DLX1</a>' in html
    assert TableConfiguration.objects.filter(table=dlx).count() == 2


def test_a_step_the_alerts_state_refuses_answers_409_on_the_page(client, alerts):
    alert = alerts["silent"]
    client = signed_in(client, S)
    client.post(reverse("alerts:alert_resolve", args=[alert.pk]), {"resolve-note": "Done."})
    response = client.post(reverse("alerts:alert_claim", args=[alert.pk]))
    assert response.status_code == 409
    assert f"Alert {alert.pk} is resolved already." in html_of(response)
    response = client.post(reverse("alerts:alert_acknowledge", args=[alert.pk]))
    assert response.status_code == 409


def test_only_compliance_may_mark_a_fault_reportable(client, alerts):
    url = reverse("alerts:alert_detail", args=[alerts["drift"].pk])
    assert 'id="reportable"' in html_of(signed_in(client, C).get(url))
    assert 'id="reportable"' not in html_of(signed_in(client, S).get(url))
    response = signed_in(client, S).post(reverse("alerts:alert_mark_reportable", args=[alerts["drift"].pk]))
    assert response.status_code == 403


def test_the_step_routes_take_a_post_only(client, alerts):
    client = signed_in(client, S)
    assert client.get(reverse("alerts:alert_claim", args=[alerts["drift"].pk])).status_code == 405


# --- the tables' pages show a table's open alerts ----------------------------------------------------


def test_a_tables_live_page_links_its_open_alerts(client, alerts):
    html = html_of(signed_in(client, S).get(reverse("floor:table_live", args=["DLX1"])))
    assert 'href="/alerts/?table=DLX1&amp;status=open&amp;status=acknowledged"' in html
    assert "2 alerts open (warning)" in html


# --- the API -----------------------------------------------------------------------------------------


def api(role: str) -> APIClient:
    client = APIClient()
    client.force_authenticate(user(role))
    return client


def test_the_api_lists_and_filters_alerts_as_the_page_does(alerts):
    answer = api(S).get("/api/alerts/", {"table": "DLX1", "status": "open"}).json()
    assert [row["id"] for row in answer["results"]] == [alerts["silent"].pk, alerts["drift"].pk]
    drift = answer["results"][1]
    assert drift["subject"] == "twenty_one_plus_three" and drift["occurrences"] == 2
    assert drift["measure"] == "15.0000" and drift["figures"]["round"] == "DLX1-R-9"
    assert "events" not in drift
    assert api(C).get("/api/alerts/", {"subject": "21+3"}).json()["count"] == 1
    assert api(CS).get("/api/alerts/").status_code == 403


def test_the_api_gives_an_alert_with_its_timeline(alerts):
    alert_claim(alert=alerts["dealer"], by=user(C))
    answer = api(C).get(f"/api/alerts/{alerts['dealer'].pk}/").json()
    assert answer["table"] == "CLS1" and answer["severity"] == 2 and answer["claimed_by"] == "compliance-user"
    assert [(event["kind"], event["by"]) for event in answer["events"]] == [
        ("raised", None),
        ("claimed", "compliance-user"),
    ]
    assert api(C).get("/api/alerts/999999/").status_code == 404

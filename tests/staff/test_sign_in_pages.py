"""The sign-in record's pages (staff/sign_in_views.py): administrators and compliance read the
sign-ins, the days summed and the token uses, filtered and exported (CSV, XLSX); nobody else does.
Only compliance reviews a break-glass sign-in: with a note, once."""

import csv
import io
from datetime import UTC, date, datetime

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import SignInEvent, TokenUse
from accounts.services import token_create
from accounts.sign_in_record import break_glass_unreviewed
from tests.factories import user

pytestmark = pytest.mark.django_db

SIGN_INS = reverse("staff:sign_ins")
DAYS = reverse("staff:sign_in_days")
TOKEN_USES = reverse("staff:token_uses")
MONDAY, TUESDAY = date(2026, 3, 2), date(2026, 3, 3)


def client_of(role: str) -> Client:
    client = Client()
    client.force_login(user(role))
    return client


def event(kind: str, username: str, day: date, hour: int = 12, **fields) -> SignInEvent:
    fields.setdefault("method", "password")
    fields.setdefault("address", "192.0.2.10")
    at = datetime(day.year, day.month, day.day, hour, tzinfo=UTC)
    return SignInEvent.objects.create(kind=kind, username=username, day=day, at=at, **fields)


def csv_rows(response) -> list[list[str]]:
    assert response.status_code == 200, response
    return list(csv.reader(io.StringIO(b"".join(response.streaming_content).decode())))


def column(rows: list[list[str]], name: str) -> list[str]:
    index = rows[0].index(name)
    return [row[index] for row in rows[1:]]


@pytest.mark.parametrize("url", [SIGN_INS, DAYS, TOKEN_USES])
@pytest.mark.parametrize(
    ("role", "status"),
    [
        ("administrator", 200),
        ("compliance", 200),
        ("supervisor", 403),
        ("customer_service", 403),
        ("game_server", 403),
    ],
)
def test_administrators_and_compliance_read_the_record_and_nobody_else(url, role, status):
    assert client_of(role).get(url).status_code == status


@pytest.mark.parametrize("url", [SIGN_INS, DAYS, TOKEN_USES])
def test_an_anonymous_visitor_is_sent_to_sign_in(url):
    answer = Client().get(url)
    assert answer.status_code == 302 and answer["Location"].startswith(reverse("login"))


def test_the_sign_ins_filter_and_their_csv_holds_the_rows_shown():
    event("success", "ann", MONDAY, 9)
    event("failure", "ann", MONDAY, 10, detail="wrong password", address="198.51.100.20")
    event("failure", "bob", TUESDAY, 11, detail="unknown username")
    event("lockout", "ann", TUESDAY, 12, method="", detail="refused: username locked at this address")
    event("success", "sso-cy", TUESDAY, 13, method="single_sign_on")
    client = client_of("administrator")

    rows = csv_rows(
        client.get(SIGN_INS, {"kind": ["failure", "lockout"], "username": "an", "_export": "csv"})
    )
    assert column(rows, "Username") == ["ann", "ann"]
    assert column(rows, "Kind") == ["Lockout", "Failure"]  # newest first
    assert column(rows, "Detail") == ["refused: username locked at this address", "wrong password"]

    rows = csv_rows(
        client.get(SIGN_INS, {"day_from": "2026-03-03", "day_to": "2026-03-03", "_export": "csv"})
    )
    assert column(rows, "Username") == ["sso-cy", "ann", "bob"]
    assert column(rows, "Gaming day") == ["2026-03-03"] * 3
    rows = csv_rows(client.get(SIGN_INS, {"method": "single_sign_on", "_export": "csv"}))
    assert column(rows, "Method") == ["Single sign-on"]
    rows = csv_rows(client.get(SIGN_INS, {"address": "198.51.100.20", "_export": "csv"}))
    assert column(rows, "Detail") == ["wrong password"]
    assert client.get(SIGN_INS, {"address": "not an address"}).status_code == 400
    xlsx = client.get(SIGN_INS, {"username": "bob", "_export": "xlsx"})
    assert xlsx.status_code == 200 and xlsx["Content-Disposition"].endswith('sign-ins.xlsx"')


def test_the_break_glass_filter_and_the_review_columns():
    reviewer = user("compliance")
    event("success", "root-ada", MONDAY, 9, break_glass=True, provider_answered=False)
    event("success", "root-bo", MONDAY, 10, break_glass=True, provider_answered=True)
    SignInEvent.objects.filter(username="root-bo").update(
        reviewed_by=reviewer, reviewed_at=datetime(2026, 3, 2, 15, tzinfo=UTC), review_note="IdP outage"
    )
    event("success", "desk-cy", MONDAY, 11)
    client = client_of("administrator")

    flagged = csv_rows(client.get(SIGN_INS, {"break_glass": "flagged", "_export": "csv"}))
    assert column(flagged, "Username") == ["root-bo", "root-ada"]
    assert column(flagged, "Provider answered") == ["yes", "no"]
    assert column(flagged, "Reviewed by") == [reviewer.username, ""]
    assert column(flagged, "Review note") == ["IdP outage", ""]
    unreviewed = csv_rows(client.get(SIGN_INS, {"break_glass": "unreviewed", "_export": "csv"}))
    assert column(unreviewed, "Username") == ["root-ada"]
    everyone = csv_rows(client.get(SIGN_INS, {"_export": "csv"}))
    assert column(everyone, "Break-glass") == ["no", "yes", "yes"] and "" not in everyone[0]


def test_the_days_sum_each_kind_and_the_token_uses():
    event("success", "ann", MONDAY)
    event("success", "bob", MONDAY)
    event("failure", "ann", MONDAY)
    event("lockout", "ann", MONDAY)
    event("second_factor_failure", "cy", TUESDAY)
    event("success", "root-ada", TUESDAY, break_glass=True, provider_answered=False)
    server = user("game_server")
    first, _ = token_create(user=server, name="studio A")
    second, _ = token_create(user=server, name="studio B")
    moment = datetime(2026, 3, 4, 10, tzinfo=UTC)
    for token, address, minutes in (
        (first, "192.0.2.1", 30),
        (first, "192.0.2.2", 5),
        (second, "192.0.2.1", 7),
    ):
        TokenUse.objects.create(
            token=token,
            day=date(2026, 3, 4),
            address=address,
            first_at=moment,
            last_at=moment,
            minutes=minutes,
        )
    client = client_of("compliance")

    rows = csv_rows(client.get(DAYS, {"_export": "csv"}))

    assert rows[0] == [
        "Gaming day",
        "Successes",
        "Failures",
        "Lockouts",
        "Second-factor failures",
        "Break-glass",
        "Token uses (minutes)",
        "Tokens used",
    ]
    assert rows[1:] == [
        ["2026-03-04", "0", "0", "0", "0", "0", "42", "2"],
        ["2026-03-03", "1", "0", "0", "1", "1", "0", "0"],
        ["2026-03-02", "2", "1", "1", "0", "0", "0", "0"],
    ]
    one_day = csv_rows(client.get(DAYS, {"day_from": "2026-03-03", "day_to": "2026-03-03", "_export": "csv"}))
    assert [row[0] for row in one_day[1:]] == ["2026-03-03"]
    page = client.get(DAYS).content.decode()
    assert f"{SIGN_INS}?day_from=2026-03-02&amp;day_to=2026-03-02" in page
    assert client.get(DAYS, {"day_from": "2026-13-01"}).status_code == 400


def test_the_token_uses_filter_and_export():
    moment = datetime(2026, 3, 2, 10, tzinfo=UTC)
    server, other = user("game_server"), user("game_server", "box-two")
    token, key = token_create(user=server, name="studio A")
    spare, _ = token_create(user=other, name="studio B")
    TokenUse.objects.create(
        token=token, day=MONDAY, address="192.0.2.1", first_at=moment, last_at=moment, minutes=4
    )
    TokenUse.objects.create(
        token=spare, day=TUESDAY, address="192.0.2.2", first_at=moment, last_at=moment, minutes=1
    )
    client = client_of("administrator")

    rows = csv_rows(client.get(TOKEN_USES, {"username": server.username, "_export": "csv"}))
    assert rows[0] == ["Token", "Token name", "User", "Gaming day", "Address", "First", "Last", "Minutes"]
    assert rows[1:] == [
        [
            key[:8],
            "studio A",
            server.username,
            "2026-03-02",
            "192.0.2.1",
            moment.isoformat(),
            moment.isoformat(),
            "4",
        ]
    ]
    rows = csv_rows(client.get(TOKEN_USES, {"day_from": "2026-03-03", "_export": "csv"}))
    assert column(rows, "User") == ["box-two"]
    rows = csv_rows(client.get(TOKEN_USES, {"address": "192.0.2.2", "_export": "csv"}))
    assert column(rows, "Token name") == ["studio B"]


def review_url(sign_in: SignInEvent) -> str:
    return reverse("staff:sign_in_review", args=[sign_in.pk])


def test_compliance_reviews_a_break_glass_sign_in_once_with_a_note():
    flagged = event("success", "root-ada", MONDAY, break_glass=True, provider_answered=False)
    client = client_of("compliance")
    listed = client.get(SIGN_INS).content.decode()
    assert f'href="{review_url(flagged)}"' in listed

    page = client.get(review_url(flagged))
    assert page.status_code == 200
    text = page.content.decode()
    assert "root-ada" in text and "192.0.2.10" in text and "no: it did not answer" in text

    blank = client.post(review_url(flagged), {"note": "  "})
    assert blank.status_code == 200 and "Say what you found" in blank.content.decode()
    assert break_glass_unreviewed().get() == flagged  # nothing stored

    done = client.post(review_url(flagged), {"note": "The IdP was down for maintenance (change 4411)."})
    assert done.status_code == 302 and done["Location"] == review_url(flagged)
    flagged.refresh_from_db()
    assert flagged.reviewed_by == user("compliance") and flagged.reviewed_at is not None
    assert flagged.review_note == "The IdP was down for maintenance (change 4411)."
    assert not break_glass_unreviewed().exists()
    assert f'href="{review_url(flagged)}"' not in client.get(SIGN_INS).content.decode()

    again = client_of("compliance").post(review_url(flagged), {"note": "Second look."})
    assert again.status_code == 409 and "reviewed already" in again.content.decode()
    flagged.refresh_from_db()
    assert flagged.review_note == "The IdP was down for maintenance (change 4411)."


def test_a_sign_in_that_is_not_break_glass_is_not_reviewed():
    plain = event("success", "desk-cy", MONDAY)
    client = client_of("compliance")

    assert "nothing to review" in client.get(review_url(plain)).content.decode()
    refused = client.post(review_url(plain), {"note": "Looks fine."})

    assert refused.status_code == 409 and "Only a break-glass sign-in is reviewed" in refused.content.decode()
    plain.refresh_from_db()
    assert (plain.reviewed_at, plain.review_note) == (None, "")


@pytest.mark.parametrize("role", ["administrator", "supervisor", "customer_service", "game_server"])
def test_only_compliance_reviews(role):
    flagged = event("success", "root-ada", MONDAY, break_glass=True, provider_answered=True)
    client = client_of(role)

    assert client.get(review_url(flagged)).status_code == 403
    assert client.post(review_url(flagged), {"note": "Fine by me."}).status_code == 403
    assert break_glass_unreviewed().get() == flagged
    if role == "administrator":
        assert f'href="{review_url(flagged)}"' not in client.get(SIGN_INS).content.decode()


def test_a_missing_sign_in_is_not_found_only_for_who_may_review():
    assert client_of("compliance").get(reverse("staff:sign_in_review", args=[999])).status_code == 404
    assert client_of("administrator").get(reverse("staff:sign_in_review", args=[999])).status_code == 403

"""GET /api/tables/<code>/rules/: the sheet in force (now or at `at`) in English or Filipino, public,
cacheable with an ETag per sheet."""

import hashlib
from datetime import timedelta
from decimal import Decimal

import pytest
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from rest_framework.test import APIClient

from limits.services import table_limit_set
from sheets.content import render_sheet, sheet_in_force
from tables.models import ConfigurationOdds, TableConfiguration
from tables.odds import configuration_odds_compute
from tables.services import table_set_status
from tests.factories import table, user

pytestmark = pytest.mark.django_db
URL = "/api/tables/{}/rules/"


@pytest.fixture
def dlx():
    """DLX1 with its odds, opened (a table's sheet is public from its first opening)."""
    created = table("DLX1")
    for configuration in TableConfiguration.objects.filter(table=created):
        if not ConfigurationOdds.objects.filter(configuration=configuration).exists():
            configuration_odds_compute(configuration=configuration)
    table_set_status(table=created, status="open", changed_by=user("supervisor"), reason="Shift start")
    return created


def get(code="DLX1", **params):
    return APIClient().get(URL.format(code), params)


def test_anyone_gets_the_sheet_in_force_in_english(dlx):
    response = get()
    assert response.status_code == 200, response.content
    assert response["Content-Type"] == "application/json"
    body = response.json()
    version = TableConfiguration.objects.get(table=dlx, version=1)
    assert set(body) == {"table", "game", "version", "language", "in_force_from", "html"}
    assert (body["table"], body["game"], body["version"], body["language"]) == ("DLX1", "deluxe", 1, "en")
    assert parse_datetime(body["in_force_from"]) == version.valid_from
    assert body["html"] == render_sheet(sheet_in_force(dlx), "en")


def test_the_sheet_in_force_keeps_one_body_until_it_changes(dlx):
    """Whatever the time asked, while the version and limits stay: one body, so one ETag."""
    first = get()
    assert first.content == get().content == get(at=timezone.now().isoformat()).content
    table_limit_set(
        table=dlx,
        kind="main",
        min_stake=Decimal("1.00"),
        max_stake=Decimal("100.00"),
        changed_by=user("supervisor"),
        reason="lower limits",
    )
    assert get().content != first.content


def test_lang_fil_gives_the_filipino_sheet(dlx):
    body = get(lang="fil").json()
    assert body["language"] == "fil"
    assert body["html"] == render_sheet(sheet_in_force(dlx), "fil")
    assert body["html"] != get(lang="en").json()["html"]


def test_at_gives_the_sheet_of_that_time(dlx):
    before = timezone.now()
    table_limit_set(
        table=dlx,
        kind="main",
        min_stake=Decimal("10.00"),
        max_stake=Decimal("2500.00"),
        changed_by=user("supervisor"),
        reason="higher limits",
    )
    then, now = get(at=before.isoformat()).json(), get().json()
    assert then["version"] == now["version"] == 1
    assert then["html"] == render_sheet(sheet_in_force(dlx, at=before), "en")
    assert "2,500.00" in now["html"] and "2,500.00" not in then["html"]


def test_no_sheet_in_force_then_is_404(dlx):
    created = TableConfiguration.objects.get(table=dlx, version=1).valid_from
    response = get(at=(created - timedelta(days=1)).isoformat())
    assert response.status_code == 404
    assert "detail" in response.json()


def test_an_unknown_table_is_404(dlx):
    response = get("NOPE1")
    assert response.status_code == 404
    assert "detail" in response.json()


@pytest.mark.parametrize(
    ("params", "field"),
    [({"lang": "tl"}, "lang"), ({"lang": "FIL"}, "lang"), ({"at": "soon"}, "at"), ({"at": "2026-13"}, "at")],
)
def test_a_bad_lang_or_at_is_400_naming_it(dlx, params, field):
    response = get(**params)
    assert response.status_code == 400
    assert list(response.json()) == [field]


def test_the_etag_is_the_hash_of_the_body_and_the_answer_is_public(dlx):
    response = get(lang="fil")
    assert response["ETag"] == f'"{hashlib.md5(response.content).hexdigest()}"'
    directives = {part.strip() for part in response["Cache-Control"].split(",")}
    assert {"public", "max-age=300"} <= directives


def test_if_none_match_with_the_sheets_etag_is_304(dlx):
    etag = get(lang="fil")["ETag"]
    client = APIClient()
    response = client.get(URL.format("DLX1"), {"lang": "fil"}, HTTP_IF_NONE_MATCH=etag)
    assert response.status_code == 304
    assert response.content == b""
    assert response["ETag"] == etag
    assert "public" in response["Cache-Control"]
    # Another sheet (the English one) does not match it.
    assert client.get(URL.format("DLX1"), {"lang": "en"}, HTTP_IF_NONE_MATCH=etag).status_code == 200


def test_a_limit_change_makes_a_new_etag(dlx):
    etag = get()["ETag"]
    table_limit_set(
        table=dlx,
        kind="main",
        min_stake=Decimal("1.00"),
        max_stake=Decimal("100.00"),
        changed_by=user("supervisor"),
        reason="lower limits",
    )
    response = APIClient().get(URL.format("DLX1"), HTTP_IF_NONE_MATCH=etag)
    assert response.status_code == 200
    assert response["ETag"] != etag


def test_credentials_are_not_read(dlx):
    """A bad token or a signed-in user gets the same public answer, not a 401."""
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION="Token not-a-token")
    assert client.get(URL.format("DLX1")).status_code == 200
    client = APIClient()
    client.force_login(user("compliance"))
    assert client.get(URL.format("DLX1")).content == get().content

"""The rule sheets' pages and PDFs: public, in English and Filipino, at any time (`?at=`), a 400 naming
`at` for a bad time, a 404 where there is no sheet; a version's preview for staff only; the portal stays
English."""

import re
from datetime import timedelta
from decimal import Decimal
from urllib.parse import quote

import pytest
from django.test import Client
from django.utils import timezone

from limits.services import table_limit_set
from sheets.content import sheet_in_force
from sheets.opening import public_sheet
from tables.models import Table, TableConfiguration
from tests import factories
from tests.pdf_text import pdf_text
from tests.sheets.test_content import numbers_in, read_sheet, world  # noqa: F401 (world: a fixture)

# seed_demo's tables with their odds, from test_content.py, for every test here.
pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("world")]


def test_the_sheets_need_no_sign_in(client):
    english = client.get("/rules/DLX1/")
    filipino = client.get("/rules/DLX1/fil/")
    assert english.status_code == filipino.status_code == 200
    assert english["Content-Language"] == "en" and filipino["Content-Language"] == "fil"
    assert '<html lang="en">' in english.text and '<html lang="fil">' in filipino.text
    assert "99.51%" in english.text  # the stored 99.5169 cut to two decimals: never more than the game gives
    # Nothing but the sheet: none of the portal's frame.
    assert "topbar" not in english.text and "Sign in" not in english.text
    assert 'href="/rules/DLX1/fil/"' in english.text and 'href="/rules/DLX1/pdf/"' in english.text


def test_a_sheet_states_its_numbers_in_both_languages(client):
    for url, language in (("/rules/CLS1/", "en"), ("/rules/CLS1/fil/", "fil")):
        reader = read_sheet(client.get(url).text)
        stated = dict(reader.numbered)
        assert numbers_in(stated["paytable:perfect_pairs:perfect_pair"], language) == [25]
        assert numbers_in(stated["limit:main:max"], language) == [2500]


def test_unknown_language_table_or_version_is_404(client):
    assert client.get("/rules/DLX1/de/").status_code == 404
    assert client.get("/rules/DLX1/en/").status_code == 404  # English is /rules/DLX1/
    assert client.get("/rules/NOPE1/").status_code == 404
    before = TableConfiguration.objects.get(table__code="DLX1", version=1).valid_from - timedelta(days=1)
    response = client.get("/rules/DLX1/", {"at": before.isoformat()})
    assert response.status_code == 404 and "no rules in force" in response.text


@pytest.mark.parametrize("value", ["yesterday", "2026-13-01T00:00", "0001-01-01T00:00+01:00", "2026-02-30"])
def test_a_bad_at_is_a_400_naming_the_field(client, value):
    response = client.get("/rules/DLX1/fil/", {"at": value})
    assert response.status_code == 400
    assert 'data-field="at"' in response.text


def test_at_shows_the_sheet_in_force_then(client):
    table = Table.objects.get(code="DLX1")
    before = timezone.now()
    table_limit_set(
        table=table,
        kind="behind",
        min_stake=Decimal("2.00"),
        max_stake=Decimal("40.00"),
        changed_by=factories.user("supervisor"),
        reason="wider play behind",
    )
    old = client.get(f"/rules/DLX1/?at={quote(before.isoformat())}")
    new = client.get("/rules/DLX1/")
    assert old.status_code == new.status_code == 200
    assert dict(read_sheet(old.text).numbered)["limit:behind:max"].strip() == "25.00 EUR"
    assert dict(read_sheet(new.text).numbered)["limit:behind:max"].strip() == "40.00 EUR"
    # The page for a time says from when its sheet was in force, and its links name that moment: one
    # page for every time within the sheet's version (issue 43).
    since = public_sheet(table, before).in_force_from
    assert since <= before
    assert f'data-at="{since.isoformat()}"' in old.text and 'data-at="' not in new.text
    assert f'href="/rules/DLX1/fil/?at={quote(since.isoformat(), safe="")}"' in old.text


def test_the_pdf_holds_the_rtp(client, tmp_path):
    for url, name in (("/rules/BND1/pdf/", "en.pdf"), ("/rules/BND1/fil/pdf/", "fil.pdf")):
        response = client.get(url)
        assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
        assert "rules-BND1-v1-" in response["Content-Disposition"]
        path = tmp_path / name
        path.write_bytes(response.content)
        text = pdf_text(path)
        sheet = sheet_in_force(Table.objects.get(code="BND1"))
        assert f"{sheet.main_rtp}%" in text
        for option in sheet.side_options:
            assert f"{option.rtp}%" in text
        assert "BND1" in text


def test_a_version_preview_is_for_staff_only():
    url = "/rules/CLS1/versions/1/"
    anonymous = Client().get(url)
    assert anonymous.status_code == 302 and "/accounts/login/" in anonymous["Location"]
    no_permission = Client()
    no_permission.force_login(factories.user("customer_service"))
    assert no_permission.get(url).status_code == 403
    supervisor = Client()
    supervisor.force_login(factories.user("supervisor"))
    response = supervisor.get(url)
    assert response.status_code == 200 and "Configuration version 1, in force from" in response.text
    assert supervisor.get(url, {"lang": "fil"})["Content-Language"] == "fil"
    assert supervisor.get("/rules/CLS1/versions/9/").status_code == 404


def test_the_portal_stays_english_after_a_filipino_sheet():
    supervisor = Client()
    supervisor.force_login(factories.user("supervisor"))
    assert supervisor.get("/rules/DLX1/fil/").status_code == 200
    page = supervisor.get("/tables/DLX1/")
    assert page.status_code == 200
    assert re.search(r'<html lang="en', page.text)
    assert "Configuration" in page.text

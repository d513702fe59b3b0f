"""Bounds on every field of a configuration change, every error at once; a stored value out of
bounds never breaks the table page."""

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone
from freezegun import freeze_time

from tables.models import TableConfiguration
from tests.api_support import client_as
from tests.api_support import make_table as api_table
from tests.tables.test_pages import configuration_form, login, make_table

pytestmark = pytest.mark.django_db


def propose(client, code: str, **changes):
    return client.post(
        reverse("tables:configuration_change", args=[code]), configuration_form(client, code, **changes)
    )


def test_odds_of_1e308_are_refused_and_the_table_page_still_serves(client):
    make_table("CLS1", game="classic")
    login(client, "supervisor")
    response = propose(client, "CLS1", perfect_pairs__mixed_pair="1e308", reason="typo")
    assert response.status_code == 200
    assert "at most 10,000 to 1" in " ".join(response.context["form"].errors["perfect_pairs__mixed_pair"])
    assert TableConfiguration.objects.count() == 1
    assert client.get(reverse("tables:table_detail", args=["CLS1"])).status_code == 200


def test_every_field_out_of_bounds_is_named_in_one_submit(client):
    make_table("CLS1", game="classic")
    login(client, "supervisor")
    response = propose(
        client,
        "CLS1",
        seats="99999999999",
        perfect_pairs__mixed_pair="1e308",
        perfect_pairs__coloured_pair="0",
        perfect_pairs__max_round="101",
        twenty_one_plus_three__max_round="1e12",
        reason="",
    )
    assert response.status_code == 200
    errors = response.context["form"].errors
    assert {
        "seats",
        "perfect_pairs__mixed_pair",
        "perfect_pairs__coloured_pair",
        "perfect_pairs__max_round",
        "twenty_one_plus_three__max_round",
        "reason",
    } <= set(errors), errors
    assert "at most 7" in errors["seats"][0]
    assert "from 1 to 100" in errors["perfect_pairs__max_round"][0]
    assert TableConfiguration.objects.count() == 1


@pytest.mark.parametrize(
    ("code", "game", "change", "field"),
    [
        ("DLX1", "deluxe", {"seats": "8"}, "seats"),
        ("MPB1", "multiplayer", {"seats": "8"}, "seats"),
        ("BND1", "boundless", {"pair__perfect_pair": "10000.01"}, "pair__perfect_pair"),
        ("BND1", "boundless", {"bust_bonus__max_round": "0"}, "bust_bonus__max_round"),
    ],
)
def test_each_game_keeps_to_its_bounds(client, code, game, change, field):
    make_table(code, game=game)
    login(client, "supervisor")
    response = propose(client, code, reason="try", **change)
    assert response.status_code == 200 and field in response.context["form"].errors
    assert TableConfiguration.objects.count() == 1


def test_the_bounds_themselves_are_allowed(client):
    make_table("BND1", game="boundless")
    login(client, "supervisor")
    response = propose(client, "BND1", pair__perfect_pair="10000", pair__max_round="100", reason="edge")
    assert response.status_code == 302, response.context["form"].errors
    latest = TableConfiguration.objects.filter(table__code="BND1").latest("version")
    assert latest.rules["side_options"]["pair"] == {
        "paytable": {"mixed_pair": "5", "coloured_pair": "10", "perfect_pair": "10000"},
        "max_round": 100,
    }


def test_the_api_names_every_field_out_of_bounds_at_once():
    api_table("DLX1")
    body = {
        "changes": {
            "seats": 99999999999,
            "side_options": {
                "pair": {"paytable": {"mixed_pair": "1e308", "coloured_pair": "0"}, "max_round": 1e12}
            },
        },
        "reason": "typo",
        "seen_version": 1,
    }
    response = client_as("supervisor").post("/api/tables/DLX1/configurations/", body, format="json")
    assert response.status_code == 400
    assert {
        "rules.seats",
        "rules.side_options.pair.paytable.mixed_pair",
        "rules.side_options.pair.paytable.coloured_pair",
        "rules.side_options.pair.max_round",
    } <= set(response.json()), response.json()
    assert TableConfiguration.objects.count() == 1


def test_a_start_a_few_seconds_in_the_past_is_refused():
    with freeze_time(timezone.now() - timedelta(hours=1)):
        api_table("DLX1")
    body = {
        "changes": {"seats": 6},
        "reason": "fewer seats",
        "valid_from": (timezone.now() - timedelta(seconds=3)).isoformat(),
        "seen_version": 1,
    }
    response = client_as("supervisor").post("/api/tables/DLX1/configurations/", body, format="json")
    assert response.status_code == 400
    assert "in the past" in response.json()["valid_from"][0]
    assert TableConfiguration.objects.count() == 1


def test_a_stored_version_out_of_bounds_still_shows_on_the_table_page(client):
    """Versions stored before the bounds existed are read as stored (history is never edited)."""
    with freeze_time(timezone.now() - timedelta(days=1)):
        table = make_table("DLX1")
    first = TableConfiguration.objects.get(table=table)
    rules = first.rules | {
        "side_options": {"pair": {"paytable": {"mixed_pair": "1E+308"}, "max_round": 10**12}}
    }
    TableConfiguration.objects.create(
        table=table,
        version=2,
        valid_from=timezone.now() - timedelta(minutes=1),
        rules=rules,
        reason="stored before the bounds",
        created_by=first.created_by,
        status="approved",
    )
    login(client, "supervisor")
    page = client.get(reverse("tables:table_detail", args=["DLX1"]))
    assert page.status_code == 200
    assert "1" + "0" * 308 + ":1" in page.content.decode()
    form = client.get(reverse("tables:configuration_change", args=["DLX1"]))
    assert form.status_code == 200

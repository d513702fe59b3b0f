"""Amounts at the round format's bounds (12 digits before the point, docs/round-format.md) once
accepted are kept and shown to the cent (issue 44): the round in the API, and a table's day totals
of many such rounds, whose moments (ΣW_r²) outgrow any fixed width."""

import io
import itertools
import json
from datetime import date, timedelta
from decimal import Decimal

import pytest
from django.core.management import call_command

from blackjack.rules import preset
from blackjack.simulate import simulate
from core.gaming_day import gaming_day
from core.money import exact_product, exact_sum
from rounds.models import Bet, Round, TableDayTotal
from tests.amount_support import MOST, assert_figure
from tests.api_support import client_as
from tests.fixtures import round_document

pytestmark = pytest.mark.django_db

DAY = date(2026, 3, 9)


@pytest.fixture
def game_server(db):
    call_command("seed_demo", stdout=io.StringIO())
    return client_as("game_server")


def test_a_round_staked_at_the_bound_is_shown_by_the_api_to_the_cent(game_server):
    """A double at the bound: the engine's wagered (twice the stake) is wider than any amount sent."""
    document = round_document("deluxe-split-double-play-behind")
    document["bets"][0]["stake"] = str(MOST)  # the split and doubled main bet
    assert game_server.post("/api/rounds/", document, format="json").status_code == 201
    response = client_as("compliance").get(f"/api/rounds/{document['round_id']}/")
    assert response.status_code == 200, response.content
    bet = next(bet for bet in response.json()["bets"] if bet["bet_id"] == document["bets"][0]["bet_id"])
    stored = Bet.objects.get(bet_id=bet["bet_id"])
    assert bet["stake"] == str(MOST)
    assert stored.computed_wagered == MOST * 3  # split, then one hand doubled: three stakes
    assert bet["computed"]["wagered"] == f"{stored.computed_wagered:.2f}"
    assert bet["computed"]["returned"] == f"{stored.computed_returned:.2f}"
    assert Decimal(bet["difference"]) == stored.computed_returned - stored.returned


def mains(document: dict) -> int:
    return sum(1 for bet in document["bets"] if bet["kind"] == "main")


def rounds_of_fifteen_at_the_bound(count: int) -> list[dict]:
    """`count` Boundless rounds of one gaming day with fifteen main bets each, every one staking and
    reporting the largest amount the format takes (W_r = 15 × MOST in every round)."""
    start = gaming_day(DAY).starts_at + timedelta(hours=1)
    played = simulate(preset("boundless"), table="BND1", shoes=6, players=15, seed=44, start=start)
    fifteen = (d for d in played if d["status"] == "completed" and mains(d) == 15)
    documents = []
    for document in itertools.islice(fifteen, count):
        document = json.loads(json.dumps(document))
        for bet in document["bets"]:
            if bet["kind"] != "main":
                continue
            bet.update(stake=str(MOST), wagered=str(MOST), returned=str(MOST))
        documents.append(document)
    assert len(documents) == count
    return documents


def test_forty_five_rounds_of_fifteen_bets_at_the_bound_add_up_exactly(game_server):
    """ΣW_r² of 45 such rounds is 45 × (15 × MOST)², over 10²⁸: it once overflowed its column (a 500
    at the 45th round on PostgreSQL). Exact there; to SQLite's 15 significant digits on SQLite."""
    documents = rounds_of_fifteen_at_the_bound(45)
    for number, document in enumerate(documents, 1):
        response = game_server.post("/api/rounds/", document, format="json")
        assert response.status_code == 201, (number, response.content)
    main = TableDayTotal.objects.get(day=DAY, table__code="BND1", kind="main")
    per_round = exact_product(MOST, 15)
    assert main.rounds == 45 and main.bets == 45 * 15
    for name in ("wagered", "returned", "stakes"):
        assert_figure(getattr(main, name), exact_product(per_round, 45))
    squared = exact_sum([exact_product(per_round, per_round)] * 45)
    assert squared > Decimal("1e28")
    for name in ("wagered_squared", "returned_squared", "wagered_returned"):
        assert_figure(getattr(main, name), squared)
    assert Round.objects.filter(gaming_day=DAY).count() == 45

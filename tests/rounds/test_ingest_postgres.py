"""Ingest on PostgreSQL: the COPY path writes what the bulk_create path writes, and one round sent
by several game-server threads at once is stored once."""

import io
import json
import threading
from datetime import UTC, datetime

import pytest
from django.core.management import call_command
from django.db import connection, connections
from django.db.models import Exists, OuterRef

from blackjack.rules import preset
from blackjack.simulate import simulate
from limits.models import Player
from rounds.ingest import round_ingest
from rounds.models import (
    Bet,
    Finding,
    PlayerDayTotal,
    PlayerTotalsPending,
    Round,
    TableDayPatternHits,
    TableDayTotal,
)
from tests.fixtures import round_document, round_documents

pytestmark = pytest.mark.postgres


@pytest.mark.django_db
def test_the_copy_path_writes_every_row_and_column():
    call_command("seed_demo", stdout=io.StringIO())
    assert connection.vendor == "postgresql"
    document = round_document("deluxe-split-double-play-behind")
    result = round_ingest(document=document)
    stored = Round.objects.get(pk=result.round.pk)
    assert stored.document == document and stored.ingested_at is not None
    assert stored.review_comment == "" and stored.reviewed_by is None
    spots = stored.dealt_spots  # read from the stored document
    assert [(s.spot, s.seat, s.player) for s in spots] == [
        (s["spot"], s["seat"], s["player"]) for s in document["spots"]
    ]
    hands = [(s.spot, h.position, h.cards, h.actions) for s in spots for h in s.hands]
    expected = [
        (s["spot"], position, hand["cards"], hand["actions"])
        for s in document["spots"]
        for position, hand in enumerate(s["hands"], start=1)
    ]
    assert hands == expected
    behind = next(b for b in document["bets"] if b["kind"] == "behind")
    options = Bet.objects.get(bet_id=behind["bet_id"]).options
    assert options["follow_double"] == behind.get("follow_double", False)
    assert Bet.objects.filter(round=stored, options={}).count() == len(document["bets"]) - sum(
        1 for b in document["bets"] if b["kind"] == "behind" or b.get("behind")
    )


@pytest.mark.django_db
def test_a_boundless_round_of_many_players_creates_them_once():
    call_command("seed_demo", stdout=io.StringIO())
    documents = simulate(
        preset("boundless"),
        table="BND1",
        shoes=1,
        players=300,
        seed=7,
        start=datetime(2026, 11, 28, 8, tzinfo=UTC),
    )
    first, second = next(documents), next(documents)
    before = Player.objects.count()
    known = set(Player.objects.values_list("external_id", flat=True))  # seed_demo has a few of them
    round_ingest(document=json.loads(json.dumps(first)))
    created = Player.objects.count() - before
    assert created == len({spot["player"] for spot in first["spots"]} - known) > 250
    assert Player.history.model.objects.filter(history_type="+").count() >= created
    round_ingest(document=json.loads(json.dumps(second)))
    assert sum(len(r.dealt_spots) for r in Round.objects.all()) == len(first["spots"]) + len(second["spots"])
    assert Bet.objects.count() == len(first["bets"]) + len(second["bets"])
    shoe_findings = Finding.objects.filter(code__startswith="shoe_")
    assert not shoe_findings.exists()


@pytest.mark.django_db(transaction=True)
def test_concurrent_resends_of_one_round_store_it_once():
    call_command("seed_demo", stdout=io.StringIO())
    document = round_document("boundless-shared-deal-split-double")
    start = threading.Barrier(6)
    outcomes, errors = [], []

    def send():
        try:
            start.wait()
            outcomes.append(round_ingest(document=json.loads(json.dumps(document))).created)
        except Exception as error:  # noqa: BLE001 - reported below
            errors.append(error)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=send) for _ in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    assert sorted(outcomes) == [False] * 5 + [True]
    assert Round.objects.count() == 1
    assert Bet.objects.count() == len(document["bets"])


def rows_pointing_nowhere() -> dict[str, int]:
    """Rows whose link without a database constraint (models.ROUND_ROW_LINK) points at no row."""
    found = {}
    for model in (
        Bet,
        Finding,
        TableDayTotal,
        TableDayPatternHits,
        PlayerDayTotal,
        PlayerTotalsPending,
    ):
        for link in model._meta.concrete_fields:
            if link.is_relation and not link.db_constraint:
                target = link.related_model.objects.filter(pk=OuterRef(link.attname))
                orphans = model.objects.exclude(**{f"{link.attname}__isnull": True}).exclude(Exists(target))
                found[f"{model.__name__}.{link.name}"] = orphans.count()
    return found


@pytest.mark.django_db
def test_every_round_row_points_at_a_stored_row():
    call_command("seed_demo", stdout=io.StringIO())
    for document in round_documents():
        round_ingest(document=document)
    documents = simulate(
        preset("boundless"),
        table="BND1",
        shoes=1,
        players=200,
        seed=11,
        start=datetime(2026, 11, 28, 8, tzinfo=UTC),
    )
    for document in [next(documents) for _ in range(3)]:
        document = json.loads(json.dumps(document))
        document["bets"][0]["returned"] = "9999.00"  # a wrong payout: a finding on that bet
        round_ingest(document=document)
    assert Finding.objects.filter(bet__isnull=False).exists()  # bet links are checked too
    counts = rows_pointing_nowhere()
    assert set(counts) == {
        "Bet.round",
        "Bet.player",
        "Finding.round",
        "Finding.bet",
        "TableDayTotal.table",
        "TableDayTotal.largest_round",
        "TableDayPatternHits.table",
        "PlayerTotalsPending.round",
        "PlayerTotalsPending.table",
        "PlayerDayTotal.table",
        "PlayerDayTotal.player",
    }
    assert counts == dict.fromkeys(counts, 0)

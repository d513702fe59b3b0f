"""bench_history's synthetic history (tests/benchmarks/history_build.py), built at a tiny scale, holds
together as ingest's rows do: every bet and finding in an existing round (and a finding at a bet of
the same round), each round's bet count and amounts those of its bets, bet ids unique, documents
naming the round's own ids, times and bets, rounds in every month of the history on their gaming
days, and day totals equal to the bets. PostgreSQL only: the builder writes by PostgreSQL's SQL
(explicit ids and sequences, sha256, pg-only functions)."""

import hashlib
import json
from collections import Counter
from datetime import UTC, datetime
from decimal import Decimal

import pytest
from django.db import connection
from django.db.models import Count, Sum

from blackjack.rules import preset
from blackjack.simulate import simulate
from core.gaming_day import gaming_day_of
from rounds.fields import json_of_compressed
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
from rounds.partitions import PARTITIONED
from tests.benchmarks import history_build
from tests.benchmarks.bench_ingest import _prepare

pytestmark = [pytest.mark.postgres, pytest.mark.django_db]

SCALE = 0.0005  # a round or a few a table a month


def scalar(sql: str, params: list | None = None):
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.fetchone()[0]


@pytest.fixture
def built():
    _prepare()
    templates = history_build.templates_ingest()
    template_rounds = set(Round.objects.values_list("round_id", flat=True))
    written = history_build.history_build(history_build.history_months(), SCALE)
    expected = history_build.expected_at(SCALE)
    history_build.helpers_drop()
    return {
        "templates": templates,
        "template_rounds": template_rounds,
        "written": written,
        "expected": expected,
    }


def test_a_tiny_history_holds_together(built):
    synthetic = Round.objects.exclude(round_id__in=built["template_rounds"])
    rounds, bets = built["expected"]
    assert built["templates"] == len(built["template_rounds"]) > 0
    assert synthetic.count() == built["written"]["rounds_round"] == rounds
    assert Bet.objects.filter(round__in=synthetic).count() == built["written"]["rounds_bet"] == bets

    # Every month's rows in its own partition, as a live system's: none waits in a default partition.
    for table in PARTITIONED:
        assert scalar(f"SELECT count(*) FROM {table}_default") == 0, table

    # Every row in an existing round; a finding at a bet of its round.
    for model in (Bet, Finding):
        assert (
            scalar(
                f"SELECT count(*) FROM {model._meta.db_table} x "
                "WHERE NOT EXISTS (SELECT 1 FROM rounds_round r WHERE r.id = x.round_id)"
            )
            == 0
        ), model
    assert (
        scalar(
            "SELECT count(*) FROM rounds_finding f LEFT JOIN rounds_bet b ON b.id = f.bet_id "
            "WHERE f.bet_id IS NOT NULL AND (b.id IS NULL OR b.round_id <> f.round_id)"
        )
        == 0
    )
    assert Finding.objects.filter(round__in=synthetic).exists()

    # A round's counts and amounts are its rows'.
    totals = Round.objects.aggregate(bets=Sum("bet_count"), wagered=Sum("wagered"), returned=Sum("returned"))
    assert totals["bets"] == Bet.objects.count()
    assert totals["wagered"] == Bet.objects.aggregate(total=Sum("wagered"))["total"]
    assert totals["returned"] == Bet.objects.aggregate(total=Sum("returned"))["total"]
    mismatched = scalar(
        "SELECT count(*) FROM rounds_round r "
        "WHERE r.bet_count <> (SELECT count(*) FROM rounds_bet b WHERE b.round_id = r.id) "
        "OR r.finding_count <> (SELECT count(*) FROM rounds_finding f WHERE f.round_id = r.id)"
    )
    assert mismatched == 0

    # Bet ids unique, each its round's id and a suffix.
    assert Bet.objects.values("bet_id").distinct().count() == Bet.objects.count()
    assert (
        scalar(
            "SELECT count(*) FROM rounds_bet b JOIN rounds_round r ON r.id = b.round_id "
            "WHERE b.bet_id NOT LIKE r.round_id || '-B%'"
        )
        == 0
    )

    # Every month of the history, at every table, each round on the gaming day it opened in.
    months = Counter(
        (r.gaming_day.year, r.gaming_day.month, r.table_id) for r in synthetic.only("gaming_day", "table_id")
    )
    assert len({(year, month) for year, month, _ in months}) == history_build.MONTHS == 24
    assert len(months) == history_build.MONTHS * len(history_build.SHAPES)
    for opened_at, day in synthetic.values_list("opened_at", "gaming_day"):
        assert gaming_day_of(opened_at) == day


def test_documents_and_day_totals_are_the_rows(built):
    synthetic = Round.objects.exclude(round_id__in=built["template_rounds"])
    bet_ids = {}
    for round_pk, bet_id in Bet.objects.filter(round__in=synthetic).values_list("round_id", "bet_id"):
        bet_ids.setdefault(round_pk, set()).add(bet_id)
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT r.id, r.round_id, s.code, r.number, r.opened_at, r.closed_at, r.document, "
            "r.document_sha256 FROM rounds_round r JOIN rounds_shoe s ON s.id = r.shoe_id "
            "WHERE NOT (r.round_id = ANY(%s))",
            [list(built["template_rounds"])],
        )
        for pk, round_id, shoe, number, opened_at, closed_at, stored, digest in cursor.fetchall():
            text = json_of_compressed(stored)  # compressed as ingest keeps a document
            document = json.loads(text)
            assert (document["round_id"], document["shoe"], document["number"]) == (round_id, shoe, number)
            assert document["opened_at"] == opened_at.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
            assert document["closed_at"] == closed_at.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
            assert {bet["bet_id"] for bet in document["bets"]} == bet_ids[pk]
            assert digest == hashlib.sha256(text.encode()).hexdigest()

    completed = Bet.objects.filter(round__status="completed")
    day_totals = TableDayTotal.objects.aggregate(bets=Sum("bets"), wagered=Sum("wagered"))
    assert day_totals == {
        "bets": completed.count(),
        "wagered": completed.aggregate(total=Sum("wagered"))["total"],
    }
    assert PlayerDayTotal.objects.aggregate(bets=Sum("bets"))["bets"] == completed.count()
    per_day = dict(TableDayTotal.objects.values_list("day").annotate(Sum("bets")))
    assert per_day == dict(completed.values_list("round__gaming_day").annotate(Count("id")))
    assert not PlayerTotalsPending.objects.exists()
    assert Decimal(day_totals["wagered"]) > 0


def test_ingest_goes_on_after_the_history(built):
    """The ids written by SQL moved the sequences on: a round ingested next is stored with its rows."""
    document = next(
        simulate(
            preset("deluxe"),
            table="DLX1",
            shoes=1,
            players=5,
            seed=3,
            start=datetime(2026, 11, 30, 9, tzinfo=UTC),
        )
    )
    document = json.loads(json.dumps(document).replace("DLX1-S0001", "DLX1-AFTER"))
    result = round_ingest(document=document)
    assert result.created
    assert result.round.bets.count() == len(document["bets"])


def totals_rows() -> dict[str, list[tuple]]:
    """Every day total's row but its id, in order."""
    rows = {}
    for model in (TableDayTotal, TableDayPatternHits, PlayerDayTotal):
        fields = [field.attname for field in model._meta.concrete_fields if field.attname != "id"]
        rows[model.__name__] = sorted(model.objects.values_list(*fields))
    return rows


def test_day_totals_are_the_migrations_row_by_row(built):
    """The builder's month-at-a-time totals equal those of migration 0006's day-by-day rebuild."""
    import importlib

    from django.apps import apps

    built_rows = totals_rows()
    assert all(built_rows.values())
    with connection.cursor() as cursor:
        cursor.execute("TRUNCATE rounds_tabledaytotal, rounds_tabledaypatternhits, rounds_playerdaytotal")
    migration = importlib.import_module("rounds.migrations.0006_day_totals_for_reports")
    migration.totals_of_stored_rounds(apps, connection.schema_editor())
    assert totals_rows() == built_rows

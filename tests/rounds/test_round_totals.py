"""The day totals ingest adds each completed round to for the daily report (TableDayTotal,
TableDayPatternHits, PlayerDayTotal) against the same sums worked out here from the stored bets, on
SQLite and on PostgreSQL; and the migration that writes them for rounds stored before them."""

import importlib
import io
import json
import random
from collections import defaultdict
from datetime import UTC, datetime
from decimal import Decimal

import pytest
from django.apps import apps
from django.core.management import call_command
from django.db import connection
from freezegun import freeze_time

from blackjack.rules import preset
from blackjack.simulate import simulate_shoe
from core.gaming_day import gaming_day_of
from rounds.ingest import round_ingest
from rounds.models import PlayerDayTotal, PlayerTotalsPending, Round, TableDayPatternHits, TableDayTotal
from rounds.totals import player_totals_catch_up
from tables.models import Table, TableConfiguration
from tests import factories
from tests.fixtures import round_documents

pytestmark = pytest.mark.django_db


def ingest_a_mixed_day() -> None:
    """Every fixture round (one sent cancelled) and simulated Boundless and Deluxe rounds across the
    gaming-day cut-off, so that players' totals fall on two days; Deluxe's Pair is staked after
    its max round."""
    call_command("seed_demo", stdout=io.StringIO())
    deluxe = Table.objects.get(code="DLX1")
    (pair,) = [o for o in deluxe.configurations.get(version=1).rule_set.side_options if o.kind == "pair"]
    paytable = {pattern: str(odds) for pattern, odds in pair.paytable}
    with freeze_time("2026-11-01"):  # Deluxe's Pair closes after round 3: later Pair stakes are late
        factories.configuration_approved(
            deluxe,
            {"side_options": {"pair": {"paytable": paytable, "max_round": 3}}},
            proposed_by=factories.user("supervisor", "supervisor"),
            reason="Pair closes early",
            valid_from=datetime(2026, 11, 2, tzinfo=UTC),
        )
    for document in round_documents():
        round_ingest(document=document)
    for game, table, players in (("boundless", "BND1", 40), ("deluxe", "DLX1", 7)):
        documents = simulate_shoe(
            preset(game),
            table=table,
            shoe_id=f"{table}-TOTALS",
            players=players,
            rng=random.Random(5),
            start=datetime(2026, 11, 28, 4, 50, tzinfo=UTC),
            cancel_rate=0.1,
        )
        for document in documents[:25]:
            round_ingest(document=json.loads(json.dumps(document)))


def completed_bets() -> list[tuple]:
    """Every bet of a completed round: (gaming day, table, version, kind, round, player, stake,
    wagered, returned, pattern, staked after the max round), as stored."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT r.opened_at, r.table_id, coalesce(r.configuration_id, 0), b.kind, b.round_id, "
            "b.player_id, "
            "b.stake, b.wagered, b.returned, b.computed_pattern, EXISTS (SELECT 1 FROM rounds_finding late "
            "WHERE late.bet_id = b.id AND late.code = 'side_option_after_max_round') "
            "FROM rounds_bet b JOIN rounds_round r ON r.id = b.round_id WHERE r.status = 'completed' "
            "ORDER BY b.round_id, b.id"
        )
        rows = cursor.fetchall()
    bets = []
    for opened_at, *rest, stake, wagered, returned, pattern, late in rows:
        if opened_at.tzinfo is None:  # SQLite gives the stored UTC moment without its zone
            opened_at = opened_at.replace(tzinfo=UTC)
        amounts = (Decimal(str(stake)), Decimal(str(wagered)), Decimal(str(returned)))
        bets.append((gaming_day_of(opened_at), *rest, *amounts, pattern, bool(late)))
    return bets


def cents(value) -> Decimal:
    return Decimal(str(value)).quantize(Decimal("0.0001"))


def day_totals_expected() -> list[tuple]:
    per_round: dict[tuple, list] = defaultdict(lambda: [0, Decimal(0), Decimal(0), Decimal(0), 0, Decimal(0)])
    for day, table, version, kind, round_pk, _, stake, wagered, returned, _, late in completed_bets():
        entry = per_round[(day, table, version, kind, round_pk)]
        for position, value in enumerate((1, stake, wagered, returned, int(late), stake if late else 0)):
            entry[position] += value
    days: dict[tuple, list] = {}
    for (*key, round_pk), (bets, stakes, wagered, returned, late, late_stakes) in sorted(per_round.items()):
        day = days.setdefault(tuple(key), [0, 0, *[Decimal(0)] * 6, Decimal(-1), None, 0, Decimal(0)])
        sums = (1, bets, stakes, wagered, returned, wagered**2, returned**2, wagered * returned)
        day[:8] = [total + value for total, value in zip(day[:8], sums, strict=True)]
        if stakes > day[8]:  # the first round stored keeps its place among equals
            day[8:10] = [stakes, round_pk]
        day[10] += late
        day[11] += late_stakes
    return sorted(
        (*key, *(cents(v) if isinstance(v, Decimal) else v for v in day)) for key, day in days.items()
    )


def day_totals_stored() -> list[tuple]:
    return sorted(
        (
            *(t.day, t.table_id, t.configuration_pk, t.kind, t.rounds, t.bets),
            *(cents(v) for v in (t.stakes, t.wagered, t.returned)),
            *(cents(v) for v in (t.wagered_squared, t.returned_squared, t.wagered_returned)),
            *(cents(t.largest_round_stakes), t.largest_round_id, t.after_max_round_bets),
            cents(t.after_max_round_stakes),
        )
        for t in TableDayTotal.objects.all()
    )


def pattern_hits_expected() -> list[tuple]:
    hits: dict[tuple, list] = defaultdict(lambda: [0, set()])
    for day, table, version, kind, round_pk, _, _, _, _, pattern, _ in completed_bets():
        if pattern:
            hits[(day, table, version, kind, pattern)][0] += 1
            hits[(day, table, version, kind, pattern)][1].add(round_pk)
    return sorted((*key, bets, len(rounds)) for key, (bets, rounds) in hits.items())


def pattern_hits_stored() -> list[tuple]:
    return sorted(
        (h.day, h.table_id, h.configuration_pk, h.kind, h.pattern, h.bets, h.rounds)
        for h in TableDayPatternHits.objects.all()
    )


def player_totals_expected() -> list[tuple]:
    """Liability: each side-option stake at the top odds of its round's paytable."""
    top = {0: {}}
    for configuration in TableConfiguration.objects.all():
        options = configuration.rule_set.side_options
        top[configuration.pk] = {o.kind: max(odds for _, odds in o.paytable) for o in options}
    totals: dict[tuple, list] = defaultdict(lambda: [0, Decimal(0), Decimal(0)])
    for day, table, version, kind, _, player, stake, *_ in completed_bets():
        total = totals[(day, table, kind, player)]
        total[0] += 1
        total[1] += stake
        total[2] += stake * top[version].get(kind, 0)
    return sorted(
        (*key, bets, cents(stakes), cents(liability)) for key, (bets, stakes, liability) in totals.items()
    )


def player_totals_stored() -> list[tuple]:
    return sorted(
        (t.day, t.table_id, t.kind, t.player_id, t.bets, cents(t.stakes), cents(t.liability))
        for t in PlayerDayTotal.objects.all()
    )


def stored() -> tuple:
    return day_totals_stored(), pattern_hits_stored(), player_totals_stored()


def test_ingest_adds_each_completed_round_to_its_days_totals():
    ingest_a_mixed_day()
    assert Round.objects.filter(status="cancelled").exists()  # left out of every total
    completed = Round.objects.filter(status="completed")
    assert set(PlayerTotalsPending.objects.values_list("round_id", flat=True)) == {r.pk for r in completed}
    assert not PlayerDayTotal.objects.exists()  # players' totals are added in batches
    assert player_totals_catch_up() == completed.count()
    assert not PlayerTotalsPending.objects.exists() and player_totals_catch_up() == 0
    day_totals, hits, players = stored()
    assert len({row[0] for row in players}) == 2  # the rounds cross the gaming day's cut-off
    assert {row[3] for row in day_totals} >= {"main", "pair", "insurance"}
    assert any(row[-2] for row in day_totals)  # Pair staked after its max round
    assert day_totals == day_totals_expected()
    assert hits and hits == pattern_hits_expected()
    assert players == player_totals_expected()
    assert any(row[-1] for row in players)  # side options' liability


def test_the_migration_writes_the_totals_of_rounds_stored_before_them():
    ingest_a_mixed_day()
    player_totals_catch_up()
    written_by_ingest = stored()
    for model in (TableDayTotal, TableDayPatternHits, PlayerDayTotal):
        model.objects.all().delete()
    migration = importlib.import_module("rounds.migrations.0006_day_totals_for_reports")
    migration.totals_of_stored_rounds(apps, connection.schema_editor())
    assert stored() == written_by_ingest

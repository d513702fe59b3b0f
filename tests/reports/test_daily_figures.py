"""The stored daily figures (DailyFigures, DailyTableSummary) against a direct SQL computation over the
same bets, on SQLite and on PostgreSQL.

The day: seed_demo's Deluxe table DLX1 plays a simulated shoe through the real ingest, with planted
wrong payouts, cancelled rounds, one approved and one pending re-settlement, and a configuration
version 2 (a richer Pair paytable, closed after round 8) that comes into force mid-shoe. DLX2, a
second Deluxe table in euros, seats the same players; DLXG plays Deluxe in pounds. Three more DLX1
rounds open exactly at the day's bounds and one second before.
"""

import json
import math
from collections import defaultdict
from datetime import date, timedelta
from decimal import ROUND_HALF_UP, Decimal
from io import StringIO

import pytest
from django.core.management import call_command
from django.db import connection
from freezegun import freeze_time

from blackjack.rules import SIDE_OPTION_KINDS, preset
from blackjack.simulate import simulate
from core.gaming_day import gaming_day
from reports.daily import table_day_compute, totals_compute
from reports.models import DailyExposure, DailyFigures, DailyTableSummary, ReportRun, RunTrigger
from rounds import services
from rounds.ingest import round_ingest
from rounds.models import Round
from tables.models import ConfigurationOdds, Table, TableConfiguration
from tables.odds import configuration_odds_compute
from tests import factories

pytestmark = pytest.mark.django_db

DAY = date(2026, 3, 10)
RICHER_PAIR = {"mixed_pair": "6", "coloured_pair": "12", "perfect_pair": "30", "suited_trips": "50"}
CENT = Decimal("0.01")
PLACES = Decimal("0.0001")
Z99 = 2.575829
Z95 = 1.959964


# --- the day -------------------------------------------------------------------------------------------


def play(table: str, *, seed: int, start, players: int = 7, rename_players: str | None = None, **rates):
    documents = simulate(
        preset("deluxe"), table=table, shoes=1, players=players, seed=seed, start=start, **rates
    )
    stored = []
    for document in documents:
        document = json.loads(json.dumps(document))  # as a game server's document arrives
        if rename_players:
            text = json.dumps(document).replace(f'"P{table}', f'"P{rename_players}')
            document = json.loads(text)
        stored.append(round_ingest(document=document).round)
    return stored


def edge_round(number: int, opened_at) -> Round:
    """A DLX1 round of a shoe of its own, opened at `opened_at`."""
    first = next(simulate(preset("deluxe"), table="DLX1", shoes=1, players=3, seed=99, start=opened_at))
    document = json.loads(json.dumps(first).replace("DLX1-S0001", f"EDGE{number}-DLX1"))
    return round_ingest(document=document).round


@pytest.fixture
def day():
    call_command("seed_demo", stdout=StringIO())
    bounds = gaming_day(DAY)
    start = bounds.starts_at + timedelta(hours=3)
    supervisor = factories.user("supervisor", "supervisor")
    with freeze_time(DAY - timedelta(days=30)):
        factories.configuration_approved(
            Table.objects.get(code="DLX1"),
            {"side_options": {"pair": {"paytable": RICHER_PAIR, "max_round": 8}}},
            proposed_by=supervisor,
            reason="A richer Pair from mid-morning",
            valid_from=start + timedelta(minutes=12),
        )
    configuration_odds_compute(configuration=TableConfiguration.objects.get(table__code="DLX1", version=1))
    configuration_odds_compute(configuration=TableConfiguration.objects.get(table__code="DLX1", version=2))

    dlx1 = play("DLX1", seed=5, start=start, wrong_payout_rate=0.25, cancel_rate=0.12)
    edges = {
        "before": edge_round(1, bounds.starts_at - timedelta(seconds=1)),
        "first": edge_round(2, bounds.starts_at),
        "after": edge_round(3, bounds.ends_at),
    }

    wrong = [r for r in dlx1 if r.status == "completed" and services.bets_to_adjust(r).exists()]
    assert len(wrong) >= 2 and any(r.status == "cancelled" for r in dlx1)
    compliance = factories.user("compliance", "compliance")
    approved = services.resettlement_propose(round_=wrong[0], proposed_by=compliance, reason="short paid")
    services.resettlement_approve(resettlement=approved, decided_by=supervisor, comment="Checked the video.")
    services.resettlement_propose(round_=wrong[1], proposed_by=compliance, reason="also short paid")
    return {"bounds": bounds, "dlx1": dlx1, "edges": edges, "start": start}


@pytest.fixture
def more_tables(day):
    """DLX2, a second Deluxe table in euros seating DLX1's players, and DLXG, Deluxe in pounds."""
    with freeze_time(DAY - timedelta(days=30)):
        factories.table("DLX2", game="deluxe", limits={"main": ("2.50", "2500.00")})
        factories.table("DLXG", game="deluxe", currency="GBP", limits={"main": ("2.50", "2500.00")})
    for code in ("DLX2", "DLXG"):
        configuration_odds_compute(configuration=TableConfiguration.objects.get(table__code=code))
    play("DLX2", seed=6, start=day["start"], rename_players="DLX1")
    play("DLXG", seed=7, start=day["start"])
    return day


def new_run(day_: date = DAY) -> ReportRun:
    bounds = gaming_day(day_)
    return ReportRun.objects.create(
        day=day_, trigger=RunTrigger.COMMAND, time_zone=bounds.time_zone, cutoff=bounds.cutoff
    )


def table(code: str) -> Table:
    return Table.objects.get(code=code)


# --- the direct computation ------------------------------------------------------------------------------


def query(sql: str, params: list) -> list[tuple]:
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.fetchall()


def in_day(codes: list[str], bounds) -> tuple[str, list]:
    """Completed rounds of the tables opened in the day, as SQL on the alias r."""
    adapt = connection.ops.adapt_datetimefield_value
    ids = [table(code).pk for code in codes]
    marks = ", ".join(["%s"] * len(ids))
    return (
        f"r.table_id IN ({marks}) AND r.opened_at >= %s AND r.opened_at < %s AND r.status = 'completed'",
        [*ids, adapt(bounds.starts_at), adapt(bounds.ends_at)],
    )


def dec(value) -> Decimal:
    return Decimal(str(value or 0))


def rtp(value: Decimal) -> Decimal:
    return value.quantize(PLACES, ROUND_HALF_UP)


def expected_figures(codes: list[str], bounds) -> dict[str, dict]:
    """Every figure of each bet kind over the tables' completed rounds, straight from the bets."""
    where, params = in_day(codes, bounds)
    per_kind = query(
        f"""SELECT b.kind, count(DISTINCT b.round_id), count(*), count(DISTINCT b.player_id),
                sum(b.wagered), sum(b.returned)
            FROM rounds_bet b JOIN rounds_round r ON r.id = b.round_id WHERE {where} GROUP BY b.kind""",
        params,
    )
    adjustments = query(
        f"""SELECT b.round_id, b.kind, sum(a.amount)
            FROM rounds_adjustment a
            JOIN rounds_resettlement s ON s.id = a.resettlement_id AND s.status = 'approved'
            JOIN rounds_bet b ON b.id = a.bet_id JOIN rounds_round r ON r.id = b.round_id
            WHERE {where} GROUP BY b.round_id, b.kind""",
        params,
    )
    adjusted = {(round_id, kind): dec(amount) for round_id, kind, amount in adjustments}
    per_round = query(
        f"""SELECT b.round_id, b.kind, sum(b.wagered), sum(b.returned)
            FROM rounds_bet b JOIN rounds_round r ON r.id = b.round_id WHERE {where}
            GROUP BY b.round_id, b.kind""",
        params,
    )
    results = defaultdict(list)
    for round_id, kind, wagered, returned in per_round:
        results[kind].append((dec(wagered), dec(returned) + adjusted.get((round_id, kind), 0)))
    handle_per_version = query(
        f"""SELECT b.kind, r.configuration_id, sum(b.wagered)
            FROM rounds_bet b JOIN rounds_round r ON r.id = b.round_id WHERE {where}
            GROUP BY b.kind, r.configuration_id""",
        params,
    )
    theoretical = defaultdict(Decimal)
    for kind, configuration_id, handle in handle_per_version:
        odds = ConfigurationOdds.objects.get(configuration_id=configuration_id).figures["rtp"][kind]
        theoretical[kind] += dec(handle).quantize(CENT) * Decimal(odds)

    figures = {}
    for kind, rounds, bets, players, wagered, returned in per_kind:
        wagered = dec(wagered).quantize(CENT)
        returned = (dec(returned) + sum(v for (_, k), v in adjusted.items() if k == kind)).quantize(CENT)
        theory = rtp(theoretical[kind] / wagered)
        low95, high95 = interval(results[kind], Z95, kind)
        low99, high99 = interval(results[kind], Z99, kind)
        figures[kind] = {
            "rounds": rounds,
            "bets": bets,
            "players": players,
            "wagered": wagered,
            "returned": returned,
            "gross_gaming_revenue": wagered - returned,
            "observed_rtp": rtp(returned / wagered * 100),
            "theoretical_rtp": theory,
            "ci95_low": low95,
            "ci95_high": high95,
            "ci99_low": low99,
            "ci99_high": high99,
            "outside_99": low99 is not None and not low99 <= theory <= high99,
            "interval_method": "log" if kind in SIDE_OPTION_KINDS else "normal",
        }
    return figures


def interval(
    results: list[tuple[Decimal, Decimal]], z: float, kind: str
) -> tuple[Decimal | None, Decimal | None]:
    """The ratio estimator's interval from each round's (wagered, returned), in percent: for a side
    option log-transformed, q·exp(±z·se/q) (none when nothing was returned), else q ± z·se with its
    lower end at least 0."""
    n = len(results)
    if n < 2:
        return None, None
    wagered = [float(w) for w, _ in results]
    returned = [float(r) for _, r in results]
    q = sum(returned) / sum(wagered)
    spread = sum((r - q * w) ** 2 for w, r in zip(wagered, returned, strict=True)) / (n - 1)
    standard_error = (spread / n) ** 0.5 / (sum(wagered) / n)
    if standard_error <= q * 1e-9:  # every round returned the same share: no spread, no interval
        return None, None
    if kind in SIDE_OPTION_KINDS:
        if q == 0:
            return None, None
        low, high = q / math.exp(z * standard_error / q), q * math.exp(z * standard_error / q)
    else:
        low, high = max(q - z * standard_error, 0.0), q + z * standard_error
    return rtp(Decimal(str(low * 100))), rtp(Decimal(str(high * 100)))


FIELDS = [
    "rounds",
    "bets",
    "players",
    "wagered",
    "returned",
    "gross_gaming_revenue",
    "observed_rtp",
    "theoretical_rtp",
    "ci95_low",
    "ci95_high",
    "ci99_low",
    "ci99_high",
    "outside_99",
    "interval_method",
]
INTERVAL_FIELDS = {"ci95_low", "ci95_high", "ci99_low", "ci99_high"}


def assert_figures_match(rows, expected: dict[str, dict]):
    assert sorted(row.kind for row in rows) == sorted(expected)
    for row in rows:
        for name in FIELDS:
            stored, wanted = getattr(row, name), expected[row.kind][name]
            if name in INTERVAL_FIELDS and wanted is not None:
                # The test sums floats round by round, the report exact moments: the last place may differ.
                assert abs(stored - wanted) <= PLACES, (row.kind, name, stored, wanted)
            else:
                assert stored == wanted, (row.kind, name, stored, wanted)


def stored_rows(model, **filters) -> list[tuple]:
    fields = [f.attname for f in model._meta.concrete_fields if f.attname not in ("id", "run_id")]
    return sorted(model.objects.filter(**filters).values_list(*fields), key=repr)


# --- tests ---------------------------------------------------------------------------------------------


def test_every_figure_of_a_table_matches_the_bets(day):
    table_day_compute(table=table("DLX1"), day=DAY, run=new_run())
    rows = list(DailyFigures.objects.filter(day=DAY, table=table("DLX1")))
    expected = expected_figures(["DLX1"], day["bounds"])
    assert set(expected) == {"main", "behind", "insurance", "pair"}
    assert_figures_match(rows, expected)
    assert all(row.table_code == "DLX1" and row.game == "deluxe" and row.currency == "EUR" for row in rows)
    # Version 2 changed only the Pair paytable: its theoretical RTP is weighted by each version's handle.
    rtps = [
        ConfigurationOdds.objects.get(configuration__table__code="DLX1", configuration__version=v)
        for v in (1, 2)
    ]
    pair = next(row for row in rows if row.kind == "pair")
    low, high = sorted(Decimal(odds.figures["rtp"]["pair"]) for odds in rtps)
    assert low < pair.theoretical_rtp < high


def test_returned_counts_only_approved_adjustments(day):
    table_day_compute(table=table("DLX1"), day=DAY, run=new_run())
    where, params = in_day(["DLX1"], day["bounds"])
    (reported,) = query(
        f"SELECT sum(b.returned) FROM rounds_bet b JOIN rounds_round r ON r.id = b.round_id WHERE {where}",
        params,
    )
    (adjusted,) = query(
        "SELECT sum(a.amount) FROM rounds_adjustment a "
        "JOIN rounds_resettlement s ON s.id = a.resettlement_id WHERE s.status = 'approved'",
        [],
    )
    stored = sum(row.returned for row in DailyFigures.objects.filter(table=table("DLX1")))
    assert dec(adjusted[0]) != 0
    assert stored == (dec(reported[0]) + dec(adjusted[0])).quantize(CENT)


def test_the_summary_counts_cancelled_rounds_resettlements_and_findings(day):
    table_day_compute(table=table("DLX1"), day=DAY, run=new_run())
    summary = DailyTableSummary.objects.get(day=DAY, table=table("DLX1"))
    bounds = day["bounds"]
    adapt = connection.ops.adapt_datetimefield_value
    every = "r.table_id = %s AND r.opened_at >= %s AND r.opened_at < %s"
    params = [table("DLX1").pk, adapt(bounds.starts_at), adapt(bounds.ends_at)]
    [(rounds, cancelled)] = query(
        "SELECT count(*), sum(CASE WHEN r.status = 'cancelled' THEN 1 ELSE 0 END) "
        f"FROM rounds_round r WHERE {every}",
        params,
    )
    [(resettlements,)] = query(
        f"SELECT count(*) FROM rounds_resettlement s JOIN rounds_round r ON r.id = s.round_id WHERE {every}",
        params,
    )
    codes = dict(
        query(
            "SELECT f.code, count(*) FROM rounds_finding f JOIN rounds_round r ON r.id = f.round_id "
            f"WHERE {every} GROUP BY f.code",
            params,
        )
    )
    assert (summary.rounds, summary.cancelled_rounds) == (rounds, cancelled)
    assert rounds == len(day["dlx1"]) + 1  # and the round opened at the first moment of the day
    assert cancelled > 0 and resettlements == 2 == summary.resettlements
    assert summary.finding_codes == codes and summary.findings == sum(codes.values())
    assert {"wrong_returned", "side_option_after_max_round"} <= set(codes)
    assert summary.configuration_versions == "1, 2"
    # The RTP flag is about RTP: a bet kind outside its 99% interval, not the findings above.
    outside = DailyFigures.objects.filter(day=DAY, table=table("DLX1"), outside_99=True).count()
    assert (summary.flagged, summary.kinds_outside_99) == (outside > 0, outside)
    assert summary.limit_findings == sum(
        codes.get(code, 0) for code in ("limit_breached", "seat_not_allowed")
    )
    assert summary.money_findings == sum(
        codes.get(code, 0) for code in ("wrong_wagered", "wrong_returned", "cancelled_not_refunded")
    )
    assert (summary.resettled_rounds, summary.voided_rounds) == (1, 0)
    assert (summary.game, summary.currency) == ("deluxe", "EUR")


def test_a_quiet_table_has_a_summary_and_no_figures(day):
    table_day_compute(table=table("CLS1"), day=DAY, run=new_run())
    summary = DailyTableSummary.objects.get(day=DAY, table=table("CLS1"))
    assert (summary.rounds, summary.findings, summary.finding_codes, summary.flagged) == (0, 0, {}, False)
    assert summary.configuration_versions == "1"
    assert not DailyFigures.objects.filter(table=table("CLS1")).exists()
    assert not DailyExposure.objects.filter(table=table("CLS1")).exists()


def test_rounds_just_outside_the_day_are_left_out(day):
    for offset in (-1, 0, 1):
        table_day_compute(
            table=table("DLX1"), day=DAY + timedelta(days=offset), run=new_run(DAY + timedelta(days=offset))
        )
    rounds = dict(DailyTableSummary.objects.filter(table=table("DLX1")).values_list("day", "rounds"))
    assert rounds == {DAY - timedelta(days=1): 1, DAY: len(day["dlx1"]) + 1, DAY + timedelta(days=1): 1}
    main = DailyFigures.objects.get(day=DAY, table=table("DLX1"), kind="main")
    completed = [r for r in day["dlx1"] if r.status == "completed"]
    assert main.rounds == len(completed) + 1


def test_running_a_day_again_writes_the_same_rows_for_the_new_run_and_keeps_the_first_runs(more_tables):
    first, second = new_run(), new_run()
    for run in (first, second):
        for code in ("DLX1", "DLX2", "DLXG"):
            table_day_compute(table=table(code), day=DAY, run=run)
        table_day_compute(table=table("DLX1"), day=DAY, run=run)  # a table task delivered twice
        totals_compute(day=DAY, run=run)
    models = (DailyFigures, DailyTableSummary, DailyExposure)
    assert [stored_rows(model, run=first) for model in models] == [
        stored_rows(model, run=second) for model in models
    ]
    assert DailyFigures.objects.filter(run=second, table=table("DLX1")).count() == 4
    assert DailyTableSummary.objects.filter(run=second).count() == 3
    assert DailyExposure.objects.filter(run=second).count() == 3
    assert DailyFigures.objects.filter(run=first).count() == DailyFigures.objects.filter(run=second).count()


def test_totals_add_tables_of_one_currency_and_never_across_currencies(more_tables):
    run = new_run()
    for code in ("DLX1", "DLX2", "DLXG"):
        table_day_compute(table=table(code), day=DAY, run=run)
    totals_compute(day=DAY, run=run)
    bounds = more_tables["bounds"]
    euros = DailyFigures.objects.filter(day=DAY, table=None, game="deluxe", currency="EUR")
    pounds = DailyFigures.objects.filter(day=DAY, table=None, game="deluxe", currency="GBP")
    assert all(row.table_code == "" for row in [*euros, *pounds])
    assert_figures_match(list(euros), expected_figures(["DLX1", "DLX2"], bounds))
    assert_figures_match(list(pounds), expected_figures(["DLXG"], bounds))
    # DLX2 seats DLX1's players: a player at both tables counts once in the total.
    per_table = DailyFigures.objects.filter(day=DAY, table__code__in=["DLX1", "DLX2"], kind="main")
    total = euros.get(kind="main")
    assert total.players < sum(row.players for row in per_table)
    assert total.wagered == sum(row.wagered for row in per_table)
    assert set(DailyFigures.objects.filter(table=None).values_list("currency", flat=True)) == {"EUR", "GBP"}

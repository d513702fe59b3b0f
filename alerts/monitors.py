"""The monitors: every 15 s (tasks.monitors_run_task, by beat) they read what arrived since their last run and
raise or repeat alerts (services.alert_raise) at the thresholds in force (thresholds.py). A table's
silence (services.active_silences) keeps them from raising its alerts while it lasts.

- Rounds read once, in arrival order, from where the last run stopped (MonitorCursor), once they
  are ROUND_SETTLE old (so that a round committing late is not passed over): RTP drift (drift.py:
  a two-sided CUSUM of each round's return beyond theory per bet kind, on the returns the engine
  computes),
  wins above the amount (a player's net in the round), and ingest lag (arrival − end).
- From the live figures: cancellations in the last hour, dealer findings per 100 rounds today.
- From the tables: an Open table whose last round arrived longer ago than its threshold.
"""

from collections import defaultdict
from dataclasses import dataclass
from datetime import datetime, timedelta
from decimal import Decimal

from django.db import transaction
from django.db.models import Max, Sum
from django.db.models.functions import Coalesce
from django.utils import timezone

from blackjack.rules import MAIN_KINDS, kind_label
from core.gaming_day import gaming_day_of
from core.money import money_text
from core.rtp_stats import money
from live.models import ROUNDS_ROW, LiveFigures
from live.services import last_hour_start
from rounds.choices import RoundStatus
from rounds.models import Bet, Round
from tables.choices import TableStatus
from tables.models import ConfigurationOdds, Table, TableStatusChange

from . import drift
from .choices import Monitor
from .definitions import CANCELLATIONS_AT_LEAST, DEALER_ROUNDS_AT_LEAST
from .models import Alert, DriftState, MonitorCursor
from .services import active_silences, alert_raise
from .thresholds import thresholds_in_force

ROUND_SETTLE = timedelta(seconds=10)
ROUNDS_A_BATCH = 500
CURSOR = "rounds"
# RTP drift: rounds of a kind at a table before its CUSUM runs (its spread is the table's own, learnt
# from them: a side option's, with its rare large pays, from more); the change of RTP it is designed
# to catch; the most rounds a live table deals a day (one every 30 s), which sets the false-alert
# budget in rounds (a slower table has fewer false alerts). Bets behind are not watched: what they
# return depends on whether their players follow the seat's doubles and splits, which theory (best
# play) does not know (bench_drift: 1.2 points below theory as simulated).
LEARNING_ROUNDS = {"main": 1000, "side": 5000}
SHIFT_TO_DETECT = {"main": 0.02, "side": 0.05}
ROUNDS_PER_DAY_AT_MOST = 2880
NOT_WATCHED = {"behind"}


@dataclass
class Run:
    now: datetime
    tables: dict[int, Table]
    thresholds: dict[tuple[int, str], Decimal]
    silenced: set[tuple[int, str]]
    raised: list[Alert]

    def threshold(self, table_pk: int, monitor: str) -> Decimal:
        return self.thresholds[(table_pk, monitor)]

    def is_silenced(self, table_pk: int, monitor: str) -> bool:
        return (table_pk, "") in self.silenced or (table_pk, monitor) in self.silenced

    def raise_alert(self, table_pk: int, monitor: str, **values) -> None:
        if not self.is_silenced(table_pk, monitor):
            self.raised.append(
                alert_raise(table=self.tables[table_pk], monitor=monitor, at=self.now, **values)
            )


def monitors_run(now: datetime | None = None) -> list[Alert]:
    """Every monitor once; the alerts raised or repeated."""
    now = now or timezone.now()
    tables = {table.pk: table for table in Table.objects.all()}
    run = Run(
        now=now,
        tables=tables,
        thresholds=thresholds_in_force(tables.values()),
        silenced=set(active_silences(now).values_list("table", "monitor")),
        raised=[],
    )
    while rounds_read(run):
        pass
    cancellations_check(run)
    dealer_findings_check(run)
    silent_tables_check(run)
    return run.raised


# --- rounds as they arrive -----------------------------------------------------------------------


def monitors_start_after_latest() -> int:
    """The round monitors' cursor past every round stored: rounds loaded in bulk (a backfill, the
    demo's simulated day) did not arrive live, and their arrival says nothing of a game server's lag
    now. Returns the round it now stands at."""
    latest = Round.objects.order_by("-pk").values_list("pk", flat=True).first() or 0
    MonitorCursor.objects.update_or_create(name=CURSOR, defaults={"round_pk": latest})
    return latest


def rounds_read(run: Run) -> bool:
    """The next batch of arrived rounds through the round monitors; False when none was left."""
    with transaction.atomic():
        cursor, _ = MonitorCursor.objects.select_for_update().get_or_create(name=CURSOR)
        rounds = list(
            Round.objects.filter(pk__gt=cursor.round_pk, ingested_at__lte=run.now - ROUND_SETTLE)
            .order_by("pk")
            .values(
                "pk",
                "round_id",
                "table_id",
                "gaming_day",
                "status",
                "configuration_id",
                "closed_at",
                "ingested_at",
            )[:ROUNDS_A_BATCH]
        )
        if not rounds:
            return False
        ingest_lag_check(run, rounds)
        played = [row for row in rounds if row["status"] == RoundStatus.COMPLETED]
        if played:
            bets = Bet.objects.filter(
                round__in=[row["pk"] for row in played], gaming_day__in={row["gaming_day"] for row in played}
            )
            big_wins_check(run, played, bets)
            drift_check(run, played, bets)
        cursor.round_pk = rounds[-1]["pk"]
        cursor.save()
    return len(rounds) == ROUNDS_A_BATCH


def ingest_lag_check(run: Run, rounds: list[dict]) -> None:
    by_table = defaultdict(list)
    for row in rounds:
        by_table[row["table_id"]].append(
            ((row["ingested_at"] - row["closed_at"]).total_seconds(), row["round_id"])
        )
    for table_pk, lags in by_table.items():
        lag, round_id = max(lags)
        threshold = run.threshold(table_pk, Monitor.INGEST_BEHIND)
        if lag > threshold:
            run.raise_alert(
                table_pk,
                Monitor.INGEST_BEHIND,
                measure=Decimal(lag).quantize(Decimal(1)),
                threshold=threshold,
                summary=f"Round {round_id} arrived {lag:,.0f} s after it ended (threshold {threshold:,} s).",
                figures={"round": round_id, "seconds": round(lag)},
            )


def big_wins_check(run: Run, played: list[dict], bets) -> None:
    rounds = {row["pk"]: row for row in played}
    nets = (
        bets.values("round", "player__external_id")
        .annotate(net=Sum(Coalesce("computed_returned", "returned")) - Sum("wagered"))
        .order_by()
    )
    best = {}
    for row in nets:
        table_pk = rounds[row["round"]]["table_id"]
        net = money(row["net"])  # to the cent: SQLite sums decimals as floats
        if net > run.threshold(table_pk, Monitor.BIG_WIN) and net > best.get(table_pk, {}).get("net", 0):
            best[table_pk] = {
                "net": net,
                "round": rounds[row["round"]]["round_id"],
                "player": row["player__external_id"],
            }
    for table_pk, win in best.items():
        threshold = run.threshold(table_pk, Monitor.BIG_WIN)
        currency = run.tables[table_pk].currency
        run.raise_alert(
            table_pk,
            Monitor.BIG_WIN,
            measure=win["net"],
            threshold=threshold,
            summary=(
                f"Player {win['player']} won {money_text(win['net'])} {currency} net in round {win['round']} "
                f"(threshold {money_text(threshold)})."
            ),
            figures={"round": win["round"], "player": win["player"], "net": str(win["net"])},
        )


def theoretical_rtps(configuration_pks) -> dict[int, dict[str, float]]:
    """Version → bet kind → theoretical RTP as a fraction (the versions worked out)."""
    rows = ConfigurationOdds.objects.filter(configuration_id__in=set(configuration_pks) - {None})
    return {
        configuration_pk: {kind: float(value) / 100 for kind, value in figures.get("rtp", {}).items()}
        for configuration_pk, figures in rows.values_list("configuration_id", "figures")
    }


def shift_to_detect(kind: str) -> float:
    return SHIFT_TO_DETECT["main" if kind in MAIN_KINDS else "side"]


def learning_rounds(kind: str) -> int:
    return LEARNING_ROUNDS["main" if kind in MAIN_KINDS else "side"]


def drift_check(run: Run, played: list[dict], bets) -> None:
    """Each round's residual per kind (drift.round_residual), in arrival order, into its table and
    kind's CUSUM."""
    rounds = {row["pk"]: row for row in played}
    theory = theoretical_rtps(row["configuration_id"] for row in played)
    residuals = defaultdict(list)  # (table, kind) -> [(round id, S, e)]
    sums = (
        bets.values("round", "kind")
        .annotate(
            staked=Sum("stake"),
            wagered=Sum("wagered"),
            returned=Sum(Coalesce("computed_returned", "returned")),
        )
        .order_by("round", "kind")
    )
    for row in sums:
        round_ = rounds[row["round"]]
        rtp = theory.get(round_["configuration_id"], {}).get(row["kind"])
        staked = float(row["staked"] or 0)
        if rtp is None or staked <= 0 or row["kind"] in NOT_WATCHED:
            continue
        residual = drift.round_residual(staked, float(row["wagered"] or 0), float(row["returned"] or 0), rtp)
        residuals[(round_["table_id"], row["kind"])].append((round_["round_id"], staked, residual))
    if not residuals:
        return
    states = {
        (state.table_id, state.kind): state
        for state in DriftState.objects.select_for_update().filter(
            table__in={table for table, _ in residuals}
        )
    }
    kinds_at = defaultdict(set)
    for table_pk, kind in [*states, *residuals]:
        if kind not in NOT_WATCHED:
            kinds_at[table_pk].add(kind)
    for (table_pk, kind), observed in residuals.items():
        state = states.get((table_pk, kind)) or DriftState(table_id=table_pk, kind=kind)
        drift_add(run, state, observed, len(kinds_at[table_pk]))
        state.save()


def drift_add(run: Run, state: DriftState, observed: list[tuple[str, float, float]], kinds: int) -> None:
    """Rounds (id, original stakes S, residual e) of one table and kind into its CUSUM: once it has
    learnt the kind's spread σ of e/S, each one's y = e/(S·σ)."""
    days = float(run.threshold(state.table_id, Monitor.RTP_DRIFT))
    learning = learning_rounds(state.kind)
    for round_id, staked, residual in observed:
        state.rounds += 1
        state.stakes += staked
        state.deviation_sum += residual
        state.deviation_squares += (residual / staked) ** 2
        if state.rounds <= learning:
            continue
        sigma = (state.deviation_squares / state.rounds) ** 0.5
        if sigma <= 0:
            continue
        design = drift.drift_design(
            shift_to_detect(state.kind),
            sigma,
            drift.false_alert_observations(days, ROUNDS_PER_DAY_AT_MOST, kinds),
        )
        high, low = drift.cusum_step(state.high, state.low, design.score(residual, staked), design.k)
        side = drift.crossed(high, low, design.h)
        # The side that alerted starts again from 0.
        state.high = 0.0 if side == drift.HIGH else high
        state.low = 0.0 if side == drift.LOW else low
        if side is None:
            continue
        statistic = high if side == drift.HIGH else low
        direction = "above" if side == drift.HIGH else "below"
        deviation = state.deviation_sum / state.stakes
        run.raise_alert(
            state.table_id,
            Monitor.RTP_DRIFT,
            subject=state.kind,
            measure=Decimal(statistic).quantize(Decimal("0.0001")),
            threshold=Decimal(design.h).quantize(Decimal("0.0001")),
            summary=(
                f"{kind_label(state.kind)} returns drifting {direction} theory: CUSUM {statistic:.1f} over "
                f"{design.h:.1f} at round {round_id} (RTP {deviation * 100:+.2f} points from theory over "
                f"{state.rounds:,} rounds)."
            ),
            figures={
                "round": round_id,
                "direction": direction,
                "sigma": round(sigma, 4),
                "k": round(design.k, 5),
                "h": round(design.h, 3),
                "rounds": state.rounds,
                "days_between_false_alerts": days,
            },
        )


# --- the live figures and the tables -------------------------------------------------------------


def cancellations_check(run: Run) -> None:
    rows = (
        LiveFigures.objects.filter(slot__gte=last_hour_start(run.now), kind=ROUNDS_ROW)
        .values("table")
        .annotate(rounds=Sum("rounds"), cancelled=Sum("cancelled"))
        .order_by()
    )
    for row in rows:
        if not row["rounds"] or row["cancelled"] < CANCELLATIONS_AT_LEAST:
            continue
        share = Decimal(row["cancelled"] * 100) / row["rounds"]
        threshold = run.threshold(row["table"], Monitor.CANCELLATIONS)
        if share > threshold:
            run.raise_alert(
                row["table"],
                Monitor.CANCELLATIONS,
                measure=share.quantize(Decimal("0.01")),
                threshold=threshold,
                summary=(
                    f"{row['cancelled']} of {row['rounds']} rounds cancelled in the last hour "
                    f"({share:.1f}%, threshold {threshold}%)."
                ),
                figures={"rounds": row["rounds"], "cancelled": row["cancelled"]},
            )


def dealer_findings_check(run: Run) -> None:
    rows = (
        LiveFigures.objects.filter(day=gaming_day_of(run.now), kind=ROUNDS_ROW)
        .exclude(dealt_by="")
        .values("table", "dealt_by")
        .annotate(rounds=Sum("rounds"), findings=Sum("findings_dealer"))
        .order_by()
    )
    for row in rows:
        if row["rounds"] < DEALER_ROUNDS_AT_LEAST or not row["findings"]:
            continue
        rate = Decimal(row["findings"] * 100) / row["rounds"]
        threshold = run.threshold(row["table"], Monitor.DEALER_FINDINGS)
        if rate > threshold:
            run.raise_alert(
                row["table"],
                Monitor.DEALER_FINDINGS,
                subject=row["dealt_by"],
                measure=rate.quantize(Decimal("0.01")),
                threshold=threshold,
                summary=(
                    f"Dealer {row['dealt_by']}: {row['findings']} dealer findings in {row['rounds']} rounds "
                    f"today ({rate:.1f} per 100, threshold {threshold})."
                ),
                figures={"dealer": row["dealt_by"], "rounds": row["rounds"], "findings": row["findings"]},
            )


def silent_tables_check(run: Run) -> None:
    open_tables = [pk for pk, table in run.tables.items() if table.status == TableStatus.OPEN]
    if not open_tables:
        return
    last_round = dict(
        Round.objects.filter(table__in=open_tables, opened_at__gte=run.now - timedelta(days=1))
        .values("table")
        .annotate(last=Max("ingested_at"))
        .order_by()
        .values_list("table", "last")
    )
    opened = dict(
        TableStatusChange.objects.filter(table__in=open_tables, to_status=TableStatus.OPEN)
        .values("table")
        .annotate(last=Max("changed_at"))
        .order_by()
        .values_list("table", "last")
    )
    for table_pk in open_tables:
        since = max(filter(None, (last_round.get(table_pk), opened.get(table_pk))), default=None)
        if since is None:
            since = run.now - timedelta(days=1)
        minutes = Decimal((run.now - since).total_seconds() / 60).quantize(Decimal(1))
        threshold = run.threshold(table_pk, Monitor.SILENT_TABLE)
        if minutes > threshold:
            run.raise_alert(
                table_pk,
                Monitor.SILENT_TABLE,
                measure=minutes,
                threshold=threshold,
                summary=f"Open, and no round has arrived for {minutes:,} minutes (threshold {threshold}).",
                figures={"since": since.isoformat()},
            )

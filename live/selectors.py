"""Reading the live figures: a table's gaming day (or its last hour), whole, per shoe or per dealer, per
bet kind; every table's figures for the floor; the cumulative RTP of a bet kind slot by slot.

Every read names the primary database (PRIMARY): the floor shows what ingest has just written, never
a replica's copy of a moment ago.
"""

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import date, datetime
from decimal import Decimal
from functools import cached_property

from django.db import DEFAULT_DB_ALIAS
from django.db.models import Max, Sum

from blackjack.rules import BET_KINDS, SIDE_OPTION_KINDS, kind_label
from core.rtp_stats import (
    MOMENT_SUMS,
    Z95,
    Z99,
    RoundMoments,
    exact,
    interval_method,
    money,
    ratio_estimate,
    rtp,
    rtp_interval,
)
from tables.models import ConfigurationOdds

from .choices import FindingClass
from .models import ROUNDS_ROW, LiveFigures
from .services import SUMS

PRIMARY = DEFAULT_DB_ALIAS
MAIN = "main"


class Band:
    """A bet kind's observed RTP against its theoretical one: WITHIN when the theoretical RTP lies inside
    the 99% interval of the observed one; HIGH when the whole interval lies above it (players were
    returned more than theory allows), LOW when below; UNKNOWN without an interval or a theory."""

    WITHIN = "within"
    HIGH = "high"
    LOW = "low"
    UNKNOWN = ""


@dataclass
class KindFigures:
    kind: str
    rounds: int
    bets: int
    wagered: Decimal
    returned: Decimal
    hits: int
    theoretical: Decimal | None  # percent, weighted by handle across versions
    expected_hits: float | None  # side options: bets times the chance of any paying pattern
    moments: RoundMoments

    @property
    def label(self) -> str:
        return kind_label(self.kind)

    @property
    def ggr(self) -> Decimal:
        return self.wagered - self.returned

    @property
    def side_option(self) -> bool:
        return self.kind in SIDE_OPTION_KINDS

    @property
    def rtp(self) -> Decimal | None:
        return rtp(self.returned / self.wagered * 100) if self.wagered else None

    @cached_property
    def interval95(self) -> tuple[Decimal, Decimal] | None:
        interval = rtp_interval(self.moments, Z95, interval_method(self.kind))
        return None if interval is None else (rtp(interval[0]), rtp(interval[1]))

    @cached_property
    def band(self) -> str:
        interval = rtp_interval(self.moments, Z99, interval_method(self.kind))
        if interval is None or self.theoretical is None:
            return Band.UNKNOWN
        if self.theoretical < interval[0]:
            return Band.HIGH
        if self.theoretical > interval[1]:
            return Band.LOW
        return Band.WITHIN


@dataclass
class Figures:
    """The rounds of a table (or of one of its shoes, or dealers) over a span, and their bet kinds."""

    rounds: int = 0
    cancelled: int = 0
    voided: int = 0
    player_rounds: int = 0
    wagered: Decimal = Decimal(0)
    returned: Decimal = Decimal(0)
    findings: dict[str, int] = field(default_factory=dict)
    kinds: list[KindFigures] = field(default_factory=list)

    @property
    def ggr(self) -> Decimal:
        return self.wagered - self.returned

    @property
    def played(self) -> int:
        return self.rounds - self.cancelled - self.voided

    @property
    def players_per_round(self) -> Decimal | None:
        return (Decimal(self.player_rounds) / self.rounds).quantize(Decimal("0.1")) if self.rounds else None

    @property
    def findings_total(self) -> int:
        return sum(self.findings.values())

    @property
    def finding_lines(self) -> list[tuple[str, str, int]]:
        return [(value, label, self.findings.get(value, 0)) for value, label in FindingClass.choices]

    def kind(self, kind: str) -> KindFigures | None:
        return next((line for line in self.kinds if line.kind == kind), None)

    @property
    def main(self) -> KindFigures | None:
        return self.kind(MAIN)


def _theory(configuration_pks: Iterable[int]) -> dict[int, dict]:
    """Version -> its odds' figures (the versions worked out)."""
    known = ConfigurationOdds.objects.using(PRIMARY).filter(configuration_id__in=set(configuration_pks))
    return dict(known.values_list("configuration_id", "figures"))


def _moments(row: dict) -> RoundMoments:
    """A summed row's moments, exactly (SQLite sums decimals as floats)."""
    return RoundMoments(row["rounds"], *(exact(row[name]) for name in MOMENT_SUMS))


def _kind_figures(kind: str, per_version: dict[int, dict], theory: dict[int, dict]) -> KindFigures:
    moments = RoundMoments()
    bets = hits = 0
    weighted = Decimal(0)
    theoretical_known = True
    expected = 0.0
    for configuration_pk, row in per_version.items():
        moments += _moments(row)
        bets += row["bets"]
        hits += row["hits"]
        figures = theory.get(configuration_pk) or {}
        version_rtp = figures.get("rtp", {}).get(kind)
        if version_rtp is None:
            theoretical_known = False
        else:
            weighted += Decimal(version_rtp) * exact(row["wagered"])
        expected += row["bets"] * sum(figures.get("patterns", {}).get(kind, {}).values())
    theoretical = None
    if theoretical_known and moments.wagered:
        theoretical = rtp(weighted / moments.wagered)
    return KindFigures(
        kind=kind,
        rounds=moments.rounds,
        bets=bets,
        wagered=money(moments.wagered),
        returned=money(moments.returned),
        hits=hits,
        theoretical=theoretical,
        expected_hits=expected if kind in SIDE_OPTION_KINDS and theoretical_known else None,
        moments=moments,
    )


def _figures(rows: list[dict], theory: dict[int, dict]) -> Figures:
    """Figures from rows summed per version and kind."""
    figures = Figures()
    kinds: dict[str, dict[int, dict]] = defaultdict(dict)
    for row in rows:
        if row["kind"] == ROUNDS_ROW:
            figures.rounds += row["rounds"]
            figures.cancelled += row["cancelled"]
            figures.voided += row["voided"]
            figures.player_rounds += row["player_rounds"]
            figures.wagered += money(row["wagered"])
            figures.returned += money(row["returned"])
            for value in FindingClass.values:
                figures.findings[value] = figures.findings.get(value, 0) + row[f"findings_{value}"]
        elif row["rounds"]:
            kinds[row["kind"]][row["configuration_pk"]] = row
    order = {kind: index for index, kind in enumerate(BET_KINDS)}
    figures.kinds = [
        _kind_figures(kind, per_version, theory)
        for kind, per_version in sorted(kinds.items(), key=lambda item: order.get(item[0], len(order)))
    ]
    return figures


def _summed(rows, *group: str) -> list[dict]:
    return list(
        rows.values(*group, "configuration_pk", "kind")
        .annotate(**{name: Sum(name) for name in SUMS})
        .order_by()
    )


def table_rows(table_pk: int, *, day: date | None = None, since: datetime | None = None):
    """A table's rows of a gaming day, or from the slot `since` on (across a day's cut-off), or both."""
    rows = LiveFigures.objects.using(PRIMARY).filter(table_id=table_pk)
    if day is not None:
        rows = rows.filter(day=day)
    return rows if since is None else rows.filter(slot__gte=since)


def table_figures(table_pk: int, *, day: date | None = None, since: datetime | None = None) -> Figures:
    """A table's gaming day so far, or its figures from the slot `since` on."""
    rows = _summed(table_rows(table_pk, day=day, since=since))
    return _figures(rows, _theory(row["configuration_pk"] for row in rows))


def table_figures_by(table_pk: int, by: str, *, day: date) -> dict[str, Figures]:
    """A table's gaming day per shoe or per dealer (`by`: "shoe" or "dealt_by"), the latest first."""
    rows = _summed(table_rows(table_pk, day=day), by)
    theory = _theory(row["configuration_pk"] for row in rows)
    grouped: dict[str, list[dict]] = defaultdict(list)
    for row in rows:
        grouped[row[by]].append(row)
    latest = dict(
        table_rows(table_pk, day=day).values(by).annotate(latest=Max("slot")).values_list(by, "latest")
    )
    return {
        name: _figures(group, theory)
        for name, group in sorted(grouped.items(), key=lambda item: latest[item[0]], reverse=True)
    }


def floor_figures(*, day: date, since: datetime) -> dict[int, tuple[Figures, Figures]]:
    """Every table's figures for the floor: table -> (its day so far, its last hour)."""
    day_rows = _summed(LiveFigures.objects.using(PRIMARY).filter(day=day), "table_id")
    hour_rows = _summed(
        LiveFigures.objects.using(PRIMARY).filter(slot__gte=since, kind=ROUNDS_ROW), "table_id"
    )
    theory = _theory(row["configuration_pk"] for row in day_rows)
    by_table: dict[int, list[list[dict]]] = defaultdict(lambda: [[], []])
    for row in day_rows:
        by_table[row["table_id"]][0].append(row)
    for row in hour_rows:
        by_table[row["table_id"]][1].append(row)
    return {
        table_pk: (_figures(today, theory), _figures(last_hour, theory))
        for table_pk, (today, last_hour) in by_table.items()
    }


@dataclass(frozen=True)
class ChartPoint:
    slot: datetime
    rounds: int
    rtp: Decimal
    low: Decimal | None  # the expected band: theory ± z·se at this many rounds
    high: Decimal | None


def cumulative_rtp(table_pk: int, kind: str, *, day: date) -> tuple[list[ChartPoint], Decimal | None]:
    """A bet kind's RTP at a table over its gaming day, slot by slot (rounds to the end of each slot),
    with the band the theoretical RTP gives at each point (±1.96 standard errors of the rounds so
    far); and the theoretical RTP."""
    rows = list(
        table_rows(table_pk, day=day)
        .filter(kind=kind)
        .values("slot", "configuration_pk")
        .annotate(**{name: Sum(name) for name in SUMS})
        .order_by("slot")
    )
    theory = _theory(row["configuration_pk"] for row in rows)
    points, moments = [], RoundMoments()
    per_version: dict[int, dict] = {}
    for row in rows:
        moments += _moments(row)
        running = per_version.setdefault(row["configuration_pk"], dict.fromkeys(SUMS, 0))
        for name in SUMS:
            running[name] += row[name] if isinstance(row[name], int) else exact(row[name])
        if not moments.wagered or not moments.rounds:
            continue
        theoretical = _kind_figures(kind, per_version, theory).theoretical
        estimate = ratio_estimate(moments)
        low = high = None
        if theoretical is not None and estimate is not None:
            spread = Z95 * estimate[1] * 100
            low, high = rtp(max(theoretical - spread, Decimal(0))), rtp(theoretical + spread)
        points.append(
            ChartPoint(row["slot"], moments.rounds, rtp(moments.returned / moments.wagered * 100), low, high)
        )
    final = _kind_figures(kind, per_version, theory).theoretical if per_version else None
    return points, final

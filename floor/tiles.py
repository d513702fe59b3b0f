"""What the floor shows of each table (a tile) and what a table's live page shows, from the live
figures (live.selectors), the tables' status and alerts, and who deals."""

from dataclasses import dataclass
from datetime import date, datetime
from decimal import Decimal

from django.utils import timezone

from core.gaming_day import gaming_day_of
from live.selectors import (
    PRIMARY,
    ChartPoint,
    Figures,
    cumulative_rtp,
    floor_figures,
    table_figures,
    table_figures_by,
)
from live.services import last_hour_start
from tables.models import Table
from tables.selectors import TableAlert, dealer_on_duty, table_alerts, with_alerts, with_dealers


@dataclass(frozen=True)
class Moment:
    """The gaming day now, and where "the last hour" starts (the twelve five-minute slots to now)."""

    now: datetime
    day: date
    since: datetime


def moment_now() -> Moment:
    now = timezone.now()
    return Moment(now, gaming_day_of(now), last_hour_start(now))


@dataclass
class Tile:
    table: Table
    alerts: list[TableAlert]
    today: Figures
    last_hour: Figures

    @property
    def dealer(self) -> str:
        return dealer_on_duty(self.table).dealer


def floor_tiles(moment: Moment) -> list[Tile]:
    """Every table, by code."""
    tables = with_dealers(with_alerts(Table.objects.using(PRIMARY).order_by("code")))
    figures = floor_figures(day=moment.day, since=moment.since)
    empty = (Figures(), Figures())
    return [Tile(table, table_alerts(table), *figures.get(table.pk, empty)) for table in tables]


@dataclass
class TableLive:
    moment: Moment
    table: Table
    alerts: list[TableAlert]
    today: Figures
    last_hour: Figures
    shoes: dict[str, Figures]
    dealers: dict[str, Figures]
    chart: list[ChartPoint]
    chart_theoretical: Decimal | None

    @property
    def day(self) -> date:
        return self.moment.day

    @property
    def since(self) -> datetime:
        return self.moment.since

    @property
    def dealer(self) -> str:
        return dealer_on_duty(self.table).dealer


def table_live(table: Table, moment: Moment) -> TableLive:
    table = with_dealers(with_alerts(Table.objects.using(PRIMARY).filter(pk=table.pk))).get()
    chart, theoretical = cumulative_rtp(table.pk, "main", day=moment.day)
    return TableLive(
        moment=moment,
        table=table,
        alerts=table_alerts(table),
        today=table_figures(table.pk, day=moment.day),
        last_hour=table_figures(table.pk, since=moment.since),
        shoes=table_figures_by(table.pk, "shoe", day=moment.day),
        dealers=table_figures_by(table.pk, "dealt_by", day=moment.day),
        chart=chart,
        chart_theoretical=theoretical,
    )

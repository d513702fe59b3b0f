"""What the day's report modules share (daily.py, exposure.py, players.py): the rounds a figure
reads, one bet kind's group of them, and what a configuration version gives the figures."""

from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal

from django.db import connection

from core.gaming_day import GamingDay
from core.rtp_stats import RoundMoments
from rounds.choices import RoundStatus
from rounds.models import Round

from .played import NOT_PLAYED_ROUND_SQL


@dataclass(frozen=True)
class DayRounds:
    """Rounds of one gaming day, of one table or of every table, as a WHERE clause on the alias `r`."""

    day: GamingDay
    table_id: int | None = None
    completed_only: bool = True

    def where(self) -> tuple[str, list]:
        sql = "r.gaming_day = %s"
        params = [connection.ops.adapt_datefield_value(self.day.day)]
        if self.table_id is not None:
            sql += " AND r.table_id = %s"
            params.append(self.table_id)
        if self.completed_only:
            sql += f" AND r.status = %s AND NOT EXISTS ({NOT_PLAYED_ROUND_SQL.format(round='r.id')})"
            params.append(RoundStatus.COMPLETED.value)
        return sql, params

    def every_round(self):
        """Every round of the day (and table) as a queryset, whatever its outcome."""
        rounds = Round.objects.filter(gaming_day=self.day.day)
        if self.table_id is not None:
            rounds = rounds.filter(table_id=self.table_id)
        return rounds


@dataclass(frozen=True)
class KindGroup:
    """One bet kind's completed rounds under one configuration version of one table."""

    table_id: int
    configuration_id: int | None
    kind: str
    bets: int
    stakes: Decimal
    moments: RoundMoments
    largest_round_stakes: Decimal  # the most this kind staked in one round (side options)
    largest_round_pk: int | None  # that round (the first stored, when several)
    after_max_round_bets: int
    after_max_round_stakes: Decimal


@dataclass(frozen=True)
class Version:
    """What the figures need of a configuration version: its theoretical odds, if known, and rules."""

    pk: int
    number: int
    valid_from: datetime
    rtp: dict[str, Decimal]  # bet kind -> theoretical RTP; empty while its odds are not worked out
    patterns: dict[str, dict[str, float]]  # side option -> paying pattern -> probability
    paytables: dict[str, tuple[str, ...]]  # side option -> the patterns its paytable pays
    top_odds: dict[str, Decimal]  # side option -> the odds of its paytable's top pattern
    shared_deal: bool

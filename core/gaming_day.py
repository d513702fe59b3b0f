"""The gaming day: the one definition, imported wherever a day is cut (rounds, reports).

A gaming day runs from the cut-off (settings.PITBOSS_GAMING_DAY_CUTOFF) on the clocks of the
casino's time zone (settings.PITBOSS_GAMING_DAY_TIME_ZONE) to the next day's cut-off; a round
belongs to the day in which it opened. A day across a clock change lasts 23 or 25 hours. Where the
clocks skip the cut-off, the day starts as they jump past it; where they show it twice, the first
time (the day then runs on through the repeated hour instead of ending and starting again).

Ingest stores each round's day (Round.gaming_day, from `gaming_day_of`); the filters, the play
record, the day totals and the daily report read that column, so they cannot disagree.
"""

from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo

from django.conf import settings
from django.utils import timezone


def cutoff_on(day: date, time_zone: str, cutoff: time) -> datetime:
    """The first moment (UTC) at which the clocks of `time_zone` show `cutoff` or later on `day`."""
    zone = ZoneInfo(time_zone)
    wanted = datetime.combine(day, cutoff)
    first = wanted.replace(tzinfo=zone, fold=0).astimezone(UTC)  # shown twice: fold=0 is the first
    if first.astimezone(zone).replace(tzinfo=None) == wanted:
        return first
    # Skipped: read with the offset after the jump it is a moment before it, with the offset before
    # it one after. The jump lies between; tz transitions fall on whole seconds.
    low = int(wanted.replace(tzinfo=zone, fold=1).timestamp())
    high = int(first.timestamp())
    while high - low > 1:
        middle = (low + high) // 2
        if datetime.fromtimestamp(middle, zone).replace(tzinfo=None) >= wanted:
            high = middle
        else:
            low = middle
    return datetime.fromtimestamp(high, UTC)


@dataclass(frozen=True)
class GamingDay:
    """One gaming day under a time zone and cut-off (those of a report run, or the settings')."""

    day: date
    time_zone: str
    cutoff: time

    @property
    def starts_at(self) -> datetime:
        """The first moment of the day, in UTC."""
        return cutoff_on(self.day, self.time_zone, self.cutoff)

    @property
    def ends_at(self) -> datetime:
        """The first moment of the next day, in UTC."""
        return cutoff_on(self.day + timedelta(days=1), self.time_zone, self.cutoff)

    def __str__(self) -> str:
        return (
            f"{self.day.isoformat()} (from {self.cutoff:%H:%M} to {self.cutoff:%H:%M} the next day, "
            f"{self.time_zone})"
        )


def gaming_day(day: date) -> GamingDay:
    """The gaming day `day` under the settings."""
    return GamingDay(day, settings.PITBOSS_GAMING_DAY_TIME_ZONE, settings.PITBOSS_GAMING_DAY_CUTOFF)


def gaming_day_of(moment: datetime) -> date:
    """The gaming day an aware moment falls in: its date on the casino's clocks, or the day before
    when it comes before that date's cut-off."""
    if timezone.is_naive(moment):
        raise ValueError(f"gaming_day_of() needs an aware moment, not {moment!r}.")
    time_zone, cutoff = settings.PITBOSS_GAMING_DAY_TIME_ZONE, settings.PITBOSS_GAMING_DAY_CUTOFF
    day = moment.astimezone(ZoneInfo(time_zone)).date()
    return day if moment >= cutoff_on(day, time_zone, cutoff) else day - timedelta(days=1)


def last_closed_gaming_day(now: datetime | None = None) -> date:
    """The latest gaming day that has ended by `now`."""
    return gaming_day_of(now or timezone.now()) - timedelta(days=1)

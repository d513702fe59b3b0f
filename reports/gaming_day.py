"""The gaming day: from the cut-off (settings.PITBOSS_GAMING_DAY_CUTOFF) in the casino's time zone
(settings.PITBOSS_GAMING_DAY_TIME_ZONE) to the next day's cut-off. A round belongs to the gaming
day in which it opened."""

from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo

from django.conf import settings
from django.utils import timezone


@dataclass(frozen=True)
class GamingDay:
    day: date
    time_zone: str
    cutoff: time

    @property
    def starts_at(self) -> datetime:
        """The first moment of the day, in UTC."""
        return datetime.combine(self.day, self.cutoff, ZoneInfo(self.time_zone)).astimezone(UTC)

    @property
    def ends_at(self) -> datetime:
        """The first moment of the next day, in UTC (a day across a DST change is 23 or 25 hours)."""
        following = self.day + timedelta(days=1)
        return datetime.combine(following, self.cutoff, ZoneInfo(self.time_zone)).astimezone(UTC)

    def __str__(self) -> str:
        return (
            f"{self.day.isoformat()} (from {self.cutoff:%H:%M} to {self.cutoff:%H:%M} the next day, "
            f"{self.time_zone})"
        )


def gaming_day(day: date) -> GamingDay:
    return GamingDay(day, settings.PITBOSS_GAMING_DAY_TIME_ZONE, settings.PITBOSS_GAMING_DAY_CUTOFF)


def gaming_day_of(moment: datetime) -> date:
    """The gaming day a moment falls in."""
    local = moment.astimezone(ZoneInfo(settings.PITBOSS_GAMING_DAY_TIME_ZONE))
    day = local.date()
    if local.time() < settings.PITBOSS_GAMING_DAY_CUTOFF:
        day -= timedelta(days=1)
    return day


def last_closed_gaming_day(now: datetime | None = None) -> date:
    """The latest gaming day that has ended by `now`."""
    return gaming_day_of(now or timezone.now()) - timedelta(days=1)

"""The time zone a member of staff sees times in: their own choice (accounts.models.Preferences), by
default the gaming day's (settings.PITBOSS_GAMING_DAY_TIME_ZONE). The session holds it from sign-in
and from each change, so a page reads no row for it (accounts.middleware.user_time_zone)."""

from datetime import datetime
from functools import cache
from zoneinfo import ZoneInfo, available_timezones

from django.conf import settings
from django.core.exceptions import ValidationError

SESSION_KEY = "pitboss_time_zone"
# Offered first, after the gaming day's zone: UTC and the zones of the studios and offices.
COMMON_TIME_ZONES = ("UTC", "Europe/London", "Europe/Malta", "Europe/Riga", "Asia/Tbilisi", "Asia/Manila")
# The regions of the IANA names (Europe/Malta); the rest (Etc/GMT+5, US/Eastern, CET) are "Other".
REGIONS = (
    "Africa",
    "America",
    "Antarctica",
    "Arctic",
    "Asia",
    "Atlantic",
    "Australia",
    "Europe",
    "Indian",
    "Pacific",
)
# In the zoneinfo database but no place: "localtime" is the machine's own setting.
NOT_A_PLACE = frozenset({"localtime", "Factory"})


@cache
def time_zone_names() -> frozenset[str]:
    """Every IANA time zone name the zoneinfo database knows (read once: it scans the disk)."""
    return frozenset(available_timezones()) - NOT_A_PLACE


def default_time_zone() -> str:
    """The time zone of whoever has not chosen one, and of pages before sign-in."""
    return settings.PITBOSS_GAMING_DAY_TIME_ZONE


def validate_time_zone(name: str) -> None:
    if name not in time_zone_names():
        raise ValidationError(
            "“%(name)s” is not a time zone: choose one from the list (an IANA name such as Europe/Malta).",
            code="invalid_time_zone",
            params={"name": name},
        )


def offset_text(name: str, now: datetime) -> str:
    """The zone's offset from UTC at `now`: "UTC+01:00", "UTC-03:30", "UTC+00:00"."""
    seconds = int(now.astimezone(ZoneInfo(name)).utcoffset().total_seconds())
    hours, minutes = divmod(abs(seconds) // 60, 60)
    return f"UTC{'-' if seconds < 0 else '+'}{hours:02d}:{minutes:02d}"


def time_zone_choices(now: datetime) -> list[tuple[str, list[tuple[str, str]]]]:
    """The zones as a select's groups: the common ones first, then each region's and the rest, each
    sorted by name and labelled with its offset at `now`."""

    def option(name: str) -> tuple[str, str]:
        return name, f"{name} ({offset_text(name, now)})"

    common = list(dict.fromkeys((default_time_zone(), *COMMON_TIME_ZONES)))
    names = sorted(time_zone_names())
    groups = [("Common", [option(name) for name in common if name in time_zone_names()])]
    for region in REGIONS:
        groups.append((region, [option(name) for name in names if name.startswith(f"{region}/")]))
    other = [name for name in names if name.split("/")[0] not in REGIONS]
    groups.append(("Other", [option(name) for name in other]))
    return groups

"""Throttles count requests by the minute (core.fixed_window): tests that count them freeze the
clock 20 seconds into a minute, so that no request falls into the next one."""

from datetime import UTC, datetime

from freezegun import freeze_time


def twenty_seconds_into_a_minute():
    """freezegun's frozen clock (a context manager), at the present minute's 20th second."""
    return freeze_time(datetime.now(UTC).replace(second=20, microsecond=0))

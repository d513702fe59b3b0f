"""The gaming day runs from the cut-off to the next day's cut-off in the casino's time zone."""

from datetime import UTC, date, datetime, time

from reports.gaming_day import gaming_day, gaming_day_of, last_closed_gaming_day


def test_a_day_runs_from_cutoff_to_cutoff_in_the_time_zone(settings):
    settings.PITBOSS_GAMING_DAY_TIME_ZONE = "Europe/Malta"
    settings.PITBOSS_GAMING_DAY_CUTOFF = time(6, 0)
    day = gaming_day(date(2026, 11, 28))
    assert day.starts_at == datetime(2026, 11, 28, 5, 0, tzinfo=UTC)  # 06:00 CET
    assert day.ends_at == datetime(2026, 11, 29, 5, 0, tzinfo=UTC)
    assert "Europe/Malta" in str(day) and "06:00" in str(day)


def test_a_day_across_the_clock_change_has_its_true_length(settings):
    settings.PITBOSS_GAMING_DAY_TIME_ZONE = "Europe/Malta"
    settings.PITBOSS_GAMING_DAY_CUTOFF = time(6, 0)
    spring = gaming_day(date(2026, 3, 28))  # clocks go forward on the 29th
    assert (spring.ends_at - spring.starts_at).total_seconds() == 23 * 3600


def test_a_moment_belongs_to_the_day_whose_cutoff_it_follows(settings):
    settings.PITBOSS_GAMING_DAY_TIME_ZONE = "Europe/Malta"
    settings.PITBOSS_GAMING_DAY_CUTOFF = time(6, 0)
    assert gaming_day_of(datetime(2026, 11, 29, 4, 59, tzinfo=UTC)) == date(2026, 11, 28)
    assert gaming_day_of(datetime(2026, 11, 29, 5, 0, tzinfo=UTC)) == date(2026, 11, 29)
    assert last_closed_gaming_day(datetime(2026, 11, 29, 5, 0, tzinfo=UTC)) == date(2026, 11, 28)
    assert last_closed_gaming_day(datetime(2026, 11, 29, 4, 0, tzinfo=UTC)) == date(2026, 11, 27)

"""One gaming day everywhere. The rule: a gaming day runs from the cut-off
(PITBOSS_GAMING_DAY_CUTOFF) in the casino's time zone (PITBOSS_GAMING_DAY_TIME_ZONE) to the next
day's cut-off, and a round belongs to the day in which it opened.

Minute by minute around both 2026 clock changes in Malta (29 March and 25 October, at 01:00 UTC),
around the 06:00 cut-off on those days and on a summer and a winter day, every place that puts a
round under a day must agree: the function, the day totals ingest writes, the play record's
per-day rows and its bet filter, the round list's and the API's `day` filter, the daily report.
"""

import importlib
import itertools
import json
import re
from collections import Counter
from datetime import UTC, date, datetime, time, timedelta
from io import StringIO
from zoneinfo import ZoneInfo

import pytest
from django.apps import apps
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.db import connection
from django.urls import reverse

from blackjack.rules import preset
from blackjack.simulate import simulate
from core.gaming_day import GamingDay, gaming_day, gaming_day_of, last_closed_gaming_day
from reports.daily import table_day_compute
from reports.models import DailyFigures, DailyTableSummary, ReportRun, RunTrigger
from rounds.ingest import round_ingest
from rounds.models import Bet, PlayerTotalsPending, Round, TableDayTotal
from rounds.views import PlayRecordView, RoundListView
from tables.models import Table
from tests import factories
from tests.api_support import client_as

MALTA = ZoneInfo("Europe/Malta")
SIX = time(6, 0)
SPRING = date(2026, 3, 29)  # clocks go forward at 01:00 UTC: 02:00 CET is 03:00 CEST
AUTUMN = date(2026, 10, 25)  # clocks go back at 01:00 UTC: 03:00 CEST is 02:00 CET
PLAYER = "PCLS10001"


@pytest.fixture(autouse=True)
def malta_at_six(settings):
    settings.PITBOSS_GAMING_DAY_TIME_ZONE = "Europe/Malta"
    settings.PITBOSS_GAMING_DAY_CUTOFF = SIX


def malta_day(moment: datetime) -> date:
    """The rule at a 06:00 cut-off, written out independently of the code under test: the date on
    Malta's clocks, or the day before while they show less than 06:00."""
    local = moment.astimezone(MALTA)
    return local.date() - timedelta(days=1 if local.time() < SIX else 0)


def minutes(day: date, first: time, last: time) -> list[datetime]:
    """Every minute from `first` to `last` (inclusive) of `day`, in UTC."""
    moment = datetime.combine(day, first, UTC)
    end = datetime.combine(day, last, UTC)
    found = []
    while moment <= end:
        found.append(moment)
        moment += timedelta(minutes=1)
    return found


# The clock changes themselves; on both days the hour from 04:00 to 05:00 UTC that used to be put
# under different days, with the cut-off at either end of it (06:00 is 04:00 UTC in summer time,
# 05:00 UTC in winter time); the cut-off on a summer and on a winter day.
MOMENTS = [
    *minutes(SPRING, time(0, 58), time(1, 2)),
    *minutes(SPRING, time(3, 57), time(5, 3)),
    *minutes(AUTUMN, time(0, 58), time(1, 2)),
    *minutes(AUTUMN, time(3, 57), time(5, 3)),
    *minutes(date(2026, 7, 15), time(3, 58), time(4, 2)),
    *minutes(date(2026, 11, 28), time(4, 58), time(5, 2)),
]


# --- the function ---------------------------------------------------------------------------------


def every_minute_around(day: date) -> list[datetime]:
    """Every minute of the three UTC days around `day`."""
    start = datetime.combine(day - timedelta(days=1), time(0, 0), UTC)
    return [start + timedelta(minutes=n) for n in range(3 * 24 * 60)]


@pytest.mark.parametrize("change", [SPRING, AUTUMN])
def test_at_six_a_moment_is_on_the_local_date_or_the_day_before_before_six(change):
    wrong = [
        (f"{moment:%Y-%m-%d %H:%M} UTC", gaming_day_of(moment), malta_day(moment))
        for moment in every_minute_around(change)
        if gaming_day_of(moment) != malta_day(moment)
    ]
    assert wrong == []


@pytest.mark.parametrize("cutoff", [time(0, 0), time(2, 0), time(2, 30), time(3, 0), SIX, time(23, 30)])
@pytest.mark.parametrize("change", [SPRING, AUTUMN])
def test_every_minute_lies_between_the_bounds_of_its_day(settings, change, cutoff):
    """What SQL reads by the day's bounds and what the function says agree, for any cut-off: also
    one the clocks skip (02:30 in spring) or show twice (02:30 in autumn)."""
    settings.PITBOSS_GAMING_DAY_CUTOFF = cutoff
    outside = []
    for moment in every_minute_around(change):
        day = gaming_day(gaming_day_of(moment))
        if not day.starts_at <= moment < day.ends_at:
            outside.append(f"{moment:%Y-%m-%d %H:%M} UTC -> {day}")
    assert outside == []


def test_a_day_runs_from_cutoff_to_cutoff_in_the_time_zone():
    day = gaming_day(date(2026, 11, 28))
    assert day.starts_at == datetime(2026, 11, 28, 5, 0, tzinfo=UTC)  # 06:00 CET
    assert day.ends_at == datetime(2026, 11, 29, 5, 0, tzinfo=UTC)
    assert "Europe/Malta" in str(day) and "06:00" in str(day)


def test_the_days_of_the_clock_changes_last_23_and_25_hours():
    hours = {
        day: (gaming_day(day).ends_at - gaming_day(day).starts_at) / timedelta(hours=1)
        for day in (
            SPRING - timedelta(days=1),
            SPRING,
            AUTUMN - timedelta(days=1),
            AUTUMN,
        )
    }
    assert hours == {date(2026, 3, 28): 23, SPRING: 24, date(2026, 10, 24): 25, AUTUMN: 24}


def test_a_cutoff_the_clocks_skip_starts_the_day_when_they_jump(settings):
    settings.PITBOSS_GAMING_DAY_CUTOFF = time(2, 30)  # 02:00 CET is followed by 03:00 CEST
    assert gaming_day(SPRING).starts_at == datetime(2026, 3, 29, 1, 0, tzinfo=UTC)
    assert gaming_day_of(datetime(2026, 3, 29, 0, 59, tzinfo=UTC)) == date(2026, 3, 28)  # 01:59 CET
    assert gaming_day_of(datetime(2026, 3, 29, 1, 0, tzinfo=UTC)) == SPRING  # 03:00 CEST


def test_a_cutoff_the_clocks_show_twice_starts_the_day_the_first_time(settings):
    settings.PITBOSS_GAMING_DAY_CUTOFF = time(2, 30)  # 02:00 to 03:00 comes twice
    assert gaming_day(AUTUMN).starts_at == datetime(2026, 10, 25, 0, 30, tzinfo=UTC)  # 02:30 CEST
    assert gaming_day_of(datetime(2026, 10, 25, 0, 29, tzinfo=UTC)) == date(2026, 10, 24)
    # 02:15 CET, the second time the clocks show it: the day that began at 02:30 CEST goes on.
    assert gaming_day_of(datetime(2026, 10, 25, 1, 15, tzinfo=UTC)) == AUTUMN
    assert (gaming_day(date(2026, 10, 24)).ends_at - gaming_day(date(2026, 10, 24)).starts_at) == timedelta(
        hours=24
    )


def test_the_last_closed_day_is_the_one_before_the_current_day():
    assert last_closed_gaming_day(datetime(2026, 11, 29, 5, 0, tzinfo=UTC)) == date(2026, 11, 28)
    assert last_closed_gaming_day(datetime(2026, 11, 29, 4, 59, tzinfo=UTC)) == date(2026, 11, 27)


def test_a_moment_without_its_zone_is_refused():
    with pytest.raises(ValueError, match="aware"):
        gaming_day_of(datetime(2026, 11, 28, 5, 0))


def test_a_day_keeps_the_zone_and_cutoff_it_was_made_with(settings):
    day = GamingDay(date(2026, 11, 28), "America/New_York", time(4, 0))
    settings.PITBOSS_GAMING_DAY_TIME_ZONE = "Asia/Tokyo"
    assert day.starts_at == datetime(2026, 11, 28, 9, 0, tzinfo=UTC)  # 04:00 EST


# --- every place ------------------------------------------------------------------------------------


@pytest.fixture
def played(db) -> dict[str, datetime]:
    """One CLS1 round opened at each of MOMENTS, through the real ingest: round id -> opened_at."""
    call_command("seed_demo", stdout=StringIO())
    documents = simulate(preset("classic"), table="CLS1", shoes=10, players=1, seed=13, start=MOMENTS[0])
    opened = {}
    for moment, document in zip(MOMENTS, itertools.islice(documents, len(MOMENTS)), strict=True):
        document["opened_at"] = f"{moment:%Y-%m-%dT%H:%M:%SZ}"
        document["closed_at"] = f"{moment + timedelta(seconds=40):%Y-%m-%dT%H:%M:%SZ}"
        round_ingest(document=json.loads(json.dumps(document)))
        opened[document["round_id"]] = moment
    return opened


def candidate_days(opened: dict[str, datetime]) -> list[date]:
    """The days a round could be put under: its gaming day and its UTC date."""
    return sorted({malta_day(moment) for moment in opened.values()} | {m.date() for m in opened.values()})


def spans(moments: list[datetime]) -> str:
    """Minutes as runs: "2026-03-29 04:00-05:03, ... UTC"."""
    runs: list[list[datetime]] = []
    for moment in sorted(moments):
        if runs and moment - runs[-1][1] == timedelta(minutes=1):
            runs[-1][1] = moment
        else:
            runs.append([moment, moment])
    return ", ".join(f"{a:%Y-%m-%d %H:%M}" + (f"-{b:%H:%M}" if b > a else "") for a, b in runs) + " UTC"


def listed_round_ids(html: str) -> list[str]:
    return re.findall(r'<a href="/rounds/([^/"]+)/(?:\?list=[^"]*)?">', html)


def days_by_place(client, opened: dict[str, datetime]) -> dict[str, dict[str, list[date]]]:
    """Place -> round id -> the days it puts the round under (a list: once is right)."""
    days = candidate_days(opened)
    places: dict[str, dict[str, list[date]]] = {}

    def put(place: str, round_id: str, day: date) -> None:
        places.setdefault(place, {}).setdefault(round_id, []).append(day)

    for round_id, moment in opened.items():
        put("core.gaming_day.gaming_day_of", round_id, gaming_day_of(moment))
    for round_id, day in Round.objects.values_list("round_id", "gaming_day"):
        put("the round's stored day (Round.gaming_day)", round_id, day)
    for round_id, day in PlayerTotalsPending.objects.values_list("round__round_id", "day"):
        put("day totals written at ingest", round_id, day)
    api = client_as("compliance")
    for day in days:
        page = client.get(reverse("rounds:round_list"), {"day": day.isoformat()})
        for round_id in listed_round_ids(page.content.decode()):
            put("round list ?day=", round_id, day)
        body = api.get("/api/rounds/", {"day": day.isoformat(), "page_size": 500}).json()
        for row in body["results"]:
            put("API /api/rounds/?day=", row["round_id"], day)
        record = client.get(
            reverse("rounds:play_record", args=[PLAYER]), {"day": day.isoformat(), "kind": "main"}
        )
        for bet in record.context["table"].data:
            put("play record's bets ?day=", bet.round.round_id, day)
    return places


def counts_by_place(client, opened: dict[str, datetime]) -> tuple[dict[str, Counter], dict[str, Counter]]:
    """Place -> day -> how many rounds it counts on that day; and place -> day -> how many of the
    player's main bets."""
    days = candidate_days(opened)
    rounds: dict[str, Counter] = {}
    totals = TableDayTotal.objects.filter(table__code="CLS1", kind="main")
    rounds["day totals written at ingest"] = Counter({row.day: row.rounds for row in totals})
    run = ReportRun.objects.create(
        day=days[-1], trigger=RunTrigger.COMMAND, time_zone="Europe/Malta", cutoff=SIX
    )
    for day in days:
        table_day_compute(table=Table.objects.get(code="CLS1"), day=day, run=run)
    summaries = DailyTableSummary.objects.filter(table__code="CLS1", rounds__gt=0)
    rounds["daily report: the table's rounds"] = Counter(dict(summaries.values_list("day", "rounds")))
    figures = DailyFigures.objects.filter(table_code="CLS1", kind="main")
    rounds["daily report: rounds of the main bet"] = Counter(dict(figures.values_list("day", "rounds")))
    record = client.get(
        reverse("rounds:play_record", args=[PLAYER]),
        {"first": days[0].isoformat(), "last": days[-1].isoformat()},
    )
    bets = {
        "play record's totals by gaming day": Counter(
            {row["day"]: row["bets"] for row in record.context["totals"] if row["kind"] == "main"}
        )
    }
    return rounds, bets


def test_every_place_puts_each_round_under_the_day_it_opened_in(client, played, monkeypatch):
    monkeypatch.setattr(RoundListView, "per_page", 500)
    monkeypatch.setattr(PlayRecordView, "per_page", 500)
    client.force_login(get_user_model().objects.get(username="compliance"))
    expected = {round_id: malta_day(moment) for round_id, moment in played.items()}
    assert len(set(expected.values())) == 8  # two days around each cut-off

    disagreements = []
    for place, days in days_by_place(client, played).items():
        wrong = [played[round_id] for round_id, day in expected.items() if days.get(round_id) != [day]]
        if wrong:
            disagreements.append(f"{place}: {len(wrong)} of {len(expected)} rounds, opened {spans(wrong)}")

    player_bets = Bet.objects.filter(player__external_id=PLAYER, kind="main")
    wanted_bets = Counter(
        expected[round_id] for round_id in player_bets.values_list("round__round_id", flat=True)
    )
    wanted_rounds = Counter(expected.values())
    rounds, bets = counts_by_place(client, played)
    for counts, wanted in ((rounds, wanted_rounds), (bets, wanted_bets)):
        for place, counted in counts.items():
            differ = {
                day.isoformat(): f"{counted[day]} (not {wanted[day]})"
                for day in sorted(counted | wanted)
                if counted[day] != wanted[day]
            }
            if differ:
                disagreements.append(f"{place}: {differ}")
    assert not disagreements, "\n" + "\n".join(disagreements)


def test_the_day_filters_say_gaming_day(client, db):
    client.force_login(factories.user("compliance"))
    page = client.get(reverse("rounds:round_list")).content.decode()
    assert '<label for="id_day">Gaming day</label>' in page
    schema = client.get("/api/schema/", {"format": "json"}).json()
    (day,) = [p for p in schema["paths"]["/api/rounds/"]["get"]["parameters"] if p["name"] == "day"]
    assert day["description"] == "Gaming day"


def test_the_migration_gives_the_rounds_stored_before_it_the_day_ingest_gives(played):
    written_by_ingest = dict(Round.objects.values_list("round_id", "gaming_day"))
    assert written_by_ingest == {round_id: malta_day(moment) for round_id, moment in played.items()}
    Round.objects.update(gaming_day=date(2000, 1, 1))
    migration = importlib.import_module("rounds.migrations.0008_round_gaming_day")
    migration.gaming_days_of_stored_rounds(apps, connection.schema_editor())
    assert dict(Round.objects.values_list("round_id", "gaming_day")) == written_by_ingest

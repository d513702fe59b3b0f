"""Property (issue 44): rounds whose amounts are drawn up to the round format's bounds (a cent, 12
digits before the point, and anything between) go through ingest, the round page, the rounds API,
the table's day totals and the daily report, and none answers 500; every figure is the sum of what
was sent, to the cent.

On PostgreSQL every figure is exact. SQLite keeps a decimal as a float (Django's documented SQLite
limitation), exact to 15 significant digits: there a figure of more digits is checked to that.
"""

import itertools
from datetime import date, timedelta
from decimal import ROUND_HALF_UP, Decimal

import pytest
from django.db import connection
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from core.gaming_day import gaming_day
from core.money import exact_product, exact_sum, money_text
from reports.daily import table_day_compute, totals_compute
from reports.models import DailyFigures, ReportRun, RunStatus
from reports.pdf import report_html
from rounds.models import Round, TableDayTotal
from tests.amount_support import CENT, MOST, assert_figure
from tests.api_support import client_as, user
from tests.fixtures import ROUND_NAMES, round_document
from tests.rounds.corrections_support import demo  # noqa: F401

FIRST_DAY = date(2026, 2, 1)
# The fixture rounds the game server completed (a cancelled one pauses its table in an incident).
COMPLETED = tuple(name for name in ROUND_NAMES if round_document(name)["status"] == "completed")
_example = itertools.count()

amounts = st.one_of(st.just(MOST), st.just(CENT), st.decimals(min_value=CENT, max_value=MOST, places=2))
returns = st.one_of(st.just(Decimal(0)), amounts)


@st.composite
def rounds_at_the_bounds(draw) -> list[dict]:
    """One to three fixture rounds with every bet's stake, wagered and returned drawn anew."""
    names = draw(st.lists(st.sampled_from(COMPLETED), min_size=1, max_size=3, unique=True))
    documents = []
    for name in names:
        document = round_document(name)
        for bet in document["bets"]:
            bet["stake"] = f"{draw(amounts):.2f}"
            bet["wagered"] = f"{draw(amounts):.2f}"
            bet["returned"] = f"{draw(returns):.2f}"
        documents.append(document)
    return documents


def on_its_own_day(documents: list[dict]) -> date:
    """Give the example's rounds a gaming day and ids of their own: examples share one database."""
    number = next(_example)
    day = FIRST_DAY + timedelta(days=number)
    start = gaming_day(day).starts_at + timedelta(hours=3)
    for index, document in enumerate(documents):
        opened = start + timedelta(minutes=5 * index)
        document["opened_at"] = opened.strftime("%Y-%m-%dT%H:%M:%SZ")
        document["closed_at"] = (opened + timedelta(minutes=1)).strftime("%Y-%m-%dT%H:%M:%SZ")
        document["round_id"] += f"-P{number}"
        document["shoe"] += f"-P{number}"
        for bet in document["bets"]:
            bet["bet_id"] += f"-P{number}"
    return day


def sums(documents: list[dict]) -> dict[tuple[str, str], dict[str, Decimal]]:
    """(table, kind) -> what was sent, summed: rounds, stakes, wagered, returned and ΣW_r², ΣR_r²."""
    found = {}
    for document in documents:
        per_kind = {}
        for bet in document["bets"]:
            kind = per_kind.setdefault(bet["kind"], {"stakes": [], "wagered": [], "returned": []})
            for name, key in (("stakes", "stake"), ("wagered", "wagered"), ("returned", "returned")):
                kind[name].append(Decimal(bet[key]))
        for kind, values in per_kind.items():
            total = found.setdefault((document["table"], kind), {"rounds": 0, "W2": [], "R2": []})
            total["rounds"] += 1
            for name in ("stakes", "wagered", "returned"):
                total[name] = exact_sum(values[name], total.get(name, 0))
            wagered, returned = exact_sum(values["wagered"]), exact_sum(values["returned"])
            total["W2"].append(exact_product(wagered, wagered))
            total["R2"].append(exact_product(returned, returned))
    return found


property_settings = settings(
    max_examples=12,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


@pytest.mark.usefixtures("demo")
@property_settings
@given(documents=rounds_at_the_bounds())
def test_rounds_at_the_bounds_are_stored_shown_totalled_and_reported_to_the_cent(documents):
    day = on_its_own_day(documents)
    game_server, compliance = client_as("game_server"), client_as("compliance")
    compliance.force_login(user("compliance"))  # the pages too, not only the API

    for document in documents:
        response = game_server.post("/api/rounds/", document, format="json")
        assert response.status_code == 201, response.content
        shown = compliance.get(f"/api/rounds/{document['round_id']}/")
        assert shown.status_code == 200, shown.content
        body = shown.json()
        sent = {bet["bet_id"]: bet for bet in document["bets"]}
        for bet in body["bets"]:
            assert bet["stake"] == sent[bet["bet_id"]]["stake"]
            assert bet["reported"] == {
                "wagered": sent[bet["bet_id"]]["wagered"],
                "returned": sent[bet["bet_id"]]["returned"],
            }
        wagered = exact_sum(Decimal(bet["wagered"]) for bet in document["bets"])
        assert_figure(Decimal(body["wagered"]), wagered)
        page = compliance.get(Round.objects.get(round_id=document["round_id"]).get_absolute_url())
        assert page.status_code == 200
        assert money_text(Decimal(document["bets"][0]["stake"])) in page.content.decode()

    for sort in ("-wagered", "returned"):  # the round list, sorted by the sums
        listed = compliance.get(reverse("rounds:round_list"), {"sort": sort, "day": day.isoformat()})
        assert listed.status_code == 200

    expected = sums(documents)
    for (code, kind), sent in expected.items():
        total = TableDayTotal.objects.get(day=day, table__code=code, kind=kind)
        assert total.rounds == sent["rounds"]
        for name in ("stakes", "wagered", "returned"):
            assert_figure(getattr(total, name), sent[name])
        assert_figure(total.wagered_squared, exact_sum(sent["W2"]))
        assert_figure(total.returned_squared, exact_sum(sent["R2"]))

    bounds = gaming_day(day)
    run = ReportRun.objects.create(
        day=day,
        trigger="command",
        time_zone=bounds.time_zone,
        cutoff=bounds.cutoff,
        status=RunStatus.SUCCEEDED,
    )
    codes = sorted({code for code, _ in expected})
    for code in codes:
        table_day_compute(table=Round.objects.filter(table__code=code).first().table, day=day, run=run)
    totals_compute(day=day, run=run)
    for (code, kind), sent in expected.items():
        figures = DailyFigures.objects.get(run=run, table_code=code, kind=kind)
        assert_figure(figures.wagered, sent["wagered"])
        assert_figure(figures.returned, sent["returned"])
        if connection.vendor == "postgresql":
            ratio = (sent["returned"] / sent["wagered"] * 100).quantize(Decimal("0.0001"), ROUND_HALF_UP)
            assert figures.observed_rtp == ratio
    assert compliance.get(reverse("reports:daily_report"), {"run": run.pk}).status_code == 200
    api = compliance.get("/api/reports/daily-figures/", {"run": run.pk})
    assert api.status_code == 200, api.content
    assert compliance.get("/api/reports/table-summaries/", {"run": run.pk}).status_code == 200
    assert all(f"{code} ·" in report_html(run, "daily_rtp") for code in codes)

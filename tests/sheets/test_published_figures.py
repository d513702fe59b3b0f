"""The RTP a players' sheet states, in English and Filipino (issue 51): the published figure of record when
it is at or below the computed maximum, else the computed maximum cut down to two places (never more than
the game gives); a dated sheet states the figure entered by its time."""

from datetime import date, timedelta
from decimal import Decimal
from fractions import Fraction
from urllib.parse import quote

import pytest
from django.test import Client
from django.utils import timezone
from freezegun import freeze_time

from tables.models import TableConfiguration
from tables.odds import configuration_odds_compute
from tables.published import published_rtp_enter
from tables.services import table_set_status
from tests.factories import table, user
from tests.sheets.test_content import numbers_in, read_sheet

pytestmark = pytest.mark.django_db

SHEETS = {"en": "/rules/DLX1/", "fil": "/rules/DLX1/fil/"}


@pytest.fixture
def dlx():
    """DLX1 with its odds (main 99.5169, Pair 97.1154), open since yesterday: its sheet is public."""
    with freeze_time(timezone.now() - timedelta(days=1)):
        created = table("DLX1")
        configuration_odds_compute(configuration=TableConfiguration.objects.get(table=created))
        table_set_status(table=created, status="open", changed_by=user(), reason="Shift start")
    return created


def publish(kind: str, rtp: str):
    return published_rtp_enter(
        configuration=TableConfiguration.objects.get(table__code="DLX1", version=1),
        kind=kind,
        rtp=Decimal(rtp),
        source_document="Game rules, edition 3",
        published_on=date(2026, 1, 15),
        entered_by=user("compliance"),
    )


def stated(kind: str, at=None) -> dict[str, Fraction]:
    """The RTP of `kind` each language's sheet states (at `at`, if given)."""
    query = "" if at is None else f"?at={quote(at.isoformat(), safe='')}"
    figures = {}
    for language, url in SHEETS.items():
        response = Client().get(url + query)
        assert response.status_code == 200, (url, response.status_code)
        text = dict(read_sheet(response.text).numbered)[f"rtp:{kind}"]
        (figures[language],) = numbers_in(text, language)
    return figures


def both(figure: str) -> dict[str, Fraction]:
    return {"en": Fraction(figure), "fil": Fraction(figure)}


def test_without_a_published_figure_the_sheet_states_the_computed_one_cut_down(dlx):
    assert stated("main") == both("99.51")  # 99.5169, never 99.52
    assert stated("pair") == both("97.11")  # 97.1154


def test_a_published_figure_at_or_below_the_computed_one_is_stated(dlx):
    publish("main", "99.46")
    assert stated("main") == both("99.46")
    assert "99.46%" in Client().get(SHEETS["en"]).text


def test_a_published_figure_above_the_computed_one_is_never_stated(dlx):
    publish("main", "99.53")
    assert stated("main") == both("99.51")
    for url in SHEETS.values():
        assert "99.53" not in Client().get(url).text


def test_a_side_options_figure_follows_the_same_rule(dlx):
    publish("pair", "97.00")
    assert stated("pair") == both("97.00")
    publish("pair", "98.00")  # the later entry, above the game's
    assert stated("pair") == both("97.11")
    assert stated("main") == both("99.51")  # another kind's figure is not its


def test_a_dated_sheet_states_the_figure_entered_by_its_time(dlx):
    publish("main", "99.46")
    between = timezone.now()
    before = between - timedelta(hours=1)
    publish("main", "99.40")
    assert stated("main") == both("99.40")
    assert stated("main", at=between) == both("99.46")
    assert stated("main", at=before) == both("99.51")  # before any entry: the computed one cut down

"""Stored odds carry the method that worked them out: figures of an older method are worked out again
(by Celery beat's refresh task, `manage.py odds_refresh`, or a version's own task) and replaced in place;
meanwhile the table page says they are being computed. The table page shows the main game's maximum
RTP beside its RTP under automatic play, and the strategy chart of best play."""

import re
from datetime import timedelta
from decimal import Decimal
from io import StringIO

import pytest
from django.core.management import call_command
from django.urls import reverse
from django.utils import timezone

from blackjack.odds import METHOD_VERSION, theoretical_odds
from tables.models import ConfigurationOdds, TableConfiguration
from tables.odds import rule_set_digest
from tables.tasks import configuration_odds, configuration_odds_refresh
from tests import factories

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("odds_worked_out")]

# Figures as method 1 kept them: the main game by a total-dependent basic strategy, no chart.
METHOD_1_FIGURES = {
    "rtp": {"main": "99.5150", "behind": "99.5150", "insurance": "92.5301", "pair": "97.1154"},
    "patterns": {"pair": {"mixed_pair": 0.0385, "coloured_pair": 0.0193, "perfect_pair": 0.0166}},
    "strategy": "Total-dependent basic strategy.",
}
A_DAY_AGO = timezone.now() - timedelta(days=1)


def configuration_of(code: str) -> TableConfiguration:
    return TableConfiguration.objects.get(table__code=code)


def keep_method_1(code: str, copied_from: ConfigurationOdds | None = None) -> ConfigurationOdds:
    """A table's figures as the odds engine's first method left them, a day ago."""
    configuration = configuration_of(code)
    kept = ConfigurationOdds.objects.create(
        configuration=configuration,
        rules_sha256=rule_set_digest(configuration.rule_set),
        figures=METHOD_1_FIGURES,
        seconds=0.0 if copied_from else 5.0,
        copied_from=copied_from,
        method=1,
    )
    ConfigurationOdds.objects.filter(pk=kept.pk).update(computed_at=A_DAY_AGO)
    return kept


def assert_current(odds: ConfigurationOdds) -> None:
    expected = theoretical_odds(odds.configuration.rule_set)
    assert odds.method == odds.figures["method"] == METHOD_VERSION == 2
    assert odds.figures["rtp"] == {kind: str(rtp) for kind, rtp in expected.rtp.items()}
    assert odds.figures["auto_play"] == str(expected.auto_play_rtp)
    assert odds.figures["chart"] == expected.chart.to_dict()
    assert odds.computed_at > A_DAY_AGO


def page_of(client, code: str) -> str:
    client.force_login(factories.user("compliance"))
    return client.get(reverse("tables:table_detail", args=[code])).content.decode()


def squeezed(html: str) -> str:
    return re.sub(r">\s+<", "><", html)


# --- figures of an older method ---------------------------------------------------------------------


def test_the_refresh_task_replaces_figures_of_an_older_method_once():
    for code in ("DLX1", "DLX2", "CLS1"):  # no commit here: no version's own task ran
        factories.table(code)
    original = keep_method_1("DLX1")
    copy = keep_method_1("DLX2", copied_from=original)  # the same rules: it took DLX1's figures
    # CLS1 has no figures at all (its task was lost, say).

    result = configuration_odds_refresh.delay().get()

    ids = [configuration_of(code).pk for code in ("DLX1", "DLX2", "CLS1")]
    assert result == {"refreshed": ids, "left": 0}
    assert ConfigurationOdds.objects.count() == 3
    original_now = ConfigurationOdds.objects.get(pk=original.pk)  # the same row, replaced in place
    assert_current(original_now)
    assert original_now.rtp("main") == Decimal("99.5169") and original_now.figures["auto_play"] == "91.9761"
    assert original_now.copied_from is None and original_now.seconds > 0
    copy_now = ConfigurationOdds.objects.get(pk=copy.pk)
    assert_current(copy_now)
    assert copy_now.copied_from == original_now and copy_now.seconds == 0
    classic = ConfigurationOdds.objects.get(configuration__table__code="CLS1")
    assert_current(classic)
    assert classic.rtp("main") == Decimal("99.3928") and classic.figures["auto_play"] == "84.0095"

    assert configuration_odds_refresh.delay().get() == {"refreshed": [], "left": 0}
    assert ConfigurationOdds.objects.get(pk=original.pk).computed_at == original_now.computed_at


def test_a_new_version_does_not_take_figures_of_an_older_method(django_capture_on_commit_callbacks):
    factories.table("DLX1")
    old = keep_method_1("DLX1")
    with django_capture_on_commit_callbacks(execute=True):
        factories.table("DLX2", game="deluxe")  # the same rules as DLX1

    fresh = ConfigurationOdds.objects.get(configuration__table__code="DLX2")
    assert_current(fresh)
    assert fresh.copied_from is None and fresh.seconds > 0
    assert ConfigurationOdds.objects.get(pk=old.pk).method == 1  # left to its own task or the refresh

    configuration_odds.delay(old.configuration_id).get()  # its own task: now it takes DLX2's
    replaced = ConfigurationOdds.objects.get(pk=old.pk)
    assert_current(replaced)
    assert replaced.copied_from == fresh and replaced.figures == fresh.figures


def test_the_refresh_command_does_it_at_once():
    factories.table("DLX1")
    kept = keep_method_1("DLX1")
    out = StringIO()

    call_command("odds_refresh", stdout=out)

    assert_current(ConfigurationOdds.objects.get(pk=kept.pk))
    printed = out.getvalue()
    assert "1 configuration version(s) to work out." in printed
    assert "DLX1 v1: main 99.5169 %, automatic play 91.9761 % (" in printed
    call_command("odds_refresh", stdout=out)
    assert "0 configuration version(s) to work out." in out.getvalue()


def test_the_page_and_the_api_say_computing_while_figures_are_missing_or_of_an_older_method(client):
    factories.table("DLX1")
    page = page_of(client, "DLX1")
    assert "Computing: the figures of a new version" in page
    assert 'id="strategy-chart"' not in page

    keep_method_1("DLX1")
    page = page_of(client, "DLX1")
    assert "Computing: this version's figures were worked out by an older method" in page
    assert "99.5150" not in page and 'id="strategy-chart"' not in page
    response = client.get(reverse("api:table-configurations", args=["DLX1"]))
    (version,) = response.json()["results"]
    assert version["theoretical"] is None


# --- the table page -----------------------------------------------------------------------------------


@pytest.fixture
def tables_with_figures(django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        factories.table("DLX1")
        factories.table("MPB1")


def test_the_page_shows_the_maximum_beside_automatic_play_and_the_chart(client, tables_with_figures):
    page = squeezed(page_of(client, "DLX1"))

    assert "Main game: maximum RTP" in page and '<div class="rtp-value">99.5169 %</div>' in page
    assert "Best play, composition-dependent" in page and "House edge 0.4831 %" in page
    assert "Automatic play (a player who never acts)" in page
    assert '<div class="rtp-value">91.9761 %</div>' in page and "hit to 12, then stand" in page
    assert "Strategy chart of best play" in page
    for code, action in (("H", "Hit"), ("S", "Stand"), ("D", "Double"), ("P", "Split"), ("R", "Surrender")):
        assert f'<span class="chart-cell chart-{code}">{code}</span> {action}' in page
    # Deluxe surrenders a hard 16 against a 9, and splits aces against an ace.
    assert 'title="hard 16 against 9: surrender">R</td>' in page
    assert 'title="pair A against A: split">P</td>' in page
    assert '<th scope="row">A,A</th>' in page
    assert "strategy table differs" not in page  # Deluxe's automatic play follows no strategy table


def test_the_multiplayer_page_shows_where_its_strategy_table_differs(client, tables_with_figures):
    page = squeezed(page_of(client, "MPB1"))

    assert '<div class="rtp-value">99.1971 %</div>' in page
    assert '<div class="rtp-value">99.1667 %</div>' in page and "play the strategy table" in page
    assert "Where the table's strategy table differs" in page
    rows = re.findall(r'<table class="compact chart-differences">.*?<tbody>(.*?)</tbody>', page)
    assert rows == [
        '<tr><td>pair A</td><td>10</td><td>P <span class="subtle">split</span></td>'
        '<td class="differs">H <span class="subtle">hit</span></td></tr>'
    ]
    assert (
        'title="pair A against 10: split; the strategy table: hit">P<span class="chart-automatic">H' in page
    )


def test_a_card_dependent_cell_is_marked(client):
    factories.table("DLX1")
    configuration = configuration_of("DLX1")
    chart = {
        "columns": ["9", "10"],
        "rows": [{"hand": "hard 16", "best": ["H", "S"], "card_dependent": [False, True]}],
        "differences": [],
    }
    figures = {**METHOD_1_FIGURES, "auto_play": "92.0000", "chart": chart, "method": METHOD_VERSION}
    ConfigurationOdds.objects.create(
        configuration=configuration,
        rules_sha256="x" * 64,
        figures=figures,
        seconds=1.0,
        method=METHOD_VERSION,
    )

    page = squeezed(page_of(client, "DLX1"))

    assert 'title="hard 16 against 9: hit">H</td>' in page
    assert 'title="hard 16 against 10: stand, card-dependent">S<sup>*</sup></td>' in page

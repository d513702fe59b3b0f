"""A configuration version's theoretical RTP: worked out by a Celery task when the version is
committed, kept with it, not worked out again by the same method, and shown on the table page and in
the API. (Figures of an older method: test_odds_method.py.)"""

import time
from datetime import date
from decimal import Decimal

import pytest
from django.db import connections
from django.urls import reverse

from blackjack.odds import METHOD_VERSION, theoretical_odds
from tables.models import ConfigurationOdds, TableConfiguration
from tables.published import published_rtp_enter
from tables.services import configuration_propose
from tables.tasks import configuration_odds
from tests import factories

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("odds_worked_out")]

RICHER_PAIR = {"mixed_pair": 6, "coloured_pair": 10, "perfect_pair": 30, "suited_trips": 50}


@pytest.fixture
def deluxe(django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        return factories.table("DLX1")


def test_a_new_table_gets_its_figures_from_the_task(deluxe):
    kept = ConfigurationOdds.objects.get(configuration__table=deluxe)
    expected = theoretical_odds(kept.configuration.rule_set)
    assert kept.figures["rtp"] == {kind: str(rtp) for kind, rtp in expected.rtp.items()}
    assert set(kept.figures["rtp"]) == {"main", "behind", "insurance", "pair"}
    # A perfect pair pays 30:1 unless the facilitator's first card makes suited trips (50:1).
    assert kept.figures["patterns"]["pair"]["perfect_pair"] == pytest.approx(7 / 415 * 408 / 414)
    assert "best play, composition-dependent" in kept.figures["strategy"]
    assert kept.rtp("main") == expected.rtp["main"] == Decimal("99.5169")
    assert kept.figures["auto_play"] == str(expected.auto_play_rtp) == "91.9761"
    assert kept.figures["chart"] == expected.chart.to_dict()
    assert kept.method == kept.figures["method"] == METHOD_VERSION
    assert kept.copied_from is None


def test_figures_are_never_worked_out_twice_by_one_method(deluxe):
    kept = ConfigurationOdds.objects.get(configuration__table=deluxe)
    again = configuration_odds.delay(kept.configuration_id).get()
    assert again["rtp"] == kept.figures["rtp"]
    assert ConfigurationOdds.objects.count() == 1
    assert ConfigurationOdds.objects.get().computed_at == kept.computed_at


def test_a_changed_paytable_gets_figures_of_its_own(deluxe, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        version = configuration_propose(
            table=deluxe,
            changes={"side_options": {"pair": {"paytable": RICHER_PAIR}}},
            proposed_by=factories.user("supervisor"),
            reason="richer pair",
        )
    first, second = (
        ConfigurationOdds.objects.get(configuration__version=v).figures for v in (1, version.version)
    )
    assert first["rtp"]["main"] == second["rtp"]["main"]  # the main game did not change
    assert Decimal(second["rtp"]["pair"]) > Decimal(first["rtp"]["pair"])
    assert set(second["patterns"]["pair"]) == set(RICHER_PAIR)


def test_a_version_with_the_rules_of_another_takes_its_figures(deluxe, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        other = factories.table("DLX2", game="deluxe")
    copied = ConfigurationOdds.objects.get(configuration__table=other)
    original = ConfigurationOdds.objects.get(configuration__table=deluxe)
    assert copied.copied_from == original and copied.seconds == 0
    assert copied.figures == original.figures


def enter(configuration, kind: str, rtp: str):
    return published_rtp_enter(
        configuration=configuration,
        kind=kind,
        rtp=Decimal(rtp),
        source_document="Deluxe Blackjack rules, edition 4",
        source_url="https://operator.example/deluxe/rules.pdf",
        published_on=date(2026, 11, 1),
        entered_by=factories.user("compliance"),
    )


def test_the_table_page_shows_each_kind_with_its_house_edge(client, deluxe):
    client.force_login(factories.user("compliance"))
    page = client.get(reverse("tables:table_detail", args=["DLX1"])).content.decode()
    kept = ConfigurationOdds.objects.get(configuration__table=deluxe)
    main = kept.rtp("main")
    assert "Theoretical RTP" in page
    assert f"{main} %" in page and f"{100 - main} %" in page
    assert "not entered" in page and "above the game" not in page
    assert "99.51 %" in page  # the sheet states 99.5169 cut to two places, no figure being published
    assert f"{kept.rtp('pair')} %" in page and "1 in 60.2" in page  # perfect pair: 7/415 × 408/414


def test_a_published_figure_is_shown_with_its_source_and_flagged_above_the_game(client, deluxe):
    configuration = TableConfiguration.objects.get(table=deluxe)
    enter(configuration, "main", "99.46")
    client.force_login(factories.user("supervisor"))
    url = reverse("tables:table_detail", args=["DLX1"])
    page = client.get(url).content.decode()
    assert "99.46 %" in page and "Deluxe Blackjack rules, edition 4" in page and "2026-11-01" in page
    assert "above the game" not in page
    enter(configuration, "main", "99.53")  # the later entry is the figure of record
    page = client.get(url).content.decode()
    assert "99.53 %" in page and "above the game's" in page
    assert page.count("99.51 %") == 2  # the sheet's main and play behind: the computed 99.5169, cut


def test_the_api_gives_a_version_its_figures(client, deluxe):
    client.force_login(factories.user("compliance"))
    response = client.get(reverse("api:table-configurations", args=["DLX1"]))
    assert response.status_code == 200, response.content
    (version,) = response.json()["results"]
    figures = ConfigurationOdds.objects.get().figures
    assert version["theoretical"]["rtp"] == figures["rtp"]
    assert version["theoretical"]["auto_play"] == figures["auto_play"] == "91.9761"
    assert version["theoretical"]["chart"] == figures["chart"]
    assert version["theoretical"]["method"] == METHOD_VERSION


@pytest.mark.postgres
@pytest.mark.redis
@pytest.mark.celery_worker
@pytest.mark.django_db(transaction=True)
def test_a_real_worker_works_out_a_new_versions_figures():
    from celery.contrib.testing.worker import start_worker

    from config.celery import app

    assert app.conf.task_always_eager is False
    with start_worker(app, perform_ping_check=False, shutdown_timeout=30):
        table = factories.table("BND1")  # committed: the task goes through the broker
        deadline = time.monotonic() + 180
        while not ConfigurationOdds.objects.filter(configuration__table=table).exists():
            assert time.monotonic() < deadline, "the worker did not keep the figures in 3 minutes"
            time.sleep(0.5)
    kept = ConfigurationOdds.objects.get(configuration__table=table)
    assert kept.figures["rtp"]["main"] == str(theoretical_odds(kept.configuration.rule_set).rtp["main"])
    assert set(kept.figures["patterns"]) == {"pair", "bust_bonus", "lucky_trio", "poker_trio"}
    connections.close_all()

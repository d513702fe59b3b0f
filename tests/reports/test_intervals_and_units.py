"""The statistics fit what they describe: a side option's RTP interval (its few large payouts skew
it) never goes below 0, and each interval names its method; a side option's pattern hits, expected
hits and p-value are counted in one unit, and a low p-value is marked on the page and in the PDF."""

import html
from datetime import UTC, datetime
from decimal import Decimal

import pytest
from django.urls import reverse
from scipy.stats import binomtest

from core.rtp_stats import Z99, RoundMoments, ratio_interval
from reports.daily import figures_fields
from reports.day_rounds import KindGroup, Version
from reports.exposure import pattern_hits
from reports.models import DailyExposure, DailyFigures, ReportRun
from reports.pdf import report_html
from tests import factories

PAIR_ODDS = {"perfect_pair": 0.04343, "coloured_pair": 0.0301, "mixed_pair": 0.0301}


def moments(results: list[tuple[str, str]]) -> RoundMoments:
    total = RoundMoments()
    for wagered, returned in results:
        w, r = Decimal(wagered), Decimal(returned)
        total += RoundMoments(1, w, r, w * w, r * r, w * r)
    return total


def side_option_day(rounds: int, hits: int, pays: str) -> RoundMoments:
    """`rounds` rounds staking 1.00 on a side option, `hits` of which returned `pays`."""
    return moments([("1.00", pays)] * hits + [("1.00", "0.00")] * (rounds - hits))


# --- intervals --------------------------------------------------------------------------------------


def test_a_side_option_with_few_hits_has_an_interval_never_below_zero():
    day = side_option_day(rounds=40, hits=1, pays="26.00")  # one perfect pair at 25 to 1
    assert ratio_interval(day, Z99)[0] < 0  # what the normal approximation gave: a negative RTP
    fields = figures_fields(
        "pair", day, bets=40, players=6, weighted_theoretical=Decimal(40) * Decimal("97.1154")
    )
    assert fields["interval_method"] == "log"
    assert 0 <= fields["ci99_low"] < fields["ci95_low"] < fields["observed_rtp"]
    assert fields["observed_rtp"] < fields["ci95_high"] < fields["ci99_high"]
    # Skewed as the results are: it reaches further above the observed RTP than below it.
    observed = fields["observed_rtp"]
    assert fields["ci99_high"] - observed > observed - fields["ci99_low"]
    assert fields["outside_99"] is False  # 97.1154 lies inside


def test_a_side_option_that_returned_nothing_has_no_interval_rather_than_zero_width():
    fields = figures_fields(
        "lucky_trio", side_option_day(rounds=30, hits=0, pays="0"), bets=30, players=3,
        weighted_theoretical=Decimal(30) * Decimal("94.7219"),
    )  # fmt: skip
    assert (fields["observed_rtp"], fields["ci99_low"], fields["ci99_high"]) == (
        Decimal("0.0000"),
        None,
        None,
    )
    assert fields["outside_99"] is False


def test_the_main_game_keeps_the_normal_approximation_never_below_zero():
    day = moments([("10.00", "20.00"), ("10.00", "0.00"), ("20.00", "40.00"), ("10.00", "10.00")] * 5)
    fields = figures_fields("main", day, bets=20, players=4, weighted_theoretical=None)
    assert fields["interval_method"] == "normal"
    low, high = ratio_interval(day, Z99)
    assert (fields["ci99_low"], fields["ci99_high"]) == (
        low.quantize(Decimal("0.0001")),
        high.quantize(Decimal("0.0001")),
    )
    few = moments([("10.00", "0.00"), ("10.00", "0.00"), ("10.00", "200.00")])
    assert ratio_interval(few, Z99)[0] < 0
    assert figures_fields("main", few, bets=3, players=1, weighted_theoretical=None)["ci99_low"] == 0


def test_rounds_that_all_returned_the_same_share_give_no_interval_rather_than_zero_width():
    both_paid = moments([("5.00", "15.00"), ("12.50", "37.50")])  # two insurance bets, both paid 2 to 1
    fields = figures_fields(
        "insurance", both_paid, bets=2, players=2, weighted_theoretical=Decimal("17.50") * Decimal("92.5301")
    )
    assert fields["observed_rtp"] == Decimal("300.0000")
    assert (fields["ci99_low"], fields["ci99_high"], fields["outside_99"]) == (None, None, False)


# --- pattern hits in one unit ------------------------------------------------------------------------


def version(*, shared_deal: bool) -> Version:
    return Version(
        pk=1,
        number=1,
        valid_from=datetime(2026, 1, 1, tzinfo=UTC),
        rtp={"pair": Decimal("96.6265")},
        patterns={"pair": PAIR_ODDS},
        paytables={"pair": tuple(PAIR_ODDS)},
        top_odds={"pair": Decimal(25)},
        shared_deal=shared_deal,
    )


def group(*, bets: int, rounds: int) -> KindGroup:
    return KindGroup(
        table_id=1,
        configuration_id=1,
        kind="pair",
        bets=bets,
        stakes=Decimal(bets),
        moments=RoundMoments(rounds, Decimal(bets), Decimal(0)),
        largest_round_stakes=Decimal(1),
        largest_round_pk=1,
        after_max_round_bets=0,
        after_max_round_stakes=Decimal(0),
    )


def test_no_hit_against_43_expected_bets_is_a_low_p_value():
    entries = pattern_hits("pair", [group(bets=1000, rounds=400)], {}, {1: version(shared_deal=False)})
    perfect = {entry["pattern"]: entry for entry in entries}["perfect_pair"]
    assert perfect["unit"] == "bet"
    assert (perfect["hits"], perfect["expected"], perfect["trials"]) == (0, 43.43, 1000)
    assert perfect["p_value"] < 1e-15
    assert perfect["p_value"] == pytest.approx(binomtest(0, 1000, 0.04343).pvalue, rel=1e-3)


def test_at_a_shared_deal_hits_expected_and_p_value_all_count_rounds():
    """1,000 bets over 4 rounds of one deal each: the pair is hit in a round or not, by every bet of it
    alike. Hits, the expected number and the p-value are all in rounds: 0 hit against 0.17 expected is
    no surprise (today's report said 0 hits against 43.43 expected, p = 1.0000)."""
    hits = {"mixed_pair": (250, 1)}  # one round of the four dealt a mixed pair: its 250 bets paid
    entries = pattern_hits("pair", [group(bets=1000, rounds=4)], hits, {1: version(shared_deal=True)})
    for entry in entries:
        assert entry["unit"] == "round" and entry["trials"] == 4
        chance = PAIR_ODDS[entry["pattern"]]
        assert entry["expected"] == round(4 * chance, 4)
        assert entry["p_value"] == pytest.approx(binomtest(entry["hits"], 4, chance).pvalue, rel=1e-3)
    by_pattern = {entry["pattern"]: entry for entry in entries}
    assert (by_pattern["perfect_pair"]["hits"], by_pattern["perfect_pair"]["expected"]) == (0, 0.1737)
    assert (by_pattern["mixed_pair"]["hits"], by_pattern["mixed_pair"]["bets_hit"]) == (1, 250)


# --- shown on the page and in the PDF ------------------------------------------------------------------


@pytest.mark.django_db
def test_low_p_values_and_interval_methods_are_shown_on_the_pages_and_in_the_pdf(settings, tmp_path, client):
    settings.PITBOSS_REPORTS_DIR = tmp_path
    ids = factories.report_rows(factories.table("DLX1"), tmp_path)
    DailyFigures.objects.filter(pk=ids["dailyfigures"]).update(ci99_low="0.0000", ci99_high="120.0000")
    main = DailyFigures.objects.get(pk=ids["dailyfigures"])
    same = ("day", "table_id", "table_code", "game", "currency", "run_id")
    DailyFigures.objects.create(
        **{name: getattr(main, name) for name in same},
        kind="pair", rounds=40, bets=40, players=6, wagered=40, returned=26, gross_gaming_revenue=14,
        observed_rtp="65.0000", ci99_low="4.1000", ci99_high="1020.0000", interval_method="log",
    )  # fmt: skip
    DailyExposure.objects.filter(pk=ids["dailyexposure"]).update(
        pattern_hits=[
            {"pattern": "perfect_pair", "hits": 0, "expected": 43.43, "p_value": 8.327e-20, "unit": "bet",
             "trials": 1000},
            {"pattern": "mixed_pair", "hits": 31, "expected": 30.1, "p_value": 0.8512, "unit": "bet",
             "trials": 1000},
        ]
    )  # fmt: skip
    client.force_login(factories.user("compliance"))
    daily = html.unescape(client.get(reverse("reports:daily_report")).content.decode())
    assert "Normal approximation" in daily and "Log-transformed" in daily
    exposure = html.unescape(client.get(reverse("reports:exposure_report")).content.decode())
    rows = [row.split("</tr>")[0] for row in exposure.split("<tr")]
    (perfect,) = [row for row in rows if "Perfect pair" in row]
    assert 'class="has-finding"' in perfect and ">low<" in perfect and "bets of 1000" in perfect
    (mixed,) = [row for row in rows if "Mixed pair" in row]
    assert "has-finding" not in mixed and ">low<" not in mixed

    run = ReportRun.objects.get(pk=ids["reportrun"])
    pdf = report_html(run, "exposure")
    (perfect,) = [row.split("</tr>")[0] for row in pdf.split("<tr") if "<td>Perfect pair" in row]
    assert 'class="flag"' in perfect and "&lt; 0.0001 low" in perfect
    assert "exact binomial test" in pdf
    daily_pdf = report_html(run, "daily_rtp")
    assert (
        "<strong>normal</strong>: Normal approximation" in daily_pdf
        and "<strong>log</strong>: Log-transformed" in daily_pdf
    )
    assert ">log<" in daily_pdf and ">normal<" in daily_pdf

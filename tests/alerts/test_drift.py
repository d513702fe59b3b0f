"""The RTP drift monitor's statistics (alerts.drift): each round's residual worked by hand, Siegmund's ARL
against Brook and Evans's Markov chain, the decision interval against the ARL it was solved for, and the
CUSUM's steps worked by hand."""

import ast
import math
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from alerts import drift
from alerts.drift import (
    HIGH,
    LOW,
    DriftDesign,
    crossed,
    cusum_step,
    decision_interval,
    drift_design,
    false_alert_observations,
    markov_chain_arl,
    one_sided_arl,
    round_residual,
    two_sided_arl,
)
from alerts.monitors import ROUNDS_PER_DAY_AT_MOST, SHIFT_TO_DETECT

# The design the benchmark measures (BENCHMARKS.md, "RTP drift"): a Deluxe table's main bet, σ of a
# round's residual over its own stakes about 0.93, a 2-point shift, three watched kinds (main, pair,
# insurance), the monitor's 2,880 rounds a day, a false alert in 30 days.
DESIGN_ARL = false_alert_observations(30, ROUNDS_PER_DAY_AT_MOST, 3)
DESIGN_K = SHIFT_TO_DETECT["main"] / (2 * 0.93)


def test_a_double_that_wins_is_its_money_beyond_theory_on_the_original_stake():
    """A stake of 10 doubled and won: wagered 20, returned 40. Theory (μ0 = 99.5%) expects a round of
    that stake to lose 0.05, whatever its doubles; it won 20, so 20.05 beyond theory."""
    assert round_residual(staked=10, wagered=20, returned=40, rtp=0.995) == pytest.approx(20.05)
    # Lost, it is 20 short of what it wagered, less the 0.05 theory expects to lose.
    assert round_residual(staked=10, wagered=20, returned=0, rtp=0.995) == pytest.approx(-19.95)


def test_a_split_counts_its_original_stake_once():
    """A stake of 10 split, one hand doubled and won (wagered 20, returned 40), the other lost
    (wagered 10): wagered 30, returned 40, against theory on the stake of 10 alone."""
    assert round_residual(staked=10, wagered=30, returned=40, rtp=0.995) == pytest.approx(10.05)
    # Split and both hands won: wagered 20, returned 40, the same money as the double that won.
    assert round_residual(staked=10, wagered=20, returned=40, rtp=0.995) == pytest.approx(20.05)


# A round of stake 10 by hand: (probability, wagered, returned). Theory per original stake is
# 1 + E[R − W]/10 = 1 + (−4.5 + 4 + 0 + 1.2 − 0.8)/10 = 99%.
HANDS = [
    (0.45, 10, 0),  # lost
    (0.40, 10, 20),  # won
    (0.05, 10, 10),  # pushed
    (0.06, 20, 40),  # doubled and won
    (0.04, 20, 0),  # doubled and lost
]


def test_at_theory_the_residual_averages_0_where_the_ratio_does_not():
    rtp = 1 + sum(p * (returned - wagered) for p, wagered, returned in HANDS) / 10
    assert rtp == pytest.approx(0.99)
    mean = sum(p * round_residual(10, wagered, returned, rtp) for p, wagered, returned in HANDS)
    assert mean == pytest.approx(0, abs=1e-12)
    # The rounds' R/W averages 97%, two points below; ΣR/ΣW is 10.9/11 = 99.09%: neither is theory.
    assert sum(p * returned / wagered for p, wagered, returned in HANDS) == pytest.approx(0.97)
    expected_returned = sum(p * returned for p, _, returned in HANDS)
    expected_wagered = sum(p * wagered for p, wagered, _ in HANDS)
    assert expected_returned / expected_wagered == pytest.approx(10.9 / 11)
    # A hundredth of the rounds moved from a loss to a win: the RTP is 2 points up, and the residual's
    # mean moves by 2 points of the stake, 0.2.
    moved = [(0.44, 10, 0), *HANDS[1:2], (0.01, 10, 20), *HANDS[2:]]
    mean = sum(p * round_residual(10, wagered, returned, rtp) for p, wagered, returned in moved)
    assert mean == pytest.approx(0.02 * 10)


def test_the_markov_chain_gives_the_published_arls():
    """Montgomery's table of the tabular CUSUM at k = ½ (Introduction to Statistical Quality Control):
    in control, two-sided, 168 at h = 4 and 465 at h = 5; after a shift of one σ, 8.38 and 10.4."""
    assert markov_chain_arl(4, 0.5) / 2 == pytest.approx(168, rel=0.005)
    assert markov_chain_arl(5, 0.5) / 2 == pytest.approx(465, rel=0.005)
    assert markov_chain_arl(4, 0.5 - 1) == pytest.approx(8.38, rel=0.005)
    assert markov_chain_arl(5, 0.5 - 1) == pytest.approx(10.4, rel=0.005)


@pytest.mark.parametrize(("h", "k"), [(4, 0.5), (5, 0.5), (8, 0.25), (20, 0.1), (5, -0.5)])
def test_siegmund_is_within_one_percent_of_the_markov_chain_at_textbook_designs(h, k):
    assert one_sided_arl(h, k) == pytest.approx(markov_chain_arl(h, k), rel=0.01)


def test_siegmund_is_within_a_tenth_of_a_percent_of_the_markov_chain_at_the_monitor_design():
    """k about 0.011 and h about 225, in control and once the RTP has moved by the shift (reference
    k − 2k). The chain's error falls as 1/states², so two chains extrapolate it away (Richardson):
    1,000 states alone are 2% short here, and 500 and 1,000 extrapolated still 0.15%."""
    h = decision_interval(DESIGN_K, DESIGN_ARL)
    assert 190 < h < 260
    for k in (DESIGN_K, -DESIGN_K):
        chain = (4 * markov_chain_arl(h, k, 2000) - markov_chain_arl(h, k, 1000)) / 3
        assert one_sided_arl(h, k) == pytest.approx(chain, rel=0.001)


def test_the_markov_chain_converges_as_its_states_grow():
    coarse, fine, finer = (markov_chain_arl(60, 0.03, states) for states in (100, 200, 400))
    assert coarse < fine < finer
    assert (finer - fine) == pytest.approx((fine - coarse) / 4, rel=0.1)  # error ∝ 1/states²


@pytest.mark.parametrize("k", [0.0, 0.001, 0.0123, 0.1, 0.5, 1.0])
@pytest.mark.parametrize("arl", [50.0, 1_000.0, 172_800.0, 1e7])
def test_the_decision_interval_gives_the_arl_it_was_solved_for(k, arl):
    h = decision_interval(k, arl)
    assert h > 0
    assert two_sided_arl(h, k) == pytest.approx(arl, rel=1e-9)
    assert two_sided_arl(h, k) >= arl  # never below: the bisection keeps the upper end
    assert decision_interval(k, arl * 2) > h


def test_at_k_zero_the_arl_is_b_squared_and_nearby_k_agree():
    assert one_sided_arl(10, 0) == pytest.approx(11.166**2)
    assert decision_interval(0, 800) == pytest.approx(math.sqrt(1600) - 1.166)
    # On both sides of where the series takes over from the closed form.
    below, above = (one_sided_arl(10, x / (2 * 11.166)) for x in (0.99e-4, 1.01e-4))
    assert below == pytest.approx(above, rel=1e-5)


def test_the_two_sides_share_the_false_alerts():
    assert two_sided_arl(7, 0.25) == pytest.approx(1 / (1 / one_sided_arl(7, 0.25) * 2))


def test_too_few_observations_for_a_cusum_are_refused():
    with pytest.raises(ValueError):
        decision_interval(0.5, 1.0)
    with pytest.raises(ValueError):
        decision_interval(-0.1, 1000)
    with pytest.raises(ValueError):
        drift_design(0, 0.8, 1000)


def test_a_tables_false_alerts_are_shared_by_its_kinds():
    assert false_alert_observations(30, 1440, 4) == 172_800


def test_the_design():
    design = drift_design(0.02, 0.8, DESIGN_ARL)
    assert design.k == pytest.approx(0.0125)
    assert design.h == decision_interval(design.k, DESIGN_ARL)
    assert design.in_control_arl == pytest.approx(DESIGN_ARL)
    # The shift itself: the high side's drift is +k, the mirror image of the in-control drift −k.
    assert design.detection_arl(0.02) == pytest.approx(one_sided_arl(design.h, -0.0125))
    assert design.detection_arl(-0.02) == design.detection_arl(0.02)
    assert design.detection_arl(0.02) < DESIGN_ARL / 10
    # A round's residual of 2 on its original stakes of 10: 0.2 of a stake, over σ.
    assert design.score(residual=2.0, staked=10.0) == pytest.approx(0.2 / 0.8)


def mean_score(design: DriftDesign, hands, rtp: float) -> float:
    """y's mean over `hands` (per a stake of 10) played on a stake of 10 in three rounds of four and of
    50 in the fourth, the same play at both."""
    return sum(
        share
        * p
        * design.score(round_residual(stake, wagered * stake / 10, returned * stake / 10, rtp), stake)
        for stake, share in ((10, 0.75), (50, 0.25))
        for p, wagered, returned in hands
    )


def test_a_round_scores_its_residual_over_its_own_stakes():
    """The double that wins (20.05 beyond theory on a stake of 10) at σ = 0.93: y = 2.005/0.93. The
    same play on a stake of 50 is five times the money and the same y: a round weighs by how it
    ended, not by what was staked on it."""
    design = DriftDesign(shift=0.02, sigma=0.93, k=0.02 / (2 * 0.93), h=225.0)
    small = design.score(round_residual(staked=10, wagered=20, returned=40, rtp=0.995), staked=10)
    large = design.score(round_residual(staked=50, wagered=100, returned=200, rtp=0.995), staked=50)
    assert small == pytest.approx(2.005 / 0.93)
    assert large == pytest.approx(small)
    # At theory y's mean is 0 whatever the stakes, when play does not depend on them.
    mean = mean_score(design, HANDS, rtp=0.99)
    assert mean == pytest.approx(0, abs=1e-12)
    # The RTP 2 points up (a hundredth of the rounds from a loss to a win) moves y's mean by 0.02/σ, k's
    # double, at any stake.
    moved = [(0.44, 10, 0), *HANDS[1:2], (0.01, 10, 20), *HANDS[2:]]
    mean = mean_score(design, moved, rtp=0.99)
    assert mean == pytest.approx(0.02 / 0.93) == pytest.approx(2 * design.k)


def test_a_sequence_of_steps_worked_by_hand():
    """k = ½: each y adds y − ½ to the high side and −y − ½ to the low one, neither below 0."""
    ys = [1.0, 2.0, -0.5, -3.0, 0.25, -1.0]
    expected = [(0.5, 0.0), (2.0, 0.0), (1.0, 0.0), (0.0, 2.5), (0.0, 1.75), (0.0, 2.25)]
    high = low = 0.0
    for y, sides in zip(ys, expected, strict=True):
        high, low = cusum_step(high, low, y, 0.5)
        assert (high, low) == sides


def test_the_side_that_exceeds_h_alerts_and_restarts_alone():
    """The same sequence with h = 1.9: the high side alerts at the second y, the low at the fourth."""
    design = DriftDesign(shift=1.0, sigma=1.0, k=0.5, h=1.9)
    ys = [1.0, 2.0, -0.5, -3.0, 0.25, -1.0]
    expected = [(0.5, 0.0, None), (0.0, 0.0, HIGH), (0.0, 0.0, None), (0.0, 0.0, LOW)]
    expected += [(0.0, 0.0, None), (0.0, 0.5, None)]
    high = low = 0.0
    for y, step in zip(ys, expected, strict=True):
        high, low, side = design.step(high, low, y)
        assert (high, low, side) == step
    assert crossed(2.0, 0.0, 2.0) is None  # exceeds: equal is not enough
    assert crossed(0.0, 2.5, 2.0) == LOW


@given(
    st.lists(st.floats(min_value=-1e6, max_value=1e6), max_size=60),
    st.floats(min_value=0, max_value=10),
)
def test_the_sides_are_never_negative(ys, k):
    high = low = 0.0
    for y in ys:
        high, low = cusum_step(high, low, y, k)
        assert high >= 0 and low >= 0


@given(
    st.floats(min_value=0, max_value=5),
    st.floats(min_value=0, max_value=1),
    st.floats(min_value=0, max_value=50),
    st.integers(min_value=1, max_value=300),
)
def test_a_constant_y_below_k_never_alerts_high(k, below, h, rounds):
    """y = k − below, at or under k: the high side stays 0; with |y| ≤ k the low side does too."""
    design = DriftDesign(shift=1.0, sigma=1.0, k=k, h=h)
    y = k - below
    high = low = 0.0
    for _ in range(rounds):
        high, low, side = design.step(high, low, y)
        assert high == 0 and side != HIGH
        if abs(y) <= k:
            assert low == 0 and side is None


def test_the_module_imports_nothing_but_math_and_dataclasses():
    """The monitor imports it on every run: no Django, no numpy or scipy."""
    tree = ast.parse(Path(drift.__file__).read_text())
    imported = {alias.name for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names}
    imported |= {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
    assert imported == {"math", "dataclasses"}

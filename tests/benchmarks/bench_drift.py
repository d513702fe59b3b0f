"""RTP drift (issue 49): the drift monitor's false alerts at the theoretical RTP, and how long it takes
to catch a ten-rich shoe, with the project's simulator (alerts.drift; BENCHMARKS.md, "RTP drift").

(a) A pool of in-control rounds at a Deluxe table (the preset, 12 players on up to 7 seats, whole
    shoes in order): each round's return ratio R/W per bet kind, every bet of the kind pooled. σ is
    the pool's; the ratios are re-centred on the kind's theoretical RTP μ0 (the figures Pitboss ships
    for the preset), since the simulated players slip and the pool's mean is below theory. The
    uncentred pool's figures are printed as well: its mean, its ΣR/ΣW and its return per original
    stake (what theory is stated in), and the false alerts it would raise.
(b) False alerts: the design of alerts.drift (a 2-point shift of the main bet to detect, one false
    alert per table in 30 days shared by the table's four kinds, 1,440 rounds a day), run on one
    table's rounds resampled from the centred pool, with numpy, for a year in 30-day windows: the
    first from a CUSUM at 0 (fewer alerts: it must climb to h first), the others the long run, the
    rate the design promises. Rounds drawn independently (the design's assumption), and whole shoes
    drawn with their rounds in order (the shoe's own correlation kept). The main bet's alerts, then
    the table's: each of its kinds at its own σ and shift (side options 5 points), rounds without that
    kind's bet making no observation.
(c) Detection: a pool of ten-rich shoes (one each of 3, 4, 5 and 6 out of every deck: a third of the
    cards ten-valued, where the full shoe holds 30.8%), its measured shift of the main bet's RTP, and
    the rounds until the high side alerts, on one table dealing such shoes from a CUSUM at 0 (whole
    shoes drawn from that pool, centred as the in-control one): median and 90th percentile.

numpy is used here only: alerts.drift is plain Python.
"""

from dataclasses import dataclass
from datetime import UTC, datetime

import numpy as np

from alerts.drift import DriftDesign, drift_design, false_alert_observations, one_sided_arl
from blackjack.rules import preset
from blackjack.simulate import simulate

from .support import sized

GAME, TABLE, PLAYERS = "deluxe", "DLX1", 12
START = datetime(2026, 11, 1, 8, tzinfo=UTC)
TEN_RICH = {"3": 1, "4": 1, "5": 1, "6": 1}
SHIFTS = {"main": 0.02, "behind": 0.02, "insurance": 0.02, "pair": 0.05}  # of RTP, as a fraction
DAYS, ROUNDS_PER_DAY = 30, 1440
SHOES = sized(10_000, 20)  # each pool: about 24 rounds a shoe
# False alerts: runs of WINDOWS windows of WINDOW_DAYS, the first from a CUSUM at 0, the others the
# long run (a CUSUM that has run for a month: the rate the design promises).
RUNS = sized(2_000, 30)
WINDOWS = sized(12, 2)
WINDOW_DAYS = sized(DAYS, 1)
DELAY_RUNS = sized(4_000, 30)
DELAY_CAP_DAYS = sized(365, 5)


@dataclass
class Pool:
    """One bet kind's rounds in the order the simulated shoes dealt them (a round without the kind's bet
    left out): what the kind wagered, returned and staked in each (the original stakes: doubles and
    splits left out), and where each shoe's rounds begin. Each figure comes with its standard error,
    shoes as clusters (the rounds of a shoe are not independent)."""

    wagered: np.ndarray
    returned: np.ndarray
    staked: np.ndarray
    starts: np.ndarray
    rounds: int  # every round dealt, with the kind's bet or not

    def __post_init__(self):
        self.ratios = self.returned / self.wagered

    @property
    def share(self) -> float:
        return len(self.ratios) / self.rounds

    @property
    def lengths(self) -> np.ndarray:
        return np.diff(np.append(self.starts, len(self.ratios)))

    def _spread(self, residuals: np.ndarray) -> float:
        return float(np.sqrt((np.add.reduceat(residuals, self.starts) ** 2).sum()))

    def mean_ratio(self) -> tuple[float, float]:
        """The mean of the rounds' R/W: what the CUSUM's y averages."""
        mean = float(self.ratios.mean())
        return mean, self._spread(self.ratios - mean) / len(self.ratios)

    def pooled_ratio(self) -> tuple[float, float]:
        """ΣR/ΣW, as the reports and the floor give an observed RTP."""
        ratio = float(self.returned.sum() / self.wagered.sum())
        return ratio, self._spread(self.returned - ratio * self.wagered) / float(self.wagered.sum())

    def per_stake(self) -> tuple[float, float]:
        """1 + Σ(R − W)/ΣS, the return per original stake: what theory states."""
        gain = float((self.returned - self.wagered).sum() / self.staked.sum())
        residuals = self.returned - self.wagered - gain * self.staked
        return 1 + gain, self._spread(residuals) / float(self.staked.sum())


def simulated_pools(shoes: int, seed: int, removed_per_deck=None) -> dict[str, Pool]:
    amounts: dict[str, list[tuple[float, float, float]]] = {}  # kind -> (W, R, S) a round
    shoe_numbers: dict[str, list[int]] = {}  # of each of those rounds
    rounds, shoe, number = 0, None, 0
    documents = simulate(
        preset(GAME),
        table=TABLE,
        shoes=shoes,
        players=PLAYERS,
        seed=seed,
        start=START,
        removed_per_deck=removed_per_deck,
    )
    for document in documents:
        rounds += 1
        if document["shoe"] != shoe:
            shoe, number = document["shoe"], number + 1
        sums: dict[str, list[float]] = {}
        for bet in document["bets"]:
            kind_sums = sums.setdefault(bet["kind"], [0.0, 0.0, 0.0])
            kind_sums[0] += float(bet["wagered"])
            kind_sums[1] += float(bet["returned"])
            kind_sums[2] += float(bet["stake"])
        for kind, kind_sums in sums.items():
            if kind_sums[0] > 0:
                amounts.setdefault(kind, []).append(tuple(kind_sums))
                shoe_numbers.setdefault(kind, []).append(number)
    pools = {}
    for kind, rows in amounts.items():
        wagered, returned, staked = np.array(rows).T
        starts = np.flatnonzero(np.diff(shoe_numbers[kind], prepend=-1))
        pools[kind] = Pool(wagered, returned, staked, starts, rounds)
    return pools


def theoretical_rtps() -> dict[str, float]:
    """The preset's theoretical RTP of each bet kind, as a fraction: the figures Pitboss ships."""
    import django

    django.setup()
    from tables.known_odds import known_figures
    from tables.odds import rule_set_digest

    figures = known_figures(rule_set_digest(preset(GAME)))
    if figures is None:
        raise SystemExit("tables/known_odds.json has no figures of this engine: run manage.py odds_known")
    return {kind: float(rtp) / 100 for kind, rtp in figures["rtp"].items()}


class Streams:
    """`runs` streams of one table's observations drawn from a pool with replacement: whole blocks (shoes)
    at random, each block's observations in order; blocks of one draw observations independently."""

    def __init__(self, scores: np.ndarray, starts: np.ndarray, lengths: np.ndarray, runs: int, rng):
        self.scores, self.starts, self.ends, self.rng = scores, starts, starts + lengths, rng
        first = rng.integers(len(starts), size=runs)
        self.position, self.end = starts[first].copy(), self.ends[first].copy()

    @classmethod
    def of(cls, pool: Pool, scores: np.ndarray, runs: int, rng, *, shoes: bool) -> "Streams":
        if shoes:
            return cls(scores, pool.starts, pool.lengths, runs, rng)
        return cls(scores, np.arange(len(scores)), np.ones(len(scores), dtype=np.int64), runs, rng)

    def next(self) -> np.ndarray:
        y = self.scores[self.position]
        self.position += 1
        ended = self.position == self.end
        count = np.count_nonzero(ended)
        if count:
            blocks = self.rng.integers(len(self.starts), size=count)
            self.position[ended] = self.starts[blocks]
            self.end[ended] = self.ends[blocks]
        return y

    def keep(self, mask: np.ndarray) -> None:
        self.position, self.end = self.position[mask], self.end[mask]


def cusum_steps(high: np.ndarray, low: np.ndarray, y: np.ndarray, design: DriftDesign) -> None:
    """alerts.drift.cusum_step on every run at once, in place."""
    high += y - design.k
    np.maximum(high, 0, out=high)
    low -= y + design.k
    np.maximum(low, 0, out=low)


@dataclass
class Alerts:
    """The alerts of each run's high and low side in each of its windows (runs × windows)."""

    high: np.ndarray
    low: np.ndarray

    def long_run(self, side: np.ndarray | None = None) -> tuple[float, float]:
        """Alerts in 30 days after the first window, over the runs: the mean and its 95% half-width."""
        alerts = self.high + self.low if side is None else side
        per_run = alerts[:, 1:].mean(axis=1) * DAYS / WINDOW_DAYS
        return float(per_run.mean()), float(1.96 * per_run.std(ddof=1) / np.sqrt(len(per_run)))

    def first_window(self) -> float:
        return float((self.high + self.low)[:, 0].mean() * DAYS / WINDOW_DAYS)


def false_alerts(streams: Streams, design: DriftDesign, steps: int) -> Alerts:
    """Each run's alerts of either side in each window of `steps` observations, a side restarting at 0
    after its alert (alerts.drift's step, on every run at once)."""
    runs = len(streams.position)
    high, low = np.zeros(runs), np.zeros(runs)
    counts = Alerts(np.zeros((runs, WINDOWS), dtype=np.int64), np.zeros((runs, WINDOWS), dtype=np.int64))
    for window in range(WINDOWS):
        for _ in range(steps):
            cusum_steps(high, low, streams.next(), design)
            for side, alerts in ((high, counts.high), (low, counts.low)):
                over = side > design.h
                if over.any():
                    alerts[:, window] += over
                    side[over] = 0
    return counts


def detection_delays(streams: Streams, design: DriftDesign, cap: int) -> np.ndarray:
    """Each run's observations until its high side alerts (inf: not within `cap`); the low side's alerts
    meanwhile restart it and are not counted."""
    delays = np.full(len(streams.position), np.inf)
    running = np.arange(len(delays))
    high, low = np.zeros(len(delays)), np.zeros(len(delays))
    for step in range(1, cap + 1):
        cusum_steps(high, low, streams.next(), design)
        low[low > design.h] = 0
        alerted = high > design.h
        if alerted.any():
            delays[running[alerted]] = step
            left = ~alerted
            running, high, low = running[left], high[left], low[left]
            streams.keep(left)
            if not len(running):
                break
    return delays


def days_of(rounds: float) -> str:
    return f"{rounds:,.0f} rounds ({rounds / ROUNDS_PER_DAY:.1f} days)"


def in_control(pool: Pool, rtp: float) -> tuple[float, float]:
    """(a): σ and the mean of the main bet's ratios, with what the uncentred pool says."""
    sigma = float(pool.ratios.std(ddof=1))
    (mean, mean_error), (pooled, pooled_error) = pool.mean_ratio(), pool.pooled_ratio()
    per_stake, per_stake_error = pool.per_stake()
    print(
        f"   (a) {SHOES:,} Deluxe shoes in control, {pool.rounds:,} rounds ({PLAYERS} players, up to 7 "
        f"seats); main bet, μ0 {rtp:.4%}: σ of a round's R/W {sigma:.4f}"
    )
    print(
        f"       uncentred (± a 95% interval): mean of the rounds' R/W {mean:.2%} ± {1.96 * mean_error:.2%}, "
        f"ΣR/ΣW {pooled:.2%} ± {1.96 * pooled_error:.2%}, per original stake {per_stake:.2%} ± "
        f"{1.96 * per_stake_error:.2%}"
    )
    print(
        f"       the slips: {per_stake - rtp:+.2%} per original stake against μ0; the mean of the rounds' "
        f"R/W: {mean - pooled:+.2%} against ΣR/ΣW (a double or a split counts once in its round's ratio, "
        "not by what it wagered)"
    )
    return sigma, mean


def false_alert_figures(pools: dict[str, Pool], design: DriftDesign, arl: float, rtp: float, rng) -> None:
    """(b): the main bet's false alerts, rounds drawn and shoes drawn; the table's, every kind; the main
    bet's uncentred."""
    main_pool = pools["main"]
    mean = float(main_pool.ratios.mean())
    steps = WINDOW_DAYS * ROUNDS_PER_DAY
    centred = (main_pool.ratios - mean) / design.sigma
    designed = DAYS * ROUNDS_PER_DAY / design.in_control_arl
    print(
        f"   (b) false alerts at one table: {RUNS:,} runs of {WINDOWS} windows of {days_of(steps)}; the "
        "first window from a CUSUM at 0, the others the long run (± a 95% interval)"
    )
    for label, shoes in (("rounds drawn independently", False), ("whole shoes drawn", True)):
        alerts = false_alerts(Streams.of(main_pool, centred, RUNS, rng, shoes=shoes), design, steps)
        rate, spread = alerts.long_run()
        print(
            f"       main bet, {label}: {rate:.3f} ± {spread:.3f} in {DAYS} days (design {designed:.3f}; "
            f"high {alerts.long_run(alerts.high)[0]:.3f}, low {alerts.long_run(alerts.low)[0]:.3f}); "
            f"the first window {alerts.first_window():.3f}"
        )
    table_rate = table_variance = table_first = 0.0
    parts = []
    for kind, pool in sorted(pools.items()):
        kind_sigma = float(pool.ratios.std(ddof=1))
        kind_design = drift_design(SHIFTS[kind], kind_sigma, arl)
        if kind == "main":
            kind_alerts = alerts  # whole shoes drawn, just above
        else:
            scores = (pool.ratios - pool.ratios.mean()) / kind_sigma
            streams = Streams.of(pool, scores, RUNS, rng, shoes=True)
            kind_alerts = false_alerts(streams, kind_design, round(steps * pool.share))
        rate, spread = kind_alerts.long_run()
        table_rate, table_variance = table_rate + rate, table_variance + spread**2
        table_first += kind_alerts.first_window()
        parts.append(
            f"{kind} {rate:.3f} (σ {kind_sigma:.2f}, shift {kind_design.shift:.0%}, k {kind_design.k:.4f}, "
            f"h {kind_design.h:.1f}, {pool.share:.0%} of rounds)"
        )
    print(
        f"       the table, whole shoes, each kind at its own σ and shift: {table_rate:.3f} ± "
        f"{np.sqrt(table_variance):.3f} in {DAYS} days (design ≤ 1); the first window {table_first:.3f}"
    )
    print("          " + "; ".join(parts))
    raw = (main_pool.ratios - rtp) / design.sigma
    alerts = false_alerts(Streams.of(main_pool, raw, RUNS, rng, shoes=True), design, steps)
    low_arl = one_sided_arl(design.h, design.k - (rtp - mean) / design.sigma)
    print(
        f"       main bet uncentred (these players' R/W against μ0, whole shoes): high "
        f"{alerts.long_run(alerts.high)[0]:.2f}, low {alerts.long_run(alerts.low)[0]:.2f} in {DAYS} days "
        f"(Siegmund, low side: one every {days_of(low_arl)})"
    )


def detection(ten_rich: Pool, in_control_pool: Pool, design: DriftDesign, rtp: float, rng) -> None:
    """(c): the ten-rich shoe's shift, and the delay until the high side alerts."""
    (mean, mean_error), (ten_rich_mean, ten_rich_error) = in_control_pool.mean_ratio(), ten_rich.mean_ratio()
    shift, shift_error = ten_rich_mean - mean, 1.96 * np.hypot(ten_rich_error, mean_error)
    pooled_shift = ten_rich.pooled_ratio()[0] - in_control_pool.pooled_ratio()[0]
    print(
        f"   (c) {SHOES:,} ten-rich shoes (one each of 3, 4, 5, 6 out of every deck), {ten_rich.rounds:,} "
        f"rounds: the main bet's mean R/W {shift:+.2%} ± {shift_error:.2%} (ΣR/ΣW {pooled_shift:+.2%}) "
        "against the in-control pool's"
    )
    cap = DELAY_CAP_DAYS * ROUNDS_PER_DAY
    shifted = (ten_rich.ratios - mean) / design.sigma  # centred as the in-control pool: theory + the shift
    for label, shoes in (("whole ten-rich shoes drawn", True), ("rounds drawn independently", False)):
        delays = detection_delays(Streams.of(ten_rich, shifted, DELAY_RUNS, rng, shoes=shoes), design, cap)
        median, p90 = np.quantile(delays, [0.5, 0.9], method="inverted_cdf")
        missed = np.count_nonzero(np.isinf(delays))
        average = (
            f"mean {days_of(delays.mean())}" if not missed else f"{missed} not within {DELAY_CAP_DAYS} days"
        )
        print(
            f"       delay to the high side's alert, {label} ({DELAY_RUNS:,} runs): median "
            f"{days_of(median)}, 90th percentile {days_of(p90)}, {average}"
        )
    print(f"       Siegmund at the measured shift, from 0: {days_of(design.detection_arl(shift))} on average")
    raw_shift = ten_rich_mean - rtp
    raw_delay = one_sided_arl(design.h, design.k - raw_shift / design.sigma)
    print(
        f"       uncentred, these players' ten-rich R/W against μ0 ({raw_shift:+.2%}): Siegmund's delay "
        f"{days_of(raw_delay)}"
    )


def main():
    rng = np.random.default_rng(49)
    theory = theoretical_rtps()
    pools = simulated_pools(SHOES, seed=1)
    ten_rich = simulated_pools(SHOES, seed=2, removed_per_deck=TEN_RICH)["main"]
    sigma, _ = in_control(pools["main"], theory["main"])
    arl = false_alert_observations(DAYS, ROUNDS_PER_DAY, len(theory))
    design = drift_design(SHIFTS["main"], sigma, arl)
    print(
        f"   design: shift {design.shift:.0%}, σ {sigma:.4f}, k {design.k:.5f}, h {design.h:.2f}; "
        f"{ROUNDS_PER_DAY:,} rounds a day, {len(theory)} kinds: ARL {arl:,.0f} rounds a kind (≤ 1 false "
        f"alert a table in {DAYS} days, {1 / len(theory):.2f} a kind); Siegmund's delay at the shift, "
        f"from 0: {days_of(design.detection_arl(design.shift))} on average"
    )
    false_alert_figures(pools, design, arl, theory["main"], rng)
    detection(ten_rich, pools["main"], design, theory["main"], rng)


if __name__ == "__main__":
    main()

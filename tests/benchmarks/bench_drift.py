"""RTP drift (issue 49): the drift monitor's false alerts at the theoretical RTP, and how long it takes
to catch a ten-rich shoe, on the statistic and the design the monitor runs (alerts.drift,
alerts.monitors), with the project's simulator (BENCHMARKS.md, "RTP drift").

(a) The pools: the rounds of a Deluxe table (the preset, 12 players on up to 7 seats, whole shoes in
    order), per bet kind as drift_check reads them: a round's original stakes S, wagered W and
    returned R over all the kind's bets, a round without the kind's bet left out, and the kinds in
    alerts.monitors.NOT_WATCHED (the bets behind) left out too, as drift_check does (one line says why,
    with their measured return). Each round's residual e = alerts.drift.round_residual(S, W, R, μ0), μ0
    the kind's theoretical RTP as Pitboss ships it for the preset; σ as drift_add learns it, the root
    mean square of e/S (about 0, not about the pool's mean), here from the whole pool (what a table's
    estimate settles to); y = DriftDesign.score(e, S) = e/(S·σ). The statistic needs no re-centring:
    theory is stated per original stake, so e/S's mean is 0 at theory whatever the doubles and splits
    (when play does not depend on the stake). Each kind's mean of e/S (y's mean, in points a stake) and
    its Σe/ΣS (the money) are printed with their standard errors (shoes as clusters): what the simulated
    players' slips and chance leave, and what that does to the false alerts (Siegmund at the pool's
    mean). σ as a table learns it from its first learning_rounds(kind) rounds: tables' first rounds
    drawn as whole shoes from the pool, and the 5th, 50th and 95th percentiles of that σ against the
    pool's, with what Siegmund says such a σ does to the false alerts while it stays so. For the main
    bet, for comparison, the statistics before: the rounds' R/W against μ0, and e/S̄'s σ.
(b) False alerts: each watched kind's CUSUM as drift_add designs it (alerts.monitors: SHIFT_TO_DETECT,
    one false alert a table in the threshold's default 30 days shared by the table's watched kinds, at
    ROUNDS_PER_DAY_AT_MOST rounds a day), on one table's rounds resampled from its pool with numpy:
    runs of windows of 30 days at ROUNDS_PER_DAY_AT_MOST rounds a day (a kind observes only the rounds
    with its bet), the first from a CUSUM at 0, the others the long run. Whole shoes drawn with their
    rounds in order (a shoe's own correlation kept); the main bet also with its rounds drawn
    independently (the design's assumption). Twice: at theory, each pool moved to μ0 (each round's
    return less mean(e/S)·S, so that y's mean is 0: a pool's chance alone needs it, the pair's standard
    error being about half its k), what the design promises; and as simulated, the monitor's y as it
    comes. The budget is in rounds: a table dealing fewer rounds a day deals a window's rounds in more
    days, so at 1,440 a day (a Deluxe table, one a minute) its long-run false alerts in 30 days are
    exactly half those at ROUNDS_PER_DAY_AT_MOST; both are printed.
(c) Detection: a pool of ten-rich shoes (one each of 3, 4, 5 and 6 out of every deck: a third of the
    cards ten-valued, where the full shoe holds 30.8%) scored with the in-control pool's σ (what the
    table had learnt before), as simulated: the main bet's measured shift per stake against μ0, and the
    rounds until its high side alerts, from a CUSUM at 0, whole ten-rich shoes drawn: median, 90th
    percentile and mean, in rounds and in days at 1,440 rounds a day, against Siegmund at y's mean.

numpy is used here only: alerts.drift is plain Python.
"""

from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime

import numpy as np

from alerts.drift import DriftDesign, drift_design, false_alert_observations, one_sided_arl, round_residual
from blackjack.rules import preset
from blackjack.simulate import simulate

from .support import sized

GAME, TABLE, PLAYERS = "deluxe", "DLX1", 12
START = datetime(2026, 11, 1, 8, tzinfo=UTC)
TEN_RICH = {"3": 1, "4": 1, "5": 1, "6": 1}
DELUXE_ROUNDS_PER_DAY = 1440  # what a Deluxe table deals: one round a minute
SHOES = sized(10_000, 20)  # each pool: about 24 rounds a shoe
# False alerts: RUNS runs of WINDOWS windows of WINDOW_DAYS at the monitor's rounds a day, the first
# from a CUSUM at 0, the others the long run (the rate the design promises).
RUNS = sized(4_000, 30)
WINDOWS = sized(8, 2)
WINDOW_DAYS = sized(30, 1)
DELAY_RUNS = sized(4_000, 30)
DELAY_CAP_DAYS = sized(365, 5)  # at DELUXE_ROUNDS_PER_DAY
LEARNING_TABLES = sized(4_000, 30)  # tables whose first rounds teach them σ


@dataclass(frozen=True)
class Monitor:
    """What the monitor is designed with: alerts.monitors' constants, the threshold's default, and the
    preset's theoretical RTPs (the figures Pitboss ships)."""

    days: int  # between false alerts a table
    rounds_per_day: int  # the false-alert budget's rounds a day
    learning_rounds: dict[str, int]
    learning: Callable[[str], int]
    shifts: dict[str, float]
    shift: Callable[[str], float]
    not_watched: frozenset[str]
    rtps: dict[str, float]

    def design(self, kind: str, sigma: float, kinds: int) -> DriftDesign:
        """drift_add's design of a kind at a table of `kinds` watched kinds."""
        return drift_design(
            self.shift(kind), sigma, false_alert_observations(self.days, self.rounds_per_day, kinds)
        )


def the_monitor() -> Monitor:
    import django

    django.setup()
    from alerts.choices import Monitor as Monitors
    from alerts.definitions import DEFINITIONS
    from alerts.monitors import (
        LEARNING_ROUNDS,
        NOT_WATCHED,
        ROUNDS_PER_DAY_AT_MOST,
        SHIFT_TO_DETECT,
        learning_rounds,
        shift_to_detect,
    )
    from tables.known_odds import known_figures
    from tables.odds import rule_set_digest

    figures = known_figures(rule_set_digest(preset(GAME)))
    if figures is None:
        raise SystemExit("tables/known_odds.json has no figures of this engine: run manage.py odds_known")
    return Monitor(
        days=int(DEFINITIONS[Monitors.RTP_DRIFT].default),
        rounds_per_day=ROUNDS_PER_DAY_AT_MOST,
        learning_rounds=dict(LEARNING_ROUNDS),
        learning=learning_rounds,
        shifts=dict(SHIFT_TO_DETECT),
        shift=shift_to_detect,
        not_watched=frozenset(NOT_WATCHED),
        rtps={kind: float(rtp) / 100 for kind, rtp in figures["rtp"].items()},
    )


@dataclass
class Pool:
    """One bet kind's rounds in the order the simulated shoes dealt them (a round without the kind's bet
    left out): what the kind staked (original stakes), wagered and returned in each, its residual
    against μ0, and where each shoe's rounds begin."""

    staked: np.ndarray
    wagered: np.ndarray
    returned: np.ndarray
    starts: np.ndarray
    rounds: int  # every round dealt, with the kind's bet or not
    rtp: float

    def __post_init__(self):
        self.residuals = round_residual(self.staked, self.wagered, self.returned, self.rtp)
        self.per_round = self.residuals / self.staked  # e/S: what the CUSUM standardises

    @property
    def share(self) -> float:
        return len(self.staked) / self.rounds

    @property
    def lengths(self) -> np.ndarray:
        return np.diff(np.append(self.starts, len(self.staked)))

    @property
    def mean_stake(self) -> float:
        return float(self.staked.mean())

    @property
    def sigma(self) -> float:
        """drift_add's σ: the root mean square of e/S, about 0 (theory), not about the pool's mean."""
        return float(np.sqrt((self.per_round**2).mean()))

    def scores(self, design: DriftDesign) -> np.ndarray:
        """Each round's y, as drift_add scores it."""
        return design.score(self.residuals, self.staked)

    def _spread(self, values: np.ndarray) -> float:
        """The standard deviation of the sum of `values`, shoes as clusters (a shoe's rounds are not
        independent)."""
        return float(np.sqrt((np.add.reduceat(values, self.starts) ** 2).sum()))

    def per_stake(self) -> tuple[float, float]:
        """Σe/ΣS, the money returned per original stake beyond μ0, and its standard error."""
        total = float(self.staked.sum())
        mean = float(self.residuals.sum()) / total
        return mean, self._spread(self.residuals - mean * self.staked) / total

    def per_round_mean(self) -> tuple[float, float]:
        """The mean of e/S (σ times y's mean), and its standard error."""
        mean = float(self.per_round.mean())
        return mean, self._spread(self.per_round - mean) / len(self.per_round)

    def at_theory(self) -> "Pool":
        """The pool moved to μ0: each round's return less mean(e/S)·S, so that y's mean is 0."""
        mean = self.per_round_mean()[0]
        return Pool(
            self.staked, self.wagered, self.returned - mean * self.staked, self.starts, self.rounds, self.rtp
        )

    def ratio_bias(self) -> float:
        """The mean of the rounds' R/W against μ0: the monitor's first statistic."""
        return float((self.returned / self.wagered).mean()) - self.rtp

    def mean_stake_sigma(self) -> float:
        """The σ of e/S̄, the monitor's second statistic."""
        return float(np.sqrt((self.residuals**2).mean())) / self.mean_stake

    def learnt_sigmas(self, rounds: int, tables: int, rng) -> np.ndarray:
        """drift_add's σ after a table's first `rounds` rounds, over `tables` tables whose rounds are
        whole shoes drawn from the pool, against the pool's σ."""
        streams = Streams.of(self, self.per_round**2, tables, rng, shoes=True)
        squares = np.zeros(tables)
        for _ in range(rounds):
            squares += streams.next()
        return np.sqrt(squares / rounds) / self.sigma


def simulated_pools(shoes: int, seed: int, rtps: dict[str, float], removed_per_deck=None) -> dict[str, Pool]:
    amounts: dict[str, list[tuple[float, float, float]]] = {}  # kind -> (S, W, R) a round
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
        if document["status"] != "completed":  # drift_check reads completed rounds only
            continue
        rounds += 1
        if document["shoe"] != shoe:
            shoe, number = document["shoe"], number + 1
        sums: dict[str, list[float]] = {}
        for bet in document["bets"]:
            kind_sums = sums.setdefault(bet["kind"], [0.0, 0.0, 0.0])
            kind_sums[0] += float(bet["stake"])
            kind_sums[1] += float(bet["wagered"])
            kind_sums[2] += float(bet["returned"])
        for kind, kind_sums in sums.items():
            if kind_sums[0] > 0 and kind in rtps:
                amounts.setdefault(kind, []).append(tuple(kind_sums))
                shoe_numbers.setdefault(kind, []).append(number)
    pools = {}
    for kind, rows in amounts.items():
        staked, wagered, returned = np.array(rows).T
        starts = np.flatnonzero(np.diff(shoe_numbers[kind], prepend=-1))
        pools[kind] = Pool(staked, wagered, returned, starts, rounds, rtps[kind])
    return pools


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
        """Alerts in 30 days at the monitor's rounds a day after the first window, over the runs: the
        mean and its 95% half-width."""
        alerts = self.high + self.low if side is None else side
        per_run = alerts[:, 1:].mean(axis=1) * 30 / WINDOW_DAYS
        return float(per_run.mean()), float(1.96 * per_run.std(ddof=1) / np.sqrt(len(per_run)))

    def first_window(self) -> float:
        return float((self.high + self.low)[:, 0].mean() * 30 / WINDOW_DAYS)


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
    return (
        f"{rounds:,.0f} rounds ({rounds / DELUXE_ROUNDS_PER_DAY:.1f} days at {DELUXE_ROUNDS_PER_DAY:,} a day)"
    )


def siegmund_rate(design: DriftDesign, mean_y: float, observations: float) -> tuple[float, float]:
    """Siegmund's false alerts of the high and the low side in `observations`, y's mean at `mean_y`."""
    return (
        observations / one_sided_arl(design.h, design.k - mean_y),
        observations / one_sided_arl(design.h, design.k + mean_y),
    )


def by_share(pools: dict[str, Pool]) -> list[str]:
    return sorted(pools, key=lambda kind: -pools[kind].share)


def not_watched_line(left_out: dict[str, Pool], monitor: Monitor) -> None:
    for kind in sorted(left_out):
        mean, error = left_out[kind].per_stake()
        print(
            f"       {kind} not watched (alerts.monitors.NOT_WATCHED), left out of the pools and of the "
            f"table's kinds: its return depends on whether its players follow the seat's doubles and "
            f"splits, which μ0 (best play) does not know; as simulated {mean:+.3%} ± {error:.3%} per stake"
        )


def pools_figures(pools: dict[str, Pool], monitor: Monitor, rng) -> None:
    """(a): each kind's σ, design and mean residual per stake, what that mean does to the false alerts,
    and σ learnt from the first rounds; for the main bet, the statistics before."""
    kinds = len(pools)
    print(
        "       y = score(round_residual(S, W, R, μ0), S) = e/(S·σ), not re-centred: theory is per original "
        "stake. Each kind's mean of e/S (y's mean × σ) and Σe/ΣS (the money) ± standard errors (shoes as "
        "clusters), and what y's mean does to Siegmund's false alerts:"
    )
    for kind in by_share(pools):
        pool = pools[kind]
        design = monitor.design(kind, pool.sigma, kinds)
        mean, error = pool.per_round_mean()
        money, money_error = pool.per_stake()
        mean_y = float(pool.scores(design).mean())
        high, low = siegmund_rate(design, mean_y, 1.0)
        side = 1 / one_sided_arl(design.h, design.k)
        print(
            f"       {kind}: μ0 {pool.rtp:.4%}, {pool.share:.0%} of rounds, S̄ {pool.mean_stake:,.2f}; shift "
            f"{design.shift:.0%}, σ {pool.sigma:.4f}, k {design.k:.5f}, h {design.h:.2f}; e/S {mean:+.3%} ± "
            f"{error:.3%} ({mean / error:+.1f} standard errors), Σe/ΣS {money:+.3%} ± {money_error:.3%}: "
            f"y's mean {mean_y:+.5f}, false alerts ×{(high + low) / (2 * side):.2f} "
            f"(high ×{high / side:.2f}, low ×{low / side:.2f})"
        )
        rounds = monitor.learning(kind)
        learnt = pool.learnt_sigmas(rounds, LEARNING_TABLES, rng)
        quantiles = np.quantile(learnt, [0.05, 0.5, 0.95])
        # σ learnt q times the pool's: in the pool's σ units y and h are q times the design's, and k is
        # the pool's, so the ARL is Siegmund's at q·h(k/q).
        factors = [
            2 / one_sided_arl(q * monitor.design(kind, pool.sigma * q, kinds).h, design.k) / (2 * side)
            for q in quantiles
        ]
        print(
            f"         σ learnt from the first {rounds:,} rounds (learning_rounds), {LEARNING_TABLES:,} "
            f"tables: 5th percentile ×{quantiles[0]:.3f} of the pool's, 50th ×{quantiles[1]:.3f}, 95th "
            f"×{quantiles[2]:.3f}; false alerts ×{factors[0]:.2f}, ×{factors[1]:.2f}, ×{factors[2]:.2f} "
            "while it stays so (Siegmund)"
        )
    main = pools["main"]
    design = monitor.design("main", main.sigma, kinds)
    before = monitor.design("main", main.mean_stake_sigma(), kinds)
    print(
        f"       main bet, the statistics before: R/W {main.ratio_bias():+.2%} against μ0 (doubles and "
        f"splits); e/S̄ σ {main.mean_stake_sigma():.4f}, Siegmund's delay at the shift "
        f"{days_of(before.detection_arl(before.shift))}, where e/S's σ {main.sigma:.4f} gives "
        f"{days_of(design.detection_arl(design.shift))} (this design, {kinds} kinds)"
    )


def false_alert_figures(pools: dict[str, Pool], monitor: Monitor, rng) -> None:
    """(b): each kind's false alerts and the table's, at theory and as simulated, at both rates."""
    steps = WINDOW_DAYS * monitor.rounds_per_day
    arl = false_alert_observations(monitor.days, monitor.rounds_per_day, len(pools))
    slower = DELUXE_ROUNDS_PER_DAY / monitor.rounds_per_day
    fast, slow = f"{monitor.rounds_per_day:,}", f"{DELUXE_ROUNDS_PER_DAY:,}"
    print(
        f"   (b) false alerts at one table: {RUNS:,} runs of {WINDOWS} windows of {WINDOW_DAYS} days at "
        f"{fast} rounds a day ({steps:,} rounds; a kind observes those with its bet), the first from a "
        f"CUSUM at 0, the others the long run; ± a 95% interval; in 30 days at {fast} rounds a day and at "
        f"{slow} (×{slower:.2g}: the budget is in rounds). Each kind's design: one every {arl:,.0f} "
        f"observations, {30 * monitor.rounds_per_day / arl:.3f} in 30 days at {fast} × its share of rounds"
    )
    cases = (
        ("at theory: each pool moved to μ0 (returns less mean(e/S)·S), what the design promises", True),
        ("as simulated: the monitor's y as it comes (the players' slips, the pools' chance)", False),
    )
    for label, at_theory in cases:
        print(f"       {label}")
        table = np.zeros(5)  # rate, variance, first window, design, Siegmund
        runs = [(kind, True) for kind in by_share(pools)]
        if at_theory:
            runs.insert(0, ("main", False))
        for kind, shoes in runs:
            pool = pools[kind].at_theory() if at_theory else pools[kind]
            design = monitor.design(kind, pool.sigma, len(pools))
            scores = pool.scores(design)
            observations = round(steps * pool.share)
            alerts = false_alerts(Streams.of(pool, scores, RUNS, rng, shoes=shoes), design, observations)
            rate, spread = alerts.long_run()
            in_30_days = observations * 30 / WINDOW_DAYS
            designed = in_30_days / design.in_control_arl
            siegmund = sum(siegmund_rate(design, float(scores.mean()), in_30_days))
            print(
                f"          {kind}, {'whole shoes' if shoes else 'rounds drawn independently'}: {rate:.3f} ± "
                f"{spread:.3f} at {fast}, {rate * slower:.3f} at {slow} (design {designed:.3f}"
                + ("" if at_theory else f", Siegmund at the pool's mean {siegmund:.3f}")
                + f"); high {alerts.long_run(alerts.high)[0]:.3f}, low {alerts.long_run(alerts.low)[0]:.3f}; "
                f"the first window {alerts.first_window():.3f}"
            )
            if shoes:
                table += (rate, spread**2, alerts.first_window(), designed, siegmund)
        rate, spread = table[0], float(np.sqrt(table[1]))
        print(
            f"          the table, whole shoes, its {len(pools)} watched kinds: {rate:.3f} ± {spread:.3f} at "
            f"{fast} (design {table[3]:.3f}, budget 1); {rate * slower:.3f} ± {spread * slower:.3f} at "
            f"{slow} (budget {slower:.2g}); the first window {table[2]:.3f}"
            + ("" if at_theory else f"; Siegmund at the pools' means {table[4]:.3f}")
        )


def detection(ten_rich: Pool, in_control: Pool, design: DriftDesign, rng) -> None:
    """(c): the ten-rich shoe's shift, and the delay until the main bet's high side alerts."""
    shift, error = ten_rich.per_round_mean()
    money, money_error = ten_rich.per_stake()
    scores = ten_rich.scores(design)  # σ learnt in control
    mean_y = float(scores.mean())
    print(
        f"   (c) {SHOES:,} ten-rich shoes (one each of 3, 4, 5, 6 out of every deck), {ten_rich.rounds:,} "
        f"rounds: the main bet's e/S {shift:+.2%} ± {error:.2%} (standard error) from μ0 "
        f"({shift - in_control.per_round_mean()[0]:+.2%} from the in-control pool's), Σe/ΣS {money:+.2%} ± "
        f"{money_error:.2%}; y's mean {mean_y:+.5f} (σ {design.sigma:.4f} learnt in control), "
        f"k {design.k:.5f}"
    )
    cap = DELAY_CAP_DAYS * DELUXE_ROUNDS_PER_DAY
    delays = detection_delays(Streams.of(ten_rich, scores, DELAY_RUNS, rng, shoes=True), design, cap)
    median, p90 = np.quantile(delays, [0.5, 0.9], method="inverted_cdf")
    missed = np.count_nonzero(np.isinf(delays))
    average = f"mean {days_of(delays.mean())}" if not missed else f"{missed} not within {DELAY_CAP_DAYS} days"
    print(
        f"       delay to the high side's alert, whole ten-rich shoes drawn ({DELAY_RUNS:,} runs, from 0): "
        f"median {days_of(median)}, 90th percentile {days_of(p90)}, {average}; Siegmund at y's mean: "
        f"{days_of(one_sided_arl(design.h, design.k - mean_y))}"
    )


def main():
    rng = np.random.default_rng(49)
    monitor = the_monitor()
    simulated = simulated_pools(SHOES, seed=1, rtps=monitor.rtps)
    pools = {kind: pool for kind, pool in simulated.items() if kind not in monitor.not_watched}
    left_out = {kind: pool for kind, pool in simulated.items() if kind in monitor.not_watched}
    ten_rich = simulated_pools(SHOES, seed=2, rtps=monitor.rtps, removed_per_deck=TEN_RICH)["main"]
    arl = false_alert_observations(monitor.days, monitor.rounds_per_day, len(pools))
    shifts = ", ".join(f"{kind} {shift:.0%}" for kind, shift in monitor.shifts.items())
    learning = ", ".join(f"{kind} {rounds:,}" for kind, rounds in monitor.learning_rounds.items())
    print(
        f"   design (alerts.monitors): shift to detect {shifts}; one false alert a table in {monitor.days} "
        f"days at {monitor.rounds_per_day:,} rounds a day, shared by its {len(pools)} watched kinds "
        f"({', '.join(by_share(pools))}): ARL {arl:,.0f} observations a kind; the CUSUM after {learning} "
        "rounds of the kind"
    )
    main_pool = pools["main"]
    print(
        f"   (a) {SHOES:,} Deluxe shoes in control, {main_pool.rounds:,} rounds ({PLAYERS} players, up to 7 "
        "seats)"
    )
    not_watched_line(left_out, monitor)
    pools_figures(pools, monitor, rng)
    false_alert_figures(pools, monitor, rng)
    detection(ten_rich, main_pool, monitor.design("main", main_pool.sigma, len(pools)), rng)


if __name__ == "__main__":
    main()

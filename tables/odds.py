"""The theoretical RTP of each configuration version: worked out in a Celery task, and kept.

A new version (a new table, a configuration change) schedules `tables.tasks.configuration_odds`
when its transaction commits. A version's rules never change, so its figures are worked out again only
when the odds engine's method changes (`blackjack.odds.METHOD_VERSION`): figures of an older method
are then replaced in place. `configuration_odds_recompute` does that for every version: Celery beat
runs it (`tables.tasks.configuration_odds_refresh`), `manage.py odds_refresh` at once. A version whose
rules equal another's takes that one's figures, if they are of the present method; one whose rules are in
a known-odds file of the present engine (tables.known_odds: the presets) takes them from there.
"""

import hashlib
import json
import time
from collections.abc import Iterator
from dataclasses import dataclass
from decimal import Decimal

from django.db import IntegrityError, transaction
from django.utils import timezone

from blackjack.odds import METHOD_VERSION, theoretical_odds
from blackjack.odds.chart import ACTION_CODES
from blackjack.rules import RuleSet, kind_label

from .known_odds import known_figures
from .models import ConfigurationOdds, PublishedRtp, TableConfiguration
from .published import promises_more, published_figures, stated_rtp


def rule_set_digest(rule_set: RuleSet) -> str:
    text = json.dumps(rule_set.to_dict(), sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


def configuration_odds_compute(*, configuration: TableConfiguration) -> ConfigurationOdds:
    """The version's figures: those already kept if of the present method, else an identical version's
    of the present method, else worked out now. Figures of an older method are replaced in place."""
    kept = ConfigurationOdds.objects.filter(configuration=configuration).first()
    if kept and kept.current:
        return kept
    digest = rule_set_digest(configuration.rule_set)
    fields = _figures_for(configuration, digest)
    if kept:
        return _replace(kept, fields)
    try:
        with transaction.atomic():
            return ConfigurationOdds.objects.create(configuration=configuration, **fields)
    except IntegrityError:  # another worker kept them a moment ago
        return _replace(ConfigurationOdds.objects.get(configuration=configuration), fields)


def _figures_for(configuration: TableConfiguration, digest: str) -> dict:
    same_rules = (
        ConfigurationOdds.objects.filter(rules_sha256=digest, copied_from=None, method=METHOD_VERSION)
        .exclude(configuration=configuration)
        .first()
    )
    if same_rules:
        return {
            "rules_sha256": digest,
            "figures": same_rules.figures,
            "method": METHOD_VERSION,
            "seconds": 0.0,
            "copied_from": same_rules,
            "known_in_advance": False,
        }
    known = known_figures(digest)
    if known is not None:
        return {
            "rules_sha256": digest,
            "figures": known,
            "method": METHOD_VERSION,
            "seconds": 0.0,
            "copied_from": None,
            "known_in_advance": True,
        }
    started = time.perf_counter()
    odds = theoretical_odds(configuration.rule_set)
    return {
        "rules_sha256": digest,
        "figures": odds_figures(odds),
        "method": odds.method,
        "seconds": round(time.perf_counter() - started, 3),
        "copied_from": None,
        "known_in_advance": False,
    }


def _replace(kept: ConfigurationOdds, fields: dict) -> ConfigurationOdds:
    """Kept figures of an older method replaced by `fields`, unless another worker did it meanwhile."""
    with transaction.atomic():
        kept = ConfigurationOdds.objects.select_for_update().get(pk=kept.pk)
        if kept.current:
            return kept
        for name, value in fields.items():
            setattr(kept, name, value)
        kept.computed_at = timezone.now()
        kept.save(update_fields=[*fields, "computed_at"])
    return kept


def configurations_to_refresh():
    """Configuration versions whose figures are missing or of an older method, oldest first."""
    return TableConfiguration.objects.exclude(odds__method=METHOD_VERSION).order_by("pk")


def configuration_odds_recompute(*, seconds: float | None = None) -> Iterator[ConfigurationOdds]:
    """Work out the figures of every version that lacks figures of the present method, one after the
    other (a rule set already worked out is copied, not worked out again); after `seconds`, start no
    more (the next run carries on)."""
    started = time.monotonic()
    for pk in list(configurations_to_refresh().values_list("pk", flat=True)):
        if seconds is not None and time.monotonic() - started >= seconds:
            return
        yield configuration_odds_compute(configuration=TableConfiguration.objects.get(pk=pk))


def odds_figures(odds) -> dict:
    """The figures of `theoretical_odds`, as ConfigurationOdds.figures keeps them."""
    return {
        "rtp": {kind: str(rtp) for kind, rtp in odds.rtp.items()},
        "auto_play": str(odds.auto_play_rtp),
        "patterns": {
            kind: {pattern: float(probability) for pattern, probability in patterns.items()}
            for kind, patterns in odds.patterns.items()
        },
        "strategy": odds.strategy,
        "chart": odds.chart.to_dict(),
        "method": odds.method,
    }


@dataclass(frozen=True)
class RtpLine:
    """One bet kind's theoretical RTP for the table page, beside the operator's published figure of
    record (tables.published) and what the players' sheet states."""

    kind: str
    label: str
    rtp: Decimal
    published: PublishedRtp | None = None

    @property
    def house_edge(self) -> Decimal:
        return 100 - self.rtp

    @property
    def stated(self) -> Decimal:
        return stated_rtp(self.rtp, self.published.rtp if self.published else None)

    @property
    def flagged(self) -> bool:
        """The published figure promises more than the game gives at best play."""
        return promises_more(self.rtp, self.published.rtp if self.published else None)


def rtp_lines(odds: ConfigurationOdds) -> list[RtpLine]:
    """Each offered bet kind's theoretical RTP, with its published figure of record where there is one."""
    rule_set = odds.configuration.rule_set
    rtp = odds.figures["rtp"]
    published = published_figures(odds.configuration)
    # In the order the rules offer them: a jsonb object does not keep its keys' order.
    return [
        RtpLine(kind, kind_label(kind), Decimal(rtp[kind]), published.get(kind))
        for kind in rule_set.offered_kinds
        if kind in rtp
    ]


def main_game_lines(odds: ConfigurationOdds) -> tuple[RtpLine, RtpLine]:
    """The main game's maximum RTP (best play) and its RTP under the table's automatic play."""
    return (
        RtpLine("main", "Maximum RTP", odds.rtp("main")),
        RtpLine("main", "Automatic play", Decimal(odds.figures["auto_play"])),
    )


# --- the strategy chart of best play, for the table page ------------------------------------------

ACTION_OF_CODE = {code: action for action, code in ACTION_CODES.items()}
CHART_GROUPS = {"hard": "Hard totals", "soft": "Soft totals", "pair": "Pairs"}


@dataclass(frozen=True)
class ChartCell:
    column: str  # the facilitator's first card
    best: str
    card_dependent: bool
    automatic: str | None  # the table's strategy table's decision, where it plays one

    @property
    def differs(self) -> bool:
        return self.automatic is not None and self.automatic != self.best

    @property
    def best_action(self) -> str:
        return ACTION_OF_CODE[self.best]

    @property
    def automatic_action(self) -> str | None:
        return self.automatic and ACTION_OF_CODE[self.automatic]


@dataclass(frozen=True)
class ChartRow:
    hand: str  # "hard 12"
    label: str  # "12", "A,A"
    cells: tuple[ChartCell, ...]


@dataclass(frozen=True)
class ChartGroup:
    title: str
    rows: tuple[ChartRow, ...]


@dataclass(frozen=True)
class ChartDifference:
    hand: str
    column: str
    best: str
    automatic: str

    @property
    def best_action(self) -> str:
        return ACTION_OF_CODE[self.best]

    @property
    def automatic_action(self) -> str:
        return ACTION_OF_CODE[self.automatic]


def chart_groups(chart: dict) -> list[ChartGroup]:
    """The stored chart (`StrategyChart.to_dict`) as hard totals, soft totals and pairs."""
    rows: dict[str, list[ChartRow]] = {kind: [] for kind in CHART_GROUPS}
    for row in chart["rows"]:
        kind, value = row["hand"].split()
        automatic = row.get("automatic") or [None] * len(row["best"])
        cells = tuple(map(ChartCell, chart["columns"], row["best"], row["card_dependent"], automatic))
        rows[kind].append(ChartRow(row["hand"], f"{value},{value}" if kind == "pair" else value, cells))
    return [ChartGroup(CHART_GROUPS[kind], tuple(group)) for kind, group in rows.items() if group]


def chart_differences(chart: dict) -> list[ChartDifference]:
    """Where the table's strategy table decides otherwise than best play."""
    return [ChartDifference(**difference) for difference in chart["differences"]]


def chart_legend() -> list[tuple[str, str]]:
    return [(code, action) for action, code in ACTION_CODES.items()]

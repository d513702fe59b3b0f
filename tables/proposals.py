"""What a proposed configuration version changes against the version it was proposed on, rule by rule,
and what it does to the theoretical RTP of every bet kind: the proposal page shows both, with a warning
where a kind's RTP falls more than RTP_FALL_WARNING percentage points, or below the floor the settings
name (PITBOSS_RTP_FLOOR_PERCENT). Such a bet kind's line crosses the guardrail (tables.guardrail): the
main game under automatic play is warned of a fall, but never gates."""

import dataclasses
from dataclasses import dataclass
from decimal import Decimal

from django.conf import settings

from blackjack.rules import (
    BET_KINDS,
    SIDE_OPTION_KINDS,
    SIDE_OPTION_PATTERNS,
    RuleSet,
    kind_label,
    pattern_label,
)
from core.templatetags.pitboss import odds_text

from .choices import AUTO_PLAY_LABELS
from .models import ConfigurationOdds, TableConfiguration

RTP_FALL_WARNING = Decimal(1)  # percentage points
# Shown one by one above; anything else that differs is shown by its name.
SHOWN_RULES = {"game", "seats", "auto_play", "side_options", "strategy_overrides"}


@dataclass(frozen=True)
class RuleChange:
    rule: str
    before: str
    after: str


def rule_changes(before: RuleSet, after: RuleSet) -> list[RuleChange]:
    """Every rule that differs, side options and each paytable line included, in the page's order."""
    changes = []
    if before.seats != after.seats:
        changes.append(RuleChange("Seats", _seats(before.seats), _seats(after.seats)))
    if before.auto_play != after.auto_play:
        changes.append(RuleChange("Auto-play", _auto_play(before.auto_play), _auto_play(after.auto_play)))
    for kind in SIDE_OPTION_KINDS:
        changes += _side_option_changes(kind, before, after)
    cells = {(hand, up) for hand, up, _ in (*before.strategy_overrides, *after.strategy_overrides)}
    for hand, up in sorted(cells):
        was, now = before.strategy_override(hand, up), after.strategy_override(hand, up)
        if was != now:
            changes.append(
                RuleChange(
                    f"Strategy table: {hand} against {up}", was or "basic strategy", now or "basic strategy"
                )
            )
    for field in dataclasses.fields(RuleSet):
        if field.name in SHOWN_RULES:
            continue
        was, now = getattr(before, field.name), getattr(after, field.name)
        if was != now:
            changes.append(RuleChange(field.name.replace("_", " ").capitalize(), str(was), str(now)))
    return changes


def _side_option_changes(kind: str, before: RuleSet, after: RuleSet) -> list[RuleChange]:
    was, now = before.side_option(kind), after.side_option(kind)
    if was is None and now is None:
        return []
    label = kind_label(kind)
    changes = []
    if (was is None) != (now is None):
        changes.append(
            RuleChange(
                label,
                "not offered" if was is None else "offered",
                "not offered" if now is None else "offered",
            )
        )
    if now is None:
        return changes
    if was is None or was.max_round != now.max_round:
        changes.append(
            RuleChange(
                f"{label}: max round", _max_round(was.max_round) if was else "—", _max_round(now.max_round)
            )
        )
    for pattern in SIDE_OPTION_PATTERNS[kind]:
        old, new = (was.odds(pattern) if was else None), now.odds(pattern)
        if old != new:
            changes.append(RuleChange(f"{label}: {pattern_label(pattern).lower()}", _pays(old), _pays(new)))
    return changes


def _seats(seats: int | None) -> str:
    return "no seats (one shared deal)" if seats is None else str(seats)


def _auto_play(policy: str) -> str:
    return AUTO_PLAY_LABELS.get(policy, policy)


def _max_round(max_round: int | None) -> str:
    return "no limit" if max_round is None else str(max_round)


def _pays(odds: Decimal | None) -> str:
    return "does not pay" if odds is None else f"{odds_text(odds)}:1"


# --- the RTP before and after --------------------------------------------------------------------


@dataclass(frozen=True)
class RtpLine:
    """One bet kind (or the main game under automatic play) before and after the proposal. An RTP is
    None where the kind is not offered, or its figures are still being computed (`computing_*`)."""

    key: str
    label: str
    before: Decimal | None
    after: Decimal | None
    offered_before: bool
    offered_after: bool
    computing_before: bool
    computing_after: bool
    warnings: tuple[str, ...]
    gated: bool = True  # its warnings cross the guardrail (a bet kind's maximum RTP)

    @property
    def movement(self) -> str:
        """ "97.1154 % → 93.2600 %", or "80.4912 %, newly offered": for refusals and pages."""
        if self.before is None:
            return f"{self.after} %, newly offered"
        return f"{self.before} % → {self.after} %"

    @property
    def crosses_guardrail(self) -> bool:
        return self.gated and bool(self.warnings)

    @property
    def change(self) -> Decimal | None:
        if self.before is None or self.after is None:
            return None
        return self.after - self.before


@dataclass(frozen=True)
class RtpPreview:
    lines: tuple[RtpLine, ...]
    floor: Decimal
    computing: bool  # some figure of either version is still being computed

    @property
    def warnings(self) -> list[str]:
        return [warning for line in self.lines for warning in line.warnings]

    @property
    def crossings(self) -> list[RtpLine]:
        """The bet kinds whose maximum RTP falls below the floor, or by more than RTP_FALL_WARNING."""
        return [line for line in self.lines if line.crosses_guardrail]


def current_odds(configuration: TableConfiguration | None) -> ConfigurationOdds | None:
    """The version's figures, if worked out by the engine's present method."""
    if configuration is None:
        return None
    odds = ConfigurationOdds.objects.filter(configuration=configuration).first()
    return odds if odds is not None and odds.current else None


def rtp_preview(before: TableConfiguration | None, after: TableConfiguration) -> RtpPreview:
    """Each bet kind either version offers, with its RTP before and after and its warnings; then the main
    game under automatic play (warned of a fall only: the floor is about what a bet returns at best)."""
    floor = settings.PITBOSS_RTP_FLOOR_PERCENT
    odds_before, odds_after = current_odds(before), current_odds(after)
    offered_before = set(before.rule_set.offered_kinds) if before else set()
    offered_after = set(after.rule_set.offered_kinds)
    lines = []
    for kind in BET_KINDS:
        if kind not in offered_before | offered_after:
            continue
        was = odds_before.rtp(kind) if odds_before and kind in offered_before else None
        now = odds_after.rtp(kind) if odds_after and kind in offered_after else None
        lines.append(
            _line(
                kind,
                kind_label(kind),
                (was, kind in offered_before, odds_before is None),
                (now, kind in offered_after, odds_after is None),
                floor=floor,
            )
        )
    was = Decimal(odds_before.figures["auto_play"]) if odds_before else None
    now = Decimal(odds_after.figures["auto_play"]) if odds_after else None
    lines.append(
        _line(
            "auto_play",
            "Main, automatic play",
            (was, before is not None, odds_before is None),
            (now, True, odds_after is None),
            floor=None,
        )
    )
    computing = odds_after is None or (before is not None and odds_before is None)
    return RtpPreview(tuple(lines), floor, computing)


def _line(key: str, label: str, before: tuple, after: tuple, *, floor: Decimal | None) -> RtpLine:
    was, offered_before, computing_before = before
    now, offered_after, computing_after = after
    warnings = []
    if was is not None and now is not None and was - now > RTP_FALL_WARNING:
        warnings.append(f"{label}: the RTP falls {was - now} percentage points ({was} % → {now} %).")
    if floor is not None and now is not None and now < floor:
        warnings.append(f"{label}: the RTP would be {now} %, below the floor of {floor} %.")
    return RtpLine(
        key,
        label,
        was,
        now,
        offered_before,
        offered_after,
        computing_before and offered_before,
        computing_after and offered_after,
        tuple(warnings),
        gated=floor is not None,
    )

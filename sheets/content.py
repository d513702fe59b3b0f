"""What a players' rule sheet says, as data: the one definition, read by the page, the PDF and the API.

A sheet is made from one configuration version of a table (its RuleSet), the table's limits in force at
the time asked for (TableLimit's history), the odds stored with the version (ConfigurationOdds) and the
operator's published RTPs entered by then (tables.published: a kind's RTP is the published figure when
at or below the computed maximum, else the computed maximum, rounded down): every number it states comes
from one of them, never from a text. A feature the table does not offer is not on
the sheet at all. The words are the templates' (templates/sheets/), marked for translation; the labels
of bet kinds are here, marked too, and a paytable pattern's label and description are the players'
words of blackjack/pattern_words.py (one list with staff's labels), translated when the sheet renders.
"""

import hashlib
import json
from dataclasses import asdict, dataclass
from datetime import datetime
from decimal import Decimal
from fractions import Fraction

from django.template.loader import render_to_string
from django.utils import timezone, translation
from django.utils.translation import gettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from blackjack.pattern_words import PATTERN_WORDS
from blackjack.rules import DEALER_WORDS, SIDE_OPTION_PATTERNS, RuleSet
from limits.models import TableLimit
from tables.choices import ConfigurationStatus
from tables.models import ConfigurationOdds, Table, TableConfiguration
from tables.published import published_figures, stated_rtp

# The languages a sheet is made in; the first is the one that prevails.
SHEET_LANGUAGES = ("en", "fil")
BODY_TEMPLATE = "sheets/body.html"

# The names of the side options are the games' own (a player finds them so on the table); the kinds a
# player stakes on are described in words.
KIND_LABELS = {
    "main": pgettext_lazy("bet kind", "Main game"),
    "behind": pgettext_lazy("bet kind", "Play behind"),
    "pair": pgettext_lazy("side option", "Pair"),
    "perfect_pairs": pgettext_lazy("side option", "Perfect Pairs"),
    "twenty_one_plus_three": pgettext_lazy("side option", "21+3"),
    "lucky_trio": pgettext_lazy("side option", "Lucky Trio"),
    "poker_trio": pgettext_lazy("side option", "Poker Trio"),
    "bust_bonus": pgettext_lazy("side option", "Bust Bonus"),
}

# Who deals: the word of the game's own rule sheet.
DEALER_LABELS = {"facilitator": _("facilitator"), "dealer": _("dealer")}

# What each side option looks at, in one sentence.
SIDE_OPTION_BASIS = {
    "pair": _("Pays on the first two cards of the hand it is placed on."),
    "perfect_pairs": _("Pays on the first two cards of the hand it is placed on."),
    "twenty_one_plus_three": _("Pays on the first two cards of the hand and the %(dealer)s's first card."),
    "poker_trio": _("Pays on the player's first two cards and the %(dealer)s's first card."),
    "lucky_trio": _("Pays on the player's first two cards and the %(dealer)s's first card."),
    "bust_bonus": _("Pays when the %(dealer)s's hand busts, by the number of cards it holds."),
}


class NoSheet(Exception):
    """The table has no approved configuration version in force at the time asked for (or its odds are
    not worked out yet): there is no sheet to show."""


@dataclass(frozen=True)
class Odds:
    """Odds "to 1" as a ratio in lowest terms: 1.5 -> 3:2, 30 -> 30:1."""

    value: Decimal

    @property
    def ratio(self) -> tuple[int, int]:
        fraction = Fraction(self.value)
        return fraction.numerator, fraction.denominator

    @property
    def wins(self) -> int:
        return self.ratio[0]

    @property
    def per(self) -> int:
        return self.ratio[1]


def dealer_words(text, dealer: str) -> str:
    """A translated sentence naming who deals, with the game's word for them (`dealer`) put in."""
    return str(text) % {"dealer": DEALER_LABELS[dealer]}


@dataclass(frozen=True)
class PaytableLine:
    pattern: str
    odds: Odds
    dealer: str

    @property
    def label(self) -> str:
        return gettext(PATTERN_WORDS[self.pattern].player)

    @property
    def description(self) -> str:
        return dealer_words(gettext(PATTERN_WORDS[self.pattern].description), self.dealer)


@dataclass(frozen=True)
class SideOptionSheet:
    kind: str
    paytable: tuple[PaytableLine, ...]
    max_round: int | None
    rtp: Decimal
    dealer: str

    @property
    def label(self):
        return KIND_LABELS[self.kind]

    @property
    def basis(self) -> str:
        return dealer_words(SIDE_OPTION_BASIS[self.kind], self.dealer)


@dataclass(frozen=True)
class LimitLine:
    kind: str
    min_stake: Decimal
    max_stake: Decimal

    @property
    def label(self):
        return KIND_LABELS[self.kind]


@dataclass(frozen=True)
class RuleSheet:
    """Everything one sheet states. `at` is the time it was made for (the version and limits then)."""

    table_code: str
    table_name: str
    currency: str
    version: int
    valid_from: datetime
    at: datetime
    approved: bool
    rules: RuleSet
    limits: tuple[LimitLine, ...]
    main_rtp: Decimal
    side_options: tuple[SideOptionSheet, ...]

    @property
    def game(self) -> str:
        return self.rules.game

    @property
    def blackjack_pays(self) -> Odds:
        return Odds(self.rules.blackjack_pays)

    @property
    def insurance_pays(self) -> Odds:
        return Odds(self.rules.insurance_pays)

    @property
    def dealer(self):
        """Who deals, in the word of the game's own sheet ("facilitator" or "dealer"), translated."""
        return DEALER_LABELS[DEALER_WORDS[self.rules.game]]

    @property
    def max_rounds_differ(self) -> bool:
        return any(option.max_round is not None for option in self.side_options)


def sheet_in_force(table: Table, at: datetime | None = None) -> RuleSheet:
    """The sheet of `table` at `at` (default: now): the approved version in force then, the table's
    limits then. Raises NoSheet when no version is in force then."""
    at = at or timezone.now()
    configuration = (
        TableConfiguration.objects.in_force(at).filter(table=table).order_by("-valid_from").first()
    )
    if configuration is None:
        raise NoSheet(f"{table.code} has no configuration in force at {at.isoformat()}.")
    configuration.table = table
    return sheet_of_version(configuration, at)


def sheet_of_version(configuration: TableConfiguration, at: datetime | None = None) -> RuleSheet:
    """The sheet of one version, whatever its status (a proposal's preview), with the table's limits
    at `at` (default: now). Raises NoSheet when the version's odds are not worked out yet."""
    at = at or timezone.now()
    odds = ConfigurationOdds.objects.filter(configuration=configuration).first()
    if odds is None or odds.rtp("main") is None:
        raise NoSheet(f"The odds of {configuration} are not worked out yet.")
    published = {kind: entry.rtp for kind, entry in published_figures(configuration, at).items()}

    def stated(kind: str) -> Decimal:
        return stated_rtp(odds.rtp(kind), published.get(kind))

    rules = configuration.rule_set
    table = configuration.table
    dealer = DEALER_WORDS[rules.game]
    return RuleSheet(
        table_code=table.code,
        table_name=table.name,
        currency=table.currency,
        version=configuration.version,
        valid_from=configuration.valid_from,
        at=at,
        approved=configuration.status == ConfigurationStatus.APPROVED,
        rules=rules,
        limits=limits_at(table, rules, at),
        main_rtp=stated("main"),
        side_options=tuple(
            SideOptionSheet(
                kind=option.kind,
                paytable=tuple(
                    PaytableLine(pattern, Odds(odds_value), dealer)
                    for pattern in SIDE_OPTION_PATTERNS[option.kind]
                    if (odds_value := option.odds(pattern)) is not None
                ),
                max_round=option.max_round,
                rtp=stated(option.kind),
                dealer=dealer,
            )
            for option in rules.side_options
        ),
    )


def limits_at(table: Table, rules: RuleSet, at: datetime) -> tuple[LimitLine, ...]:
    """The table's stake range for each bet kind the rules offer (insurance follows from the main
    bet's, so it has none of its own), as its limit history stood at `at`."""
    in_force = {limit.kind: limit for limit in TableLimit.history.as_of(at).filter(table_id=table.pk)}
    return tuple(
        LimitLine(kind, in_force[kind].min_stake, in_force[kind].max_stake)
        for kind in rules.offered_kinds
        if kind in in_force
    )


def render_sheet(sheet: RuleSheet, language: str) -> str:
    """The sheet's body (HTML, no page around it) in `language`, one of SHEET_LANGUAGES."""
    if language not in SHEET_LANGUAGES:
        raise ValueError(f"No sheet in {language!r}: one of {', '.join(SHEET_LANGUAGES)}.")
    with translation.override(language):
        return render_to_string(BODY_TEMPLATE, {"sheet": sheet, "language": language})


def sheet_etag(sheet: RuleSheet, language: str) -> str:
    """A validator that changes exactly when the sheet's text in `language` does."""
    return hashlib.sha256(render_sheet(sheet, language).encode()).hexdigest()


def sheet_fingerprint(sheet: RuleSheet) -> str:
    """Everything `sheet` states, as one JSON text: what the templates read of it (the table's code, name
    and currency, the version, its start and status, its rules, the limits, the RTPs), so that sheets
    whose fingerprints are equal read alike in every language. `at` is left out: a sheet states only
    what was in force then, never the time it was asked for."""
    stated = asdict(sheet)
    del stated["at"]
    return json.dumps(stated, sort_keys=True, default=str, separators=(",", ":"))

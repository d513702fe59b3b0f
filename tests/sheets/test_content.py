"""A players' rule sheet states the numbers of its configuration, odds and limits, and only them.

Every preset's sheet (seed_demo's four tables), in English and in Filipino, is rendered and every number
in it parsed (by the language's separators) and checked: an element marked `data-number` holds the
numbers of one thing the configuration, the stored odds or the limits say, and every other number on the
sheet is one of the game's fixed numbers (21, 17...) or part of a side option pattern's name.
"""

import re
from datetime import timedelta
from decimal import ROUND_DOWN, Decimal
from fractions import Fraction
from html.parser import HTMLParser
from io import StringIO

import pytest
from django.core.management import call_command
from django.db import transaction
from django.template import Context, Template
from django.utils import timezone, translation

from limits.models import TableLimit
from limits.services import table_limit_set
from sheets.content import NoSheet, render_sheet, sheet_etag, sheet_in_force, sheet_of_version
from tables.models import ConfigurationOdds, PublishedRtp, Table, TableConfiguration
from tables.odds import configuration_odds_compute
from tests import factories

LANGUAGES = ("en", "fil")
CODES = ("DLX1", "BND1", "CLS1", "MPB1")
# Numbers a sheet may state outside a data-number element: card values and totals of the game itself.
FIXED_NUMBERS = {Fraction(n) for n in (1, 9, 10, 11, 16, 17, 21)}


@pytest.fixture(scope="module")
def world(django_db_setup, django_db_blocker):
    """seed_demo's four tables with their versions' odds worked out (about a minute), rolled back after
    the module's last test."""
    with django_db_blocker.unblock(), transaction.atomic():
        call_command("seed_demo", stdout=StringIO())
        for configuration in TableConfiguration.objects.all():
            configuration_odds_compute(configuration=configuration)
        yield
        transaction.set_rollback(True)


pytestmark = pytest.mark.django_db


# --- reading a sheet back -------------------------------------------------------------------------


class SheetReader(HTMLParser):
    """The text of each data-number element by its key, and the text outside them, data-fixed elements
    and <time> elements."""

    def __init__(self):
        super().__init__()
        self.numbered: list[tuple[str, str]] = []
        self.free: list[str] = []
        self.stack: list[tuple[str, str | None]] = []  # (tag, "number:key" | "skip" | None)

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag in ("br", "meta", "link", "img", "input"):
            return
        mark = None
        if "data-number" in attrs:
            mark = "number:" + attrs["data-number"]
            self.numbered.append((attrs["data-number"], ""))
        elif "data-fixed" in attrs or tag in ("time", "style", "title"):
            mark = "skip"
        self.stack.append((tag, mark))

    def handle_endtag(self, tag):
        while self.stack:
            if self.stack.pop()[0] == tag:
                break

    def handle_data(self, data):
        marks = [mark for _, mark in self.stack if mark]
        if marks and marks[-1] == "skip":
            return
        numbered = [mark for mark in marks if mark.startswith("number:")]
        if numbered:
            key, text = self.numbered[-1]
            self.numbered[-1] = (key, text + data)
        else:
            self.free.append(data)


def read_sheet(html: str) -> SheetReader:
    reader = SheetReader()
    reader.feed(html)
    return reader


def numbers_in(text: str, language: str) -> list[Fraction]:
    """Every number of a text, as the language writes them: "2,500.00" (or "2.500,00"), "3:2" as 3/2."""
    decimal, thousands = (re.escape(mark) for mark in separators(language))
    number = rf"\d{{1,3}}(?:{thousands}\d{{3}})+(?:{decimal}\d+)?|\d+(?:{decimal}\d+)?"
    found = []
    for match in re.finditer(rf"(?<![\w+])({number})(?::({number}))?", text):
        value = to_fraction(match.group(1), decimal, thousands)
        if match.group(2):
            value /= to_fraction(match.group(2), decimal, thousands)
        found.append(value)
    return found


def separators(language: str) -> tuple[str, str]:
    """The decimal and thousands separators of `language`, as its sheet writes 1234.50 (1,234.50)."""
    with translation.override(language):
        text = Template('{{ amount|floatformat:"2g" }}').render(Context({"amount": Decimal("1234.50")}))
    assert re.fullmatch(r"1\D234\D50", text), text
    return text[-3], text[1]


def to_fraction(text: str, decimal: str, thousands: str) -> Fraction:
    plain = re.sub(thousands, "", text)
    return Fraction(Decimal(re.sub(decimal, ".", plain)))


def expected_numbers(configuration: TableConfiguration, at) -> dict[str, list[Fraction]]:
    """What each data-number element must state, worked out here from the configuration, its odds, the
    published figures entered by `at` and the limits' history. An RTP is the latest published figure
    when at or below the computed one, else the computed one cut to two places: never more."""
    rules = configuration.rule_set
    odds = ConfigurationOdds.objects.get(configuration=configuration)
    published = {}
    for entry in PublishedRtp.objects.filter(configuration=configuration, entered_at__lte=at).order_by(
        "entered_at", "pk"
    ):
        published[entry.kind] = entry.rtp

    def rtp(kind):
        if kind in published and published[kind] <= odds.rtp(kind):
            return Fraction(published[kind])
        return Fraction(odds.rtp(kind).quantize(Decimal("0.01"), rounding=ROUND_DOWN))

    expected = {
        "version": [Fraction(configuration.version)],
        "decks": [Fraction(rules.decks)],
        "blackjack_pays": [Fraction(rules.blackjack_pays)],
        "rtp:main": [rtp("main")],
    }
    if rules.seats:
        expected["seats"] = [Fraction(rules.seats)]
    if rules.max_seats_per_player:
        expected["max_seats_per_player"] = [Fraction(rules.max_seats_per_player)]
    if rules.insurance:
        expected["insurance_pays"] = [Fraction(rules.insurance_pays)]
    if rules.max_cards:
        expected["max_cards"] = [Fraction(rules.max_cards)] * 2
    for option in rules.side_options:
        expected[f"rtp:{option.kind}"] = [rtp(option.kind)]
        if option.max_round:
            expected[f"max_round:{option.kind}"] = [Fraction(option.max_round)]
        for pattern, value in option.paytable:
            expected[f"paytable:{option.kind}:{pattern}"] = [Fraction(value)]
    for limit in TableLimit.history.as_of(at).filter(table_id=configuration.table_id):
        if limit.kind in rules.offered_kinds:
            expected[f"limit:{limit.kind}:min"] = [Fraction(limit.min_stake)]
            expected[f"limit:{limit.kind}:max"] = [Fraction(limit.max_stake)]
    return expected


def assert_numbers_right(html: str, language: str, configuration: TableConfiguration, at) -> None:
    reader = read_sheet(html)
    expected = expected_numbers(configuration, at)
    stated = {}
    for key, text in reader.numbered:
        if key == "version":  # it says from when: a time, checked as one
            assert configuration.valid_from.strftime("%Y-%m-%d %H:%M UTC") in text
            text = re.sub(r"\d{4}-\d{2}-\d{2} \d{2}:\d{2}", "", text)
        stated.setdefault(key, []).append(numbers_in(text, language))
    # Every number the configuration implies is stated, and nothing else is marked.
    assert set(stated) == set(expected)
    for key, texts in stated.items():
        for numbers in texts:
            # Each number expected, in order; besides them only the game's fixed numbers (a
            # translation may write "a card of value 10" where English says "a ten-value card").
            rest = list(numbers)
            for value in expected[key]:
                assert value in rest, (key, language, numbers)
                del rest[rest.index(value)]
            assert set(rest) <= FIXED_NUMBERS, (key, language, numbers)
    stray = [n for n in numbers_in(" ".join(reader.free), language) if n not in FIXED_NUMBERS]
    assert stray == [], f"numbers of no configuration in the {language} sheet: {stray}"


# --- the tests ------------------------------------------------------------------------------------


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("code", CODES)
def test_every_number_of_every_preset_sheet_is_its_configurations(world, code, language):
    table = Table.objects.get(code=code)
    at = timezone.now()
    sheet = sheet_in_force(table, at)
    html = render_sheet(sheet, language)
    configuration = TableConfiguration.objects.get(table=table, version=1)
    assert sheet.version == 1
    assert_numbers_right(html, language, configuration, at)
    assert f'lang="{language}"' in html


def test_a_feature_the_table_does_not_offer_is_left_out(world):
    boundless = render_sheet(sheet_in_force(Table.objects.get(code="BND1")), "en")
    classic = render_sheet(sheet_in_force(Table.objects.get(code="CLS1")), "en")
    multiplayer = render_sheet(sheet_in_force(Table.objects.get(code="MPB1")), "en")
    assert "no seats" in boundless and "play behind a seated hand" not in boundless
    assert "surrender" not in classic and "surrender" not in multiplayer
    assert 'id="side-options"' not in multiplayer
    assert "not available" not in boundless + classic + multiplayer
    assert "network failure cancels the round is paid 3:2" in classic
    assert "network failure cancels the round" not in boundless + multiplayer
    assert "at most 9 cards" in multiplayer and "at most" not in classic
    assert "facilitator" in boundless and "facilitator" not in classic


def test_a_paytable_change_is_in_the_new_versions_sheet_and_not_the_olds(world):
    table = Table.objects.get(code="BND1")
    before = timezone.now()
    richer = {"mixed_pair": 6, "coloured_pair": 12, "perfect_pair": 30}
    new = factories.configuration_approved(
        table, {"side_options": {"pair": {"paytable": richer, "max_round": 40}}}, reason="richer pair"
    )
    after = timezone.now()
    old_sheet, new_sheet = sheet_in_force(table, before), sheet_in_force(table, after)
    assert (old_sheet.version, new_sheet.version) == (1, new.version)
    old_pair = next(o for o in old_sheet.side_options if o.kind == "pair")
    new_pair = next(o for o in new_sheet.side_options if o.kind == "pair")
    assert [line.odds.value for line in old_pair.paytable] == [5, 10, 30]
    assert [line.odds.value for line in new_pair.paytable] == [6, 12, 30]
    for language in LANGUAGES:
        assert_numbers_right(
            render_sheet(old_sheet, language), language, table.configurations.get(version=1), before
        )
        assert_numbers_right(render_sheet(new_sheet, language), language, new, after)
    assert new_pair.rtp != old_pair.rtp


def test_a_limit_change_changes_the_sheet_after_it_only(world):
    table = Table.objects.get(code="DLX1")
    before = timezone.now()
    table_limit_set(
        table=table,
        kind="main",
        min_stake=Decimal("5.00"),
        max_stake=Decimal("5000.00"),
        changed_by=factories.user("supervisor"),
        reason="higher stakes",
    )
    after = timezone.now() + timedelta(microseconds=1)
    old, new = sheet_in_force(table, before), sheet_in_force(table, after)
    assert [(line.kind, line.max_stake) for line in old.limits][0] == ("main", Decimal("2500.00"))
    assert [(line.kind, line.max_stake) for line in new.limits][0] == ("main", Decimal("5000.00"))
    assert "5,000.00 EUR" in render_sheet(new, "en") and "5,000.00" not in render_sheet(old, "en")
    configuration = table.configurations.get(version=1)
    assert_numbers_right(render_sheet(new, "fil"), "fil", configuration, after)


def test_the_text_of_a_sheet_changes_only_with_its_version_or_limits(world):
    """Two moments with no change between them: now, and an hour on (a moment before now could fall
    before another test's limit change)."""
    table = Table.objects.get(code="MPB1")
    moment = timezone.now()
    now = sheet_in_force(table, moment)
    for language in LANGUAGES:
        later = sheet_in_force(table, moment + timedelta(hours=1))
        assert render_sheet(now, language) == render_sheet(later, language)
        assert sheet_etag(now, language) == sheet_etag(later, language)
    assert sheet_etag(now, "en") != sheet_etag(now, "fil") or not_translated("fil")


def not_translated(language: str) -> bool:
    """True while the catalogue of `language` translates none of the sheet (the other half of the work)."""
    with translation.override(language):
        return translation.gettext("Setup") == "Setup"


def test_no_version_in_force_is_no_sheet(world):
    table = Table.objects.get(code="DLX1")
    with pytest.raises(NoSheet):
        sheet_in_force(table, table.configurations.get(version=1).valid_from - timedelta(seconds=1))


def test_a_proposal_has_a_sheet_of_its_own_before_approval(world):
    from tables.services import configuration_propose

    table = Table.objects.get(code="BND1")
    proposal = configuration_propose(
        table=table,
        changes={"side_options": {"bust_bonus": None}},
        proposed_by=factories.user("supervisor"),
        reason="no bust bonus",
    )
    with pytest.raises(NoSheet):
        sheet_of_version(proposal)  # its odds are not worked out yet
    configuration_odds_compute(configuration=proposal)
    sheet = sheet_of_version(proposal)
    html = render_sheet(sheet, "en")
    assert "as proposed, not in force" in html and "Bust Bonus" not in html
    assert sheet_in_force(table).version == 1
    assert_numbers_right(html, "en", proposal, timezone.now())


def test_a_strategy_table_with_changes_is_not_called_basic_strategy(world):
    table = Table.objects.get(code="MPB1")
    plain = render_sheet(sheet_in_force(table), "en")
    assert "basic strategy for these rules." in plain
    changed = factories.configuration_approved(
        table, {"strategy_overrides": {"hard16": {"T": "stand"}}}, reason="stand on 16 against a ten"
    )
    for language in LANGUAGES:
        html = render_sheet(sheet_of_version(changed), language)
        assert_numbers_right(html, language, changed, timezone.now())
    html = render_sheet(sheet_of_version(changed), "en")
    assert "basic strategy for these rules." not in html
    assert "with the changes this table makes to it" in html

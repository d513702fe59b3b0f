"""The Filipino catalogue of the players' rule sheets (locale/fil/LC_MESSAGES/).

- Every message the sheets mark for translation (the templates in templates/sheets/, the labels
  in the sheets app's modules and the players' words of the engine's side option patterns,
  blackjack/pattern_words.py) is in django.po, and the catalogue holds nothing else: templates are
  read the way `makemessages` reads them (Django's `templatize`), with babel's extractor in place of
  xgettext, so no system tool is needed.
- No entry is untranslated or fuzzy, and each translation keeps its msgid's placeholders.
- The committed django.mo says what django.po says: the .po is compiled here, in Python (babel), and
  the messages compared (not the bytes: msgfmt and babel lay a .mo out differently).
- Django gives the Filipino under translation.override("fil"), and the portal stays English.
- Numbers: Django has no formats module for "fil"; its defaults are Filipino's (CLDR, from babel).
"""

import io
import re
from decimal import Decimal

import pytest
from babel.messages.extract import extract
from babel.messages.mofile import read_mo, write_mo
from babel.messages.pofile import read_po
from babel.numbers import format_decimal
from django.conf import settings
from django.template import Context, Template
from django.test import Client
from django.utils import translation

from blackjack.pattern_words import PATTERN_WORDS
from core.money import money_text
from sheets.content import Odds, PaytableLine

SHEET_TEMPLATES = settings.BASE_DIR / "templates" / "sheets"
SHEET_MODULES = settings.BASE_DIR / "sheets"
ENGINE_MODULES = settings.BASE_DIR / "blackjack"  # `make messages` reads it for the patterns' words
MESSAGES = settings.BASE_DIR / "locale" / "fil" / "LC_MESSAGES"
PO, MO = MESSAGES / "django.po", MESSAGES / "django.mo"
# The functions `templatize` writes for {% translate %} and {% blocktranslate %}, and Django's in Python
# (as makemessages gives them to xgettext), as babel's keywords.
KEYWORDS = {"gettext": None, "ngettext": (1, 2), "pgettext": ((1, "c"), 2), "npgettext": ((1, "c"), 2, 3)}
KEYWORDS |= {
    "_": None,
    "gettext_lazy": None,
    "gettext_noop": None,
    "ngettext_lazy": (1, 2),
    "pgettext_lazy": ((1, "c"), 2),
    "npgettext_lazy": ((1, "c"), 2, 3),
}
PLACEHOLDER = re.compile(r"%\([a-z_0-9]+\)[sd]|%%")


def sources():
    """(path, Python source to extract from): the sheet templates as `templatize` writes them, the
    sheets app's modules and the engine's."""
    for path in sorted(SHEET_TEMPLATES.rglob("*")):
        if path.is_file():
            yield path, translation.templatize(path.read_text(encoding="utf-8"), origin=str(path))
    for path in sorted([*SHEET_MODULES.rglob("*.py"), *ENGINE_MODULES.rglob("*.py")]):
        if "migrations" not in path.parts:
            yield path, path.read_text(encoding="utf-8")


def template_messages() -> dict[tuple[str, str | None], str]:
    """(msgid, context) -> the first file that uses it, for every message the sheets mark."""
    found = {}
    for path, source in sources():
        for _line, message, _comments, context in extract("python", io.BytesIO(source.encode()), KEYWORDS):
            msgid = message[0] if isinstance(message, tuple) else message
            found.setdefault((msgid, context), str(path.relative_to(settings.BASE_DIR)))
    return found


def po_catalogue():
    with PO.open("rb") as file:
        return read_po(file, locale="fil")


def entries(catalogue) -> list:
    return [message for message in catalogue if message.id]  # the header has an empty id


def strings(message) -> tuple[str, ...]:
    return tuple(message.string) if isinstance(message.string, tuple | list) else (message.string,)


def ids(message) -> tuple[str, ...]:
    return tuple(message.id) if isinstance(message.id, tuple | list) else (message.id,)


def test_the_sheets_mark_messages_for_translation():
    assert SHEET_TEMPLATES.is_dir()
    assert len(template_messages()) > 20


def test_every_message_of_the_sheets_is_in_the_catalogue():
    in_catalogue = {(ids(message)[0], message.context) for message in entries(po_catalogue())}
    missing = {key: where for key, where in template_messages().items() if key not in in_catalogue}
    assert not missing, (
        "Not in locale/fil/LC_MESSAGES/django.po (run makemessages, see the README, and translate): "
        + "; ".join(f"{where}: {msgid!r}" for (msgid, _), where in sorted(missing.items()))
    )


def test_the_catalogue_holds_only_messages_of_the_sheets():
    used = set(template_messages())
    unused = [ids(m)[0] for m in entries(po_catalogue()) if (ids(m)[0], m.context) not in used]
    assert not unused, f"In the catalogue but used by no sheet (remove them): {unused}"


def test_no_entry_is_untranslated_or_fuzzy():
    catalogue = po_catalogue()
    assert not catalogue.fuzzy, "the header is marked fuzzy: msgfmt would leave it out"
    assert catalogue.obsolete == {}, "obsolete (#~) entries: remove them"
    untranslated = [ids(m)[0] for m in entries(catalogue) if not all(s.strip() for s in strings(m))]
    fuzzy = [ids(m)[0] for m in entries(catalogue) if m.fuzzy]
    assert not untranslated and not fuzzy, f"untranslated: {untranslated}; fuzzy: {fuzzy}"


@pytest.mark.parametrize("dealer", ["facilitator", "dealer"])
def test_a_paytable_line_reads_each_patterns_players_words_in_filipino_from_the_catalogue(dealer):
    translated = {ids(m)[0]: m.string for m in entries(po_catalogue()) if m.context is None}
    for pattern, words in PATTERN_WORDS.items():
        line = PaytableLine(pattern, Odds(Decimal(1)), dealer)
        with translation.override("fil"):
            who = translated[dealer]
            assert (line.label, line.description) == (
                translated[words.player],
                translated[words.description] % {"dealer": who},
            ), pattern
        with translation.override("en"):
            assert (line.label, line.description) == (words.player, words.description % {"dealer": dealer})


def test_the_header_names_filipino_and_its_plural_forms():
    catalogue = po_catalogue()
    assert str(catalogue.locale) == "fil"
    assert catalogue.num_plurals == 2


def test_each_translation_keeps_the_placeholders_of_its_msgid():
    """Every %(name)s of the msgid, none it lacks, and a percent sign written %% where the message is
    formatted (a lone % would break {% blocktranslate %})."""
    problems = []
    for message in entries(po_catalogue()):
        wanted = {name for msgid in ids(message) for name in PLACEHOLDER.findall(msgid)}
        got = {name for string in strings(message) for name in PLACEHOLDER.findall(string)}
        lone_percent = message.python_format and any("%" in PLACEHOLDER.sub("", s) for s in strings(message))
        if got != wanted or lone_percent:
            problems.append(f"{ids(message)[0]!r}: {strings(message)!r}")
    assert not problems, "\n".join(problems)


def messages_of(catalogue) -> dict:
    """(msgid(s), context) -> translation(s), as tuples (read_mo gives a plural's as lists)."""
    return {(ids(m), m.context): tuple(strings(m)) for m in entries(catalogue) if not m.fuzzy}


def test_the_committed_mo_says_what_the_po_says():
    compiled = io.BytesIO()
    write_mo(compiled, po_catalogue())
    compiled.seek(0)
    with MO.open("rb") as file:
        committed = read_mo(file)
    from_po = read_mo(compiled)
    assert messages_of(committed) == messages_of(from_po), (
        "locale/fil/LC_MESSAGES/django.mo is stale: compile django.po again (see the README)"
    )
    assert len(messages_of(committed)) == len(entries(po_catalogue()))
    assert (str(committed.locale), committed.plural_forms) == (str(from_po.locale), from_po.plural_forms)


def test_django_gives_the_filipino_under_override():
    message = next(
        m for m in entries(po_catalogue()) if isinstance(m.id, str) and m.context is None and m.string != m.id
    )
    with translation.override("fil"):
        assert translation.gettext(message.id) == message.string
        assert translation.get_language() == "fil"
    with translation.override("en"):
        assert translation.gettext(message.id) == message.id
    info = translation.get_language_info("fil")
    assert (info["name"], info["name_local"], info["bidi"]) == ("Filipino", "Filipino", False)


def test_django_gives_the_plural_forms():
    plurals = [m for m in entries(po_catalogue()) if isinstance(m.id, tuple | list) and m.context is None]
    if not plurals:
        pytest.skip("the sheet templates use no plural message")
    message = plurals[0]
    with translation.override("fil"):
        assert translation.ngettext(*message.id, 1) == message.string[0]
        assert translation.ngettext(*message.id, 8) == message.string[1]


@pytest.mark.django_db
def test_the_portal_stays_english_whatever_the_browser_asks():
    response = Client().get("/accounts/login/", HTTP_ACCEPT_LANGUAGE="fil")
    assert response.status_code == 200
    assert '<html lang="en">' in response.content.decode()
    assert translation.get_language() != "fil"


@pytest.mark.parametrize("amount", ["0.50", "5.00", "1234.50", "2500000.00"])
def test_numbers_and_money_follow_filipino_formatting(amount):
    """Django has no formats module for "fil": under override it falls back to the defaults, "." for
    decimals and "," between thousands, which is how Filipino writes numbers (CLDR, through babel). The
    sheets' money text (core/money.py) is the same in both languages."""
    value = Decimal(amount)
    filipino = format_decimal(value, format="#,##0.00", locale="fil")
    with translation.override("fil"):
        assert Template("{{ value|floatformat:'2g' }}").render(Context({"value": value})) == filipino
        assert money_text(value) == filipino
    assert format_decimal(value, format="#,##0.00", locale="en") == filipino

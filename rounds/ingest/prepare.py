"""Reading a round document into what will be stored, before anything is locked or written:
the parsed record, the document's text and digest, its table, configuration and rules, and its
replay (worked out when first needed)."""

import hashlib
from dataclasses import dataclass, field

import orjson
from django.conf import settings
from django.utils import timezone

from blackjack.document import RoundFormatError, RoundRecord, parse_round
from blackjack.replay import ReplayResult, replay
from blackjack.rules import RuleSet, preset
from tables.models import Table, TableConfiguration
from tables.selectors import configuration_in_force

from ..bulk import JsonText, json_text


@dataclass
class Prepared:
    record: RoundRecord
    document: JsonText
    digest: str
    table: Table
    configuration: TableConfiguration | None
    rules: RuleSet
    result: ReplayResult | None = None  # replayed when first needed (`replayed`)
    findings: list[dict] = field(default_factory=list)


def document_digest(document: dict) -> str:
    return hashlib.sha256(json_text(document).encode()).hexdigest()


def prepare(document: object, where: str, plain_json: bool = False) -> Prepared:
    """The document read and checked: RoundFormatError (its field within `where`) if it is not a
    round. plain_json: see `rounds_ingest`."""
    try:
        record = parse_round(document, strict_cards=True)
        encoded = _orjson_text(document) if plain_json else None
        if encoded is None:
            try:
                text = json_text(document)
                encoded = text.encode()
            except UnicodeEncodeError:
                raise RoundFormatError(
                    _lone_surrogate_at(document) or "document",
                    "holds a lone surrogate (such as \\ud800): not Unicode text",
                ) from None
            except (TypeError, ValueError) as error:
                raise RoundFormatError("document", f"is not JSON: {error}") from None
        else:
            text = encoded.decode()
        _refuse_times_ahead_of_the_clock(record)
        table = Table.objects.filter(code=record.table).first()
        if table is None:
            raise RoundFormatError("table", f"no table {record.table!r} is configured in Pitboss")
    except RoundFormatError as error:
        raise error.within(where) if where else error from None
    configuration = configuration_in_force(table, record.opened_at)
    rules = configuration.rule_set if configuration else preset(table.game)
    return Prepared(
        record=record,
        document=JsonText(document, text),
        digest=hashlib.sha256(encoded).hexdigest(),
        table=table,
        configuration=configuration,
        rules=rules,
    )


def replayed(item: Prepared) -> ReplayResult:
    """The round's replay, worked out once, and not before it is needed (an identical resend never
    is)."""
    if item.result is None:
        item.result = replay(item.record, item.rules)
    return item.result


def _refuse_times_ahead_of_the_clock(record: RoundRecord) -> None:
    """A round is played before it is sent: a time past the server's clock (beyond the tolerance for
    clocks that differ a little) would judge its bets against limits not in force yet."""
    tolerance = settings.PITBOSS_ROUND_CLOCK_TOLERANCE
    latest = timezone.now() + tolerance
    for name in ("opened_at", "closed_at"):
        moment = getattr(record, name)
        if moment is not None and moment > latest:
            minutes = int(tolerance.total_seconds() // 60)
            raise RoundFormatError(
                name,
                f"{moment.isoformat()} lies more than {minutes} minutes past the server's clock "
                f"({timezone.now().isoformat(timespec='seconds')}): a round is sent after it is played",
            )


def _lone_surrogate_at(value: object, where: str = "document") -> str | None:
    """Where in the document a text (a key or a value) holds a lone surrogate, which JSON's
    \\uXXXX escapes can carry and UTF-8 cannot: "bets[0].bet_id" (for a key, its object)."""
    if isinstance(value, dict):
        for key, item in value.items():
            if not _is_unicode(key):
                return where
            found = _lone_surrogate_at(item, key if where == "document" else f"{where}.{key}")
            if found:
                return found
    elif isinstance(value, list):
        for index, item in enumerate(value):
            found = _lone_surrogate_at(item, f"{where}[{index}]")
            if found:
                return found
    elif isinstance(value, str) and not _is_unicode(value):
        return where
    return None


def _is_unicode(text: str) -> bool:
    try:
        text.encode()
    except UnicodeEncodeError:
        return False
    return True


def _orjson_text(document: object) -> bytes | None:
    """`json_text(document)` as UTF-8, by orjson, for a document read from JSON without floats (the
    only values the two write differently); None where orjson cannot (an integer beyond 64 bits)."""
    try:
        return orjson.dumps(document)
    except orjson.JSONEncodeError:
        return None

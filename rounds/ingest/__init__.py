"""Taking in round documents from game servers: check, replay, store.

`round_ingest` is the one way a round enters Pitboss. A document that is not a round is refused
(RoundFormatError, a 400 naming the field) and nothing of it is stored; an identical resend
answers with the stored round; a different document under a known round id is refused
(RoundConflict, a 409). Everything else is stored as received, with normalised rows and every
finding: the engine's, the player's limits, and the integrity of the shoe across its rounds.

`rounds_ingest` takes a batch the same way, in two steps: every document is read and checked
first (one that is not a round refuses the whole batch, its field named `rounds[3].bets[2].stake`,
and nothing of the batch is stored), then all are stored in one transaction, each round in its
own savepoint, so that a conflict refuses only its own round and the others are stored.

The steps, a module each: `prepare` (a document read into what will be stored), `findings` (what
ingest finds beyond the replay), `players` (read and created in one statement each), `store` (a
round written, or answered with the stored one) and `writer` (`RoundWriter`, the COPYs of one
round).

Speed (a 5,000-player Boundless round, `make bench`): the rows go in by COPY (`rounds/bulk.py`),
the document is encoded once (its digest and its column share the text), players are read and
created in one statement each, a limit is worked out once per distinct (kind, player standing),
and the cyclic garbage collector waits while the round's many small objects are alive.

Counted for /metrics (core.metrics): the rounds newly stored and their bets by game, and the
conflicts, once the transaction commits (a batch rolled back counts nothing); a document refused for
its format, when refused.
"""

from collections import Counter

from django.db import transaction

from blackjack.document import RoundFormatError
from blackjack.replay import cyclic_collector_paused
from core.metrics import BETS_INGESTED, ROUNDS_INGESTED, ROUNDS_REFUSED

from ..models import Shoe
from ..table_state import TABLE_CLOSED, opened_while_closed
from .findings import finding
from .prepare import document_digest, prepare
from .store import IngestResult, RoundConflict, ingest_one, shoes_locked

__all__ = [
    "IngestResult",
    "RoundConflict",
    "RoundFormatError",
    "document_digest",
    "round_ingest",
    "rounds_ingest",
]


def round_ingest(*, document: object, plain_json: bool = False) -> IngestResult:
    """Store one round document: IngestResult(round, created); RoundFormatError; RoundConflict."""
    result = rounds_ingest(documents=[document], batch=False, plain_json=plain_json)[0]
    if result.conflict is not None:
        raise result.conflict
    return result


def rounds_ingest(*, documents: list, batch: bool = True, plain_json: bool = False) -> list[IngestResult]:
    """Store a batch of round documents, each on its own; a conflict is a result, not an error.

    Every document is read first: one that is not a round raises RoundFormatError naming it
    (`rounds[3].bets[2].stake`; with batch=False the field alone) and nothing is stored.
    plain_json: the documents were read from JSON text that held no float (the API's parser says
    so), so orjson encodes them to the same text as `bulk.json_text`, ten times faster.
    """
    try:
        return _rounds_ingest(documents, batch, plain_json)
    except RoundFormatError:
        ROUNDS_REFUSED.labels("format").inc()
        raise


def _rounds_ingest(documents: list, batch: bool, plain_json: bool) -> list[IngestResult]:
    with cyclic_collector_paused():
        prepared = [
            prepare(document, f"rounds[{index}]" if batch else "", plain_json)
            for index, document in enumerate(documents)
        ]
        closed = opened_while_closed([(item.table, item.record.opened_at) for item in prepared])
        for item, message in zip(prepared, closed, strict=True):
            item.findings += [finding(TABLE_CLOSED, message)] if message else []
        with transaction.atomic():
            shoes, new_shoes = shoes_locked(prepared)
            results = []
            for index, item in enumerate(prepared):
                try:
                    results.append(ingest_one(item, shoes[item.record.shoe]))
                except RoundFormatError as error:
                    raise error.within(f"rounds[{index}]") if batch else error from None
                except RoundConflict as conflict:
                    results.append(IngestResult(None, created=False, conflict=conflict))
            # A shoe first seen in a refused document is not kept: it would bind the shoe's code to
            # this table before any of its rounds was accepted.
            Shoe.objects.filter(pk__in=[shoes[code].pk for code in new_shoes], rounds__isnull=True).delete()
            transaction.on_commit(lambda: _count(prepared, results))
            return results


def _count(prepared: list, results: list[IngestResult]) -> None:
    rounds, bets, conflicts = Counter(), Counter(), 0
    for item, result in zip(prepared, results, strict=True):
        if result.created:
            rounds[item.table.game] += 1
            bets[item.table.game] += len(item.record.bets)
        conflicts += result.conflict is not None
    for game, count in rounds.items():
        ROUNDS_INGESTED.labels(game).inc(count)
        BETS_INGESTED.labels(game).inc(bets[game])
    if conflicts:
        ROUNDS_REFUSED.labels("conflict").inc(conflicts)

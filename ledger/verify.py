"""Verify the ledger against the rows it records (manage.py ledger_verify, the daily task).

For each chain: every entry's hash and its link to the one before are recomputed (an entry edited,
or one deleted, breaks them); every source row is read again, from the database or, for a month in
the archive, from its files (archive.ledger_sources, checked against their manifest first), and
re-hashed: a row changed, deleted, or written behind the application (no entry) is named; and every
signed day head is checked against its signature and against the chain, which catches a chain
rewritten whole with every hash recomputed (that needs the key).
"""

import hmac
from dataclasses import dataclass
from datetime import date

from .chains import GENESIS_SHA256, Chain, archived_sources, chains, content_sha256, entry_sha256
from .models import LedgerDayHead, LedgerEntry
from .signing import head_signature

SOURCE_CHANGED = "source row changed"
SOURCE_DELETED = "source row deleted"
SOURCE_UNREADABLE = "source row's archived month could not be read"
NOT_IN_LEDGER = "source row not in the ledger (inserted behind the application)"
ENTRY_EDITED = "ledger entry edited (its hash does not recompute)"
LINK_BROKEN = "ledger entry edited (its link to the entry before does not recompute)"
SEQUENCE_GAP = "ledger entries missing before it (deleted)"
SIGNATURE_WRONG = "day head signature does not match"
CHUNK = 5_000


@dataclass(frozen=True)
class Problem:
    chain: str
    what: str
    sequence: int | None = None
    source_pk: int | None = None

    def __str__(self) -> str:
        where = self.chain
        if self.sequence is not None:
            where += f" #{self.sequence}"
        if self.source_pk is not None:
            where += f" (source {self.source_pk})"
        return f"{where}: {self.what}"


def ledger_verify(*, kinds: list[str] | None = None, month: date | None = None) -> list[Problem]:
    """The problems found (none: the ledger and its sources agree). `kinds`: only these chains;
    `month`: only the source rows of that month (and their entries); links and heads are always
    checked over the whole chain."""
    problems = []
    for chain in chains():
        if kinds is None or chain.kind in kinds:
            problems += chain_verify(chain, month)
    return problems


def chain_verify(chain: Chain, month: date | None) -> list[Problem]:
    problems, entries, edited = _links_verify(chain, month)
    problems += _sources_verify(chain, month, entries, edited)
    problems += _heads_verify(chain)
    return problems


def _links_verify(chain: Chain, month: date | None):
    """The whole chain's hashes and links; the entries of `month` (all) by source pk, and the
    sequences of those edited."""
    problems, entries, edited = [], {}, set()
    expected_sequence, previous = 1, GENESIS_SHA256
    rows = LedgerEntry.objects.filter(chain=chain.kind).order_by("sequence")
    for entry in rows.iterator(chunk_size=CHUNK):
        where = {"sequence": entry.sequence, "source_pk": entry.source_pk}
        if entry.sequence != expected_sequence:
            problems.append(Problem(chain.kind, SEQUENCE_GAP, **where))
        recomputed = entry_sha256(
            chain.kind,
            entry.sequence,
            entry.source_pk,
            entry.source_month,
            entry.content_sha256,
            entry.previous_sha256,
        )
        if recomputed != entry.entry_sha256:
            problems.append(Problem(chain.kind, ENTRY_EDITED, **where))
            edited.add(entry.sequence)
        elif entry.previous_sha256 != previous:
            problems.append(Problem(chain.kind, LINK_BROKEN, **where))
        if month is None or entry.source_month == month:
            entries[entry.source_pk] = entry
        expected_sequence, previous = entry.sequence + 1, entry.entry_sha256
    return problems, entries, edited


def _sources_verify(chain: Chain, month: date | None, entries: dict, edited: set) -> list[Problem]:
    hot = chain.source_rows()
    if month is not None:
        hot = chain.in_month(hot, month)
    hashes = {row.pk: (content_sha256(chain, row), "") for row in hot.iterator(chunk_size=CHUNK)}
    problems, unreadable = [], set()
    for reader in archived_sources:
        for source in reader(chain, month):
            if source.problem is not None:
                problems.append(Problem(chain.kind, f"archived month {source.label}: {source.problem}"))
                unreadable.add(source.month)
                continue
            for row in source.rows:
                hashes[row.pk] = (content_sha256(chain, row), f" (archived: {source.label})")
    for source_pk, entry in entries.items():
        where = {"sequence": entry.sequence, "source_pk": source_pk}
        found = hashes.pop(source_pk, None)
        if entry.sequence in edited:
            continue  # its content hash cannot be trusted: the entry itself is named
        if found is None:
            what = SOURCE_UNREADABLE if entry.source_month in unreadable else SOURCE_DELETED
            problems.append(Problem(chain.kind, what, **where))
        elif found[0] != entry.content_sha256:
            problems.append(Problem(chain.kind, SOURCE_CHANGED + found[1], **where))
    for source_pk in sorted(hashes):
        if month is None or not LedgerEntry.objects.filter(chain=chain.kind, source_pk=source_pk).exists():
            problems.append(Problem(chain.kind, NOT_IN_LEDGER + hashes[source_pk][1], source_pk=source_pk))
    return problems


def _heads_verify(chain: Chain) -> list[Problem]:
    problems = []
    heads = LedgerDayHead.objects.filter(chain=chain.kind).order_by("day")
    for head in heads:
        signature = head_signature(head.day, chain.kind, head.sequence, head.entry_sha256)
        if not hmac.compare_digest(signature, head.signature):
            problems.append(Problem(chain.kind, f"{SIGNATURE_WRONG} ({head.day})", sequence=head.sequence))
            continue
        if head.sequence == 0:
            found = GENESIS_SHA256
        else:
            found = (
                LedgerEntry.objects.filter(chain=chain.kind, sequence=head.sequence)
                .values_list("entry_sha256", flat=True)
                .first()
            )
        if found != head.entry_sha256:
            what = f"chain differs from its signed head of {head.day}"
            problems.append(Problem(chain.kind, what, sequence=head.sequence))
    return problems

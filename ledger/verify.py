"""Verify the ledger against the rows it records (manage.py ledger_verify, the daily task).

For each chain: every entry's hash and its link to the one before are recomputed (an entry edited,
or one deleted, breaks them); every source row is read again, from the database or, for a month in
the archive, from its files (archive.ledger_sources, checked against their manifest first), and
re-hashed: a row changed, deleted, or written behind the application (no entry) is named; and every
signed day head is checked against its signature and against the chain, which catches a chain
rewritten whole with every hash recomputed (that needs the key).

A month whose archive was deleted under retention (its reader gives it with `deleted_on`) has no
rows left: its entries are no problem, and each chain says so once per month, in a note ("N entries
of 2015-03: their rows deleted under retention on <day> (DLX1 2015-03, ...)"), unless more of its
rows are missing than the deleted months' manifests said they held: that is a problem.
"""

import hmac
from collections import Counter, defaultdict
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
DELETED_UNDER_RETENTION = "their rows deleted under retention"
RETIRED_EXCESS = "source rows deleted otherwise"
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


def ledger_verify(
    *, kinds: list[str] | None = None, month: date | None = None, notes: list[str] | None = None
) -> list[Problem]:
    """The problems found (none: the ledger and its sources agree). `kinds`: only these chains;
    `month`: only the source rows of that month (and their entries); links and heads are always
    checked over the whole chain. `notes`, when given, gets what was found that is no problem
    (entries of months deleted under retention), in words."""
    problems = []
    for chain in chains():
        if kinds is None or chain.kind in kinds:
            problems += chain_verify(chain, month, notes if notes is not None else [])
    return problems


def chain_verify(chain: Chain, month: date | None, notes: list[str]) -> list[Problem]:
    problems, entries, edited = _links_verify(chain, month)
    problems += _sources_verify(chain, month, entries, edited, notes)
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
            entry.adopted,
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


def _sources_verify(
    chain: Chain, month: date | None, entries: dict, edited: set, notes: list[str]
) -> list[Problem]:
    hot = chain.source_rows()
    if month is not None:
        hot = chain.in_month(hot, month)
    hashes = {row.pk: (content_sha256(chain, row), "") for row in hot.iterator(chunk_size=CHUNK)}
    problems, unreadable, deleted = [], set(), defaultdict(list)
    for reader in archived_sources:
        for source in reader(chain, month):
            if source.deleted_on is not None:
                deleted[source.month].append(source)
                continue
            if source.problem is not None:
                problems.append(Problem(chain.kind, f"archived month {source.label}: {source.problem}"))
                unreadable.add(source.month)
                continue
            for row in source.rows:
                hashes[row.pk] = (content_sha256(chain, row), f" (archived: {source.label})")
    retired = Counter()
    for source_pk, entry in entries.items():
        where = {"sequence": entry.sequence, "source_pk": source_pk}
        found = hashes.pop(source_pk, None)
        if entry.sequence in edited:
            continue  # its content hash cannot be trusted: the entry itself is named
        if found is None and entry.source_month in deleted and entry.source_month not in unreadable:
            retired[entry.source_month] += 1
        elif found is None:
            what = SOURCE_UNREADABLE if entry.source_month in unreadable else SOURCE_DELETED
            problems.append(Problem(chain.kind, what, **where))
        elif found[0] != entry.content_sha256:
            problems.append(Problem(chain.kind, SOURCE_CHANGED + found[1], **where))
    for retired_month in sorted(retired):
        problems += _retired(chain, retired_month, retired[retired_month], deleted[retired_month], notes)
    for source_pk in sorted(hashes):
        if month is None or not LedgerEntry.objects.filter(chain=chain.kind, source_pk=source_pk).exists():
            problems.append(Problem(chain.kind, NOT_IN_LEDGER + hashes[source_pk][1], source_pk=source_pk))
    return problems


def _retired(chain: Chain, month: date, count: int, sources: list, notes: list[str]) -> list[Problem]:
    """The entries of `month` whose rows are gone with its archive deleted under retention: a note,
    or a problem when more are missing than the deleted months held."""
    held = sum(source.held for source in sources)
    days = " and ".join(sorted({f"{source.deleted_on}" for source in sources}))
    labels = ", ".join(source.label for source in sources)
    if count > held:
        what = (
            f"{count} entries of {month:%Y-%m} have no source row, but the months deleted under retention "
            f"({labels}) held {held} of its rows: {RETIRED_EXCESS}"
        )
        return [Problem(chain.kind, what)]
    entries = "1 entry" if count == 1 else f"{count} entries"
    notes.append(f"{chain.kind}: {entries} of {month:%Y-%m}: {DELETED_UNDER_RETENTION} on {days} ({labels})")
    return []


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

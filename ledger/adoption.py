"""Adoption: the rows written before the ledger existed (an existing deployment's earlier
adjustments, refunds, void lines, approved versions and limit changes) appended to their chains once,
by `manage.py ledger_adopt`, after upgrading to the version with the ledger and before the first
`ledger_verify`.

Per chain, under the chain's lock (ledger.services.chain_lock), in one transaction: every source row
the verify reads (ledger.chains: the database's, and through `archived_sources` the archived months'
files) that has no entry gets one, in primary key order, after the chain's last entry, in batches of
BATCH (bulk_create). Each such entry is marked `adopted` (in its hash too), and the run is kept per
chain (LedgerAdoption: who, when, how many, which sequences). A row with an entry already is left
alone: running it again adopts nothing. An archived month whose files cannot be read (its manifest
check fails) is not adopted from; it is named in the outcome, and the verify names it as well.
"""

from dataclasses import dataclass, field

from django.db import transaction
from django.utils import timezone

from .chains import Chain, archived_sources, chain_of, chains, content_sha256
from .models import LedgerAdoption, LedgerEntry
from .services import chain_head, chain_lock, entry_linked

BATCH = 5_000


@dataclass
class Adopted:
    """One chain's adoption: the entries appended, and the archived months that could not be read."""

    chain: str
    entries: int = 0
    first_sequence: int | None = None
    last_sequence: int | None = None
    unreadable: list[str] = field(default_factory=list)
    record: LedgerAdoption | None = None

    def __str__(self) -> str:
        if self.entries:
            sequences = f"#{self.first_sequence}-#{self.last_sequence}"
            text = f"{self.chain}: {self.entries} row(s) adopted ({sequences})"
        else:
            text = f"{self.chain}: nothing to adopt"
        for label in self.unreadable:
            text += f"; archived month {label} could not be read, not adopted from"
        return text


def ledger_adopt(kind: str | None = None, *, adopted_by: str, batch: int = BATCH) -> list[Adopted]:
    """Adopt every chain's rows without an entry (or chain `kind`'s alone); one outcome per chain."""
    selected = [chain_of(kind)] if kind is not None else chains()
    return [chain_adopt(chain, adopted_by=adopted_by, batch=batch) for chain in selected]


@transaction.atomic
def chain_adopt(chain: Chain, *, adopted_by: str, batch: int = BATCH) -> Adopted:
    chain_lock(chain.kind)
    outcome = Adopted(chain.kind)
    known = set(LedgerEntry.objects.filter(chain=chain.kind).values_list("source_pk", flat=True))
    pending = {}  # source pk -> (month, content hash)
    for row in chain.source_rows().order_by("pk").iterator(chunk_size=batch):
        if row.pk not in known:
            pending[row.pk] = (chain.month_of(row), content_sha256(chain, row))
    for reader in archived_sources:
        for source in reader(chain, None):
            if source.problem is not None:
                outcome.unreadable.append(source.label)
            for row in source.rows:
                if row.pk not in known and row.pk not in pending:
                    pending[row.pk] = (chain.month_of(row), content_sha256(chain, row))
    if not pending:
        return outcome
    sequence, previous = chain_head(chain.kind)
    outcome.first_sequence, now = sequence + 1, timezone.now()
    entries = []
    for source_pk in sorted(pending):
        month, content = pending[source_pk]
        sequence += 1
        entry = entry_linked(chain.kind, sequence, source_pk, month, content, previous, now, adopted=True)
        entries.append(entry)
        previous = entry.entry_sha256
        if len(entries) >= batch:
            LedgerEntry.objects.bulk_create(entries)
            entries = []
    LedgerEntry.objects.bulk_create(entries)
    outcome.entries, outcome.last_sequence = len(pending), sequence
    outcome.record = LedgerAdoption.objects.create(
        chain=chain.kind,
        adopted_at=now,
        adopted_by=adopted_by,
        entries=outcome.entries,
        first_sequence=outcome.first_sequence,
        last_sequence=outcome.last_sequence,
    )
    return outcome

"""Every write to the ledger: entries appended by the services that write their rows, in the same
transaction; each chain's head signed at the end of a gaming day.

A chain's head is read and its next entries written under a lock of that chain alone: on PostgreSQL
pg_advisory_xact_lock(<the chain's key>), held until the transaction ends, so that a limit change
never waits on a correction. On SQLite nothing more is needed: its transactions are IMMEDIATE here
(core.env.SQLITE_OPTIONS), one writer at a time.
"""

import hashlib
import logging
import threading
import time
from collections.abc import Iterable
from contextlib import contextmanager
from datetime import date

from django.db import connection, models, transaction
from django.utils import timezone

from core.gaming_day import gaming_day

from .chains import GENESIS_SHA256, chain_of, chains, content_sha256, entry_sha256
from .models import LedgerDayHead, LedgerEntry, LedgerVerification
from .signing import head_signature
from .verify import Problem, ledger_verify

logger = logging.getLogger(__name__)

_switch = threading.local()


@contextmanager
def appends_off():
    """No entry is appended inside: for the benchmark's runs without the ledger only."""
    _switch.off = True
    try:
        yield
    finally:
        _switch.off = False


def chain_lock_key(kind: str) -> int:
    """The chain's advisory lock: a signed 64-bit number from its name."""
    digest = hashlib.sha256(f"pitboss.ledger.{kind}".encode()).digest()
    return int.from_bytes(digest[:8], "big", signed=True)


def chain_lock(kind: str) -> None:
    """Hold the chain's lock until the transaction ends (PostgreSQL; see the module's docstring)."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(%s)", [chain_lock_key(kind)])


def chain_head(kind: str) -> tuple[int, str]:
    """(sequence, entry hash) of the chain's last entry; (0, zeros) for an empty chain."""
    head = (
        LedgerEntry.objects.filter(chain=kind).order_by("-sequence").values_list("sequence", "entry_sha256")
    ).first()
    return head or (0, GENESIS_SHA256)


@transaction.atomic
def ledger_append(kind: str, rows: Iterable[models.Model]) -> list[LedgerEntry]:
    """Append one entry per row (saved, so with its primary key), in primary key order, to the chain
    `kind`: one INSERT. Call it in the transaction that wrote the rows, right after writing them."""
    rows = sorted(rows, key=lambda row: row.pk)
    if not rows or getattr(_switch, "off", False):
        return []
    chain = chain_of(kind)
    chain_lock(kind)
    sequence, previous = chain_head(kind)
    now = timezone.now()
    entries = []
    for row in rows:
        sequence += 1
        entry = entry_linked(
            kind, sequence, row.pk, chain.month_of(row), content_sha256(chain, row), previous, now
        )
        entries.append(entry)
        previous = entry.entry_sha256
    return LedgerEntry.objects.bulk_create(entries)


def entry_linked(kind, sequence, source_pk, month, content, previous, now, *, adopted=False) -> LedgerEntry:
    """The entry (unsaved) that links a source row's content hash to the one before it in the chain:
    appended as rows are written, or adopted for rows written before their chain (ledger.adoption)."""
    digest = entry_sha256(kind, sequence, source_pk, month, content, previous, adopted=adopted)
    return LedgerEntry(
        chain=kind,
        sequence=sequence,
        source_pk=source_pk,
        source_month=month,
        content_sha256=content,
        previous_sha256=previous,
        entry_sha256=digest,
        adopted=adopted,
        created_at=now,
    )


@transaction.atomic
def ledger_sign_heads(day: date) -> list[LedgerDayHead]:
    """Sign each chain's head as of the end of gaming day `day` (its last entry appended before the
    next day's cut-off). A head signed already is kept as it was; returns the heads of the day."""
    ends_at = gaming_day(day).ends_at
    signed = set(LedgerDayHead.objects.filter(day=day).values_list("chain", flat=True))
    now = timezone.now()
    heads = []
    for chain in chains():
        if chain.kind in signed:
            continue
        head = (
            LedgerEntry.objects.filter(chain=chain.kind, created_at__lt=ends_at)
            .order_by("-sequence")
            .values_list("sequence", "entry_sha256")
            .first()
        ) or (0, GENESIS_SHA256)
        heads.append(
            LedgerDayHead(
                day=day,
                chain=chain.kind,
                sequence=head[0],
                entry_sha256=head[1],
                signature=head_signature(day, chain.kind, *head),
                signed_at=now,
            )
        )
    LedgerDayHead.objects.bulk_create(heads, ignore_conflicts=True)  # signed at once elsewhere: kept
    return day_heads(day)


def day_heads(day: date) -> list[LedgerDayHead]:
    """The signed heads of gaming day `day`, by chain: what the daily PDF and the day's pack print
    (chain, sequence, entry_sha256 and signature), so that a copy of them outside the database holds
    the ledger to what it was that day. Empty until ledger_sign_heads(day) has run (the daily task)."""
    return list(LedgerDayHead.objects.filter(day=day).order_by("chain"))


def verification_run(*, by: str, kinds: list[str] | None = None, month: date | None = None):
    """Run the verify and keep its outcome (LedgerVerification, with its notes); a problem is logged
    as an error. Returns (the record, the problems)."""
    started_at, started = timezone.now(), time.perf_counter()
    notes = []
    problems = ledger_verify(kinds=kinds, month=month, notes=notes)
    record = verification_record(
        started_at=started_at,
        by=by,
        kinds=kinds or [chain.kind for chain in chains()],
        month=month,
        problems=problems,
        seconds=time.perf_counter() - started,
        notes=notes,
    )
    for problem in problems:
        logger.error("Ledger verify (%s): %s", by, problem)
    return record, problems


@transaction.atomic
def verification_record(
    *,
    started_at,
    by: str,
    kinds: list[str],
    month: date | None,
    problems: list[Problem],
    seconds: float,
    notes: list[str] = (),
) -> LedgerVerification:
    return LedgerVerification.objects.create(
        started_at=started_at,
        by=by,
        chains=kinds,
        month=month,
        clean=not problems,
        problems=[str(problem) for problem in problems],
        notes=list(notes),
        seconds=seconds,
    )

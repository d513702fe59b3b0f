"""The chains of the ledger, one per kind of record, each registered by the app that owns its rows
in its AppConfig.ready() (the ledger imports none of them):

    from ledger.chains import Chain, register
    register(Chain("adjustment", Adjustment, ("id", "resettlement_id", ...), month_field="gaming_day"))

Then the app's service calls ledger.services.ledger_append("adjustment", rows) in the transaction
that writes the rows, right after writing them. `ledger_verify` re-hashes `rows()` (by default every
row of the model) and finds any not in the chain.

A report sign-off registers the same way from its app's ready(): its model, the fields that make
the sign-off (who, when, which report and its figures' digest), and `month_field`.

Archived rows: an app above (archive) registers a reader in `archived_sources`, which yields a
chain's rows of the months that are no longer in the database, read back from their files after
checking them against their manifest; and a month whose archive was deleted under retention as a
source without rows (`deleted_on`), whose entries the verify then reports as a note, not a problem.
"""

import hashlib
import json
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import UTC, date, datetime
from decimal import Decimal

from django.db import models

from core.gaming_day import gaming_day, gaming_day_of

GENESIS_SHA256 = "0" * 64


@dataclass(frozen=True)
class Chain:
    kind: str  # the chain's name: LedgerEntry.chain
    model: type[models.Model]
    fields: tuple[str, ...]  # the attnames hashed (the primary key's among them)
    month_field: str  # a DateField (a gaming day) or a DateTimeField (its gaming day's month)
    rows: Callable[[], models.QuerySet] | None = None  # every row that must be in the chain (default all)

    def source_rows(self) -> models.QuerySet:
        return self.rows() if self.rows is not None else self.model.objects.all()

    def month_of(self, row: models.Model) -> date:
        value = getattr(row, self.month_field)
        if isinstance(value, datetime):
            value = gaming_day_of(value if value.tzinfo else value.replace(tzinfo=UTC))
        return value.replace(day=1)

    def in_month(self, rows: models.QuerySet, month: date) -> models.QuerySet:
        after = month_after(month)
        field = self.model._meta.get_field(self.month_field)
        if isinstance(field, models.DateTimeField):
            low, high = gaming_day(month).starts_at, gaming_day(after).starts_at
        else:
            low, high = month, after
        return rows.filter(**{f"{self.month_field}__gte": low, f"{self.month_field}__lt": high})


def month_after(month: date) -> date:
    return date(month.year + month.month // 12, month.month % 12 + 1, 1)


@dataclass
class ArchivedSource:
    """One archived month's rows of a chain (unsaved instances), or why they could not be read."""

    label: str  # the archived month, as the problems name it ("DLX1 2026-03")
    month: date
    rows: list[models.Model]
    problem: str | None = None
    # A month whose archive was deleted under retention: no rows; the gaming day it was deleted on,
    # and how many of the chain's rows its manifest said it held.
    deleted_on: date | None = None
    held: int = 0


_chains: dict[str, Chain] = {}
# Readers of archived rows: reader(chain, month or None) yields ArchivedSource (archive.ledger_sources).
archived_sources: list[Callable[[Chain, date | None], Iterable[ArchivedSource]]] = []


def register(chain: Chain) -> None:
    """Register a chain (again: replaced, so that ready() may run twice)."""
    _chains[chain.kind] = chain


def chain_of(kind: str) -> Chain:
    try:
        return _chains[kind]
    except KeyError:
        raise LookupError(f"No ledger chain {kind!r}; there are: {', '.join(sorted(_chains))}.") from None


def chains() -> list[Chain]:
    return [_chains[kind] for kind in sorted(_chains)]


def canonical_value(field: models.Field, value):
    """A field's value as the content's JSON has it: Decimal as text with the field's places,
    datetimes in UTC (ISO 8601), dates ISO; the rest as JSON has it."""
    if value is None:
        return None
    if isinstance(value, Decimal):
        places = getattr(field, "decimal_places", None)
        return f"{value:.{places}f}" if places is not None else str(value)
    if isinstance(value, datetime):
        return (value if value.tzinfo else value.replace(tzinfo=UTC)).astimezone(UTC).isoformat()
    if isinstance(value, date):
        return value.isoformat()
    return value


def content_sha256(chain: Chain, row: models.Model) -> str:
    """SHA-256 of the row's registered fields as canonical JSON (sorted keys, no spaces)."""
    content = {}
    for name in chain.fields:
        field = chain.model._meta.get_field(name)
        content[name] = canonical_value(field, getattr(row, field.attname))
    text = json.dumps(content, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    return hashlib.sha256(text.encode()).hexdigest()


def entry_sha256(
    chain: str,
    sequence: int,
    source_pk: int,
    source_month: date,
    content: str,
    previous: str,
    adopted: bool = False,
) -> str:
    """An adopted entry (ledger_adopt) has "|adopted" at the end of what is hashed; the others not,
    so that an entry's mark cannot be changed without its hash, nor the entries before it."""
    text = f"{chain}|{sequence}|{source_pk}|{source_month.isoformat()}|{content}|{previous}"
    if adopted:
        text += "|adopted"
    return hashlib.sha256(text.encode()).hexdigest()

"""The ledger's rows of archived months (ArchiveConfig.ready() registers `archived_ledger_sources` in
ledger.chains.archived_sources): a month whose partitions are dropped keeps its adjustments and
refunds in its files alone, and `ledger_verify` re-hashes them from there.

Each month's manifest signature and each file read are checked first, as recall checks them
(archive.checks): a file changed or missing is not read, and its month is named instead.

A month deleted under retention (archive.retention) has no rows left anywhere: it is given without
rows, with the gaming day of its deletion and how many of the chain's rows its manifest said it held,
so that the verify reports its entries as deleted under retention rather than as rows deleted.
"""

from collections.abc import Iterator
from datetime import date

from core.gaming_day import gaming_day_of
from ledger.chains import ArchivedSource, Chain
from rounds.archive_damage import ArchiveUnreadable

from .errors import ArchiveError
from .models import ArchiveDeletion, ArchivedMonth, ArchiveStatus
from .month_files import MonthFiles, model_rows
from .slices import PARTS


def archived_ledger_sources(chain: Chain, month: date | None) -> Iterator[ArchivedSource]:
    part = next((part for part in PARTS if part.model is chain.model), None)
    if part is None:
        return
    statuses = (ArchiveStatus.DROPPED, ArchiveStatus.DELETED)
    records = ArchivedMonth.objects.filter(status__in=statuses).select_related("table")
    if month is not None:
        records = records.filter(month=month)
    for record in records.order_by("month", "table__code"):
        label = f"{record.table.code} {record.month:%Y-%m}"
        if record.status == ArchiveStatus.DELETED:
            yield deleted_source(record, label, part.name)
            continue
        try:
            with MonthFiles(record) as files:
                rows = files.select(part.name, "true", [])
        except (ArchiveUnreadable, ArchiveError, OSError) as error:
            yield ArchivedSource(label, record.month, [], problem=str(error))
            continue
        yield ArchivedSource(label, record.month, model_rows(chain.model, rows))


def deleted_source(record: ArchivedMonth, label: str, part_name: str) -> ArchivedSource:
    deletion = (
        ArchiveDeletion.objects.filter(table=record.table, month=record.month).order_by("-deleted_at").first()
    )
    deleted_at = deletion.deleted_at if deletion is not None else record.updated_at
    held = ((record.manifest or {}).get("files", {}).get(part_name) or {}).get("rows", 0)
    return ArchivedSource(label, record.month, [], deleted_on=gaming_day_of(deleted_at), held=held)

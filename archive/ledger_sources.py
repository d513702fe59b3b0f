"""The ledger's rows of archived months (ArchiveConfig.ready() registers `archived_ledger_sources` in
ledger.chains.archived_sources): a month whose partitions are dropped keeps its adjustments and
refunds in its files alone, and `ledger_verify` re-hashes them from there.

Each month's manifest signature and each file read are checked first, as recall checks them
(archive.checks): a file changed or missing is not read, and its month is named instead.
"""

from collections.abc import Iterator
from datetime import date

from ledger.chains import ArchivedSource, Chain
from rounds.archive_damage import ArchiveUnreadable

from .errors import ArchiveError
from .models import ArchivedMonth, ArchiveStatus
from .month_files import MonthFiles, model_rows
from .slices import PARTS


def archived_ledger_sources(chain: Chain, month: date | None) -> Iterator[ArchivedSource]:
    part = next((part for part in PARTS if part.model is chain.model), None)
    if part is None:
        return
    records = ArchivedMonth.objects.filter(status=ArchiveStatus.DROPPED).select_related("table")
    if month is not None:
        records = records.filter(month=month)
    for record in records.order_by("month", "table__code"):
        label = f"{record.table.code} {record.month:%Y-%m}"
        try:
            with MonthFiles(record) as files:
                rows = files.select(part.name, "true", [])
        except (ArchiveUnreadable, ArchiveError, OSError) as error:
            yield ArchivedSource(label, record.month, [], problem=str(error))
            continue
        yield ArchivedSource(label, record.month, model_rows(chain.model, rows))

"""Which sheet is public: a table's rule sheet is public from the table's first opening, and stays public
when the table closes or pauses.

A table is created closed (tables.services.table_create), and its availability log
(tables.models.TableStatusChange) records every opening, pause and closing. Its first opening is the
first change to or from "open": a log whose first such change is from "open" started with the table
already open (so did a table whose log is empty while it is not closed), which counts as open from the
start. A table never opened has no public sheet (404, "not open yet"); a time asked for (`?at=`) before
the first opening shows none either, as the table had no players then. Staff previews of a version
(sheets.views.VersionPreviewView) do not ask.
"""

from dataclasses import dataclass
from datetime import UTC, datetime

from django.db.models import Max, Q
from django.utils import timezone

from limits.models import TableLimit
from tables.choices import TableStatus
from tables.models import PublishedRtp, Table, TableStatusChange

from .content import RuleSheet, sheet_in_force

# A table open since before its log began: no moment before which its sheet was not public.
OPEN_FROM_THE_START = datetime.min.replace(tzinfo=UTC)


class NotOpenYet(Exception):
    """The table had not opened by the time asked for (or has never opened): no public sheet."""


@dataclass(frozen=True)
class PublicSheet:
    """A sheet in force at the time asked, and the moment from which it has read so publicly: the
    latest of its version's start, its limits' last change by then, the last published RTP entered for
    its version by then and the table's first opening. Any
    time from that moment to the time asked names the same sheet."""

    table_id: int
    sheet: RuleSheet
    in_force_from: datetime


def first_opened(table: Table) -> datetime | None:
    """When `table` first opened: OPEN_FROM_THE_START if it was open when its log began, None if never."""
    change = (
        TableStatusChange.objects.filter(table=table)
        .filter(Q(to_status=TableStatus.OPEN) | Q(from_status=TableStatus.OPEN))
        .order_by("changed_at", "id")
        .values("from_status", "changed_at")
        .first()
    )
    if change is None:  # open now, with no change to or from open: its log is empty
        return OPEN_FROM_THE_START if table.status == TableStatus.OPEN else None
    if change["from_status"] == TableStatus.OPEN:
        return OPEN_FROM_THE_START
    return change["changed_at"]


def public_sheet(table: Table, at: datetime | None = None) -> PublicSheet:
    """The public sheet of `table` at `at` (default: now). Raises NotOpenYet before the table's first
    opening, NoSheet (sheets.content) when no version is in force then."""
    opened = first_opened(table)
    if opened is None:
        raise NotOpenYet(f"{table.code} is not open yet: its rules are public from its first opening.")
    at = at or timezone.now()
    sheet = sheet_in_force(table, at)
    if at < opened:
        raise NotOpenYet(
            f"{table.code} was not open yet at {at.isoformat()}: its rules are public from its first "
            f"opening, {opened.isoformat()}."
        )
    limits_changed = TableLimit.history.filter(table_id=table.pk, history_date__lte=at).aggregate(
        last=Max("history_date")
    )["last"]
    published = PublishedRtp.objects.filter(
        configuration__table=table, configuration__version=sheet.version, entered_at__lte=at
    ).aggregate(last=Max("entered_at"))["last"]
    moments = (sheet.valid_from, limits_changed, published, opened)
    in_force_from = max(moment for moment in moments if moment)
    return PublicSheet(table.pk, sheet, in_force_from)

"""Whether a round's table was open when the round opened, by the game availability log
(tables.models.TableStatusChange): a round opened while its table was closed is a `table_closed`
finding, saying when, by whom and why the table was closed.

The status at a moment is the one the log's last change at or before it set; before the log's first
change, the status that change started from; with no change at all, the table's status (it never
changed). A paused table gets no finding: ingest itself pauses a table when the game server cancels
a round, and a supervisor pauses one to open an incident, while the server may still send rounds it
dealt meanwhile; those rounds belong to the incident, which is reviewed on its own. Only a closed
table is out of service.

A batch reads each table's log once: the changes from the last one at or before the batch's first
round to its last round, and the log's first change.
"""

from bisect import bisect_right
from collections.abc import Sequence
from datetime import UTC, datetime

from django.db.models import DateTimeField, Q, Subquery, Value
from django.db.models.functions import Coalesce

from tables.choices import TableStatus
from tables.models import Table, TableStatusChange

TABLE_CLOSED = "table_closed"

_DONE = {TableStatus.OPEN: "opened", TableStatus.PAUSED: "paused", TableStatus.CLOSED: "closed"}


def opened_while_closed(rounds: Sequence[tuple[Table, datetime]]) -> list[str | None]:
    """For each (table, opened_at): the message of its `table_closed` finding, or None."""
    moments: dict[int, list[datetime]] = {}
    for table, opened_at in rounds:
        moments.setdefault(table.pk, []).append(opened_at)
    logs = {pk: _changes(pk, min(times), max(times)) for pk, times in moments.items()}
    return [_closed_message(table, opened_at, logs[table.pk]) for table, opened_at in rounds]


def _changes(table_pk: int, first: datetime, last: datetime) -> list[TableStatusChange]:
    changes = TableStatusChange.objects.filter(table_id=table_pk)
    in_force_at_first = (
        changes.filter(changed_at__lte=first).order_by("-changed_at", "-id").values("changed_at")
    )
    earliest = changes.order_by("changed_at", "id").values("pk")
    since = Coalesce(
        Subquery(in_force_at_first[:1]),
        Value(first, output_field=DateTimeField()),
        output_field=DateTimeField(),
    )
    return list(
        changes.filter(Q(changed_at__gte=since, changed_at__lte=last) | Q(pk=Subquery(earliest[:1])))
        .select_related("changed_by")
        .order_by("changed_at", "id")
    )


def _closed_message(table: Table, opened_at: datetime, changes: list[TableStatusChange]) -> str | None:
    in_force = bisect_right(changes, opened_at, key=lambda change: change.changed_at)
    if in_force:
        change = changes[in_force - 1]
        if change.to_status != TableStatus.CLOSED:
            return None
        why = f"closed at {_when(change.changed_at)} by {_who(change)}: {change.reason}"
    elif changes:
        first = changes[0]
        if first.from_status != TableStatus.CLOSED:
            return None
        why = f"not yet opened: first {_DONE[first.to_status]} at {_when(first.changed_at)} by {_who(first)}"
        why += f": {first.reason}"
    elif table.status == TableStatus.CLOSED:
        why = "it has never been opened: its availability log is empty"
    else:
        return None
    return f"Round opened at {_when(opened_at)} while table {table.code} was closed ({why})."


def _when(moment: datetime) -> str:
    return f"{moment.astimezone(UTC):%Y-%m-%d %H:%M:%S} UTC"


def _who(change: TableStatusChange) -> str:
    return change.changed_by.get_username() if change.changed_by else "the game server"

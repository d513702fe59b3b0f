"""History records as the pages show them: what changed against the record before."""

from decimal import Decimal

from core.money import money


def with_changes(records, key=lambda record: None, skip_unchanged=False, currency=""):
    """Each history record with what changed against the one before it (same `key`): `changes`, a
    (field, before, after) for each, amounts shown as money in `currency`.

    `skip_unchanged` leaves out updates that changed no tracked field (a table's status is kept
    in the availability log, not in its history, but saving it still writes a history row).
    """
    previous = {}
    shown = []
    for record in reversed(records):  # oldest first
        before = previous.get(key(record))
        record.changes = []
        if before is not None and record.history_type == "~":
            record.changes = [
                (change.field.replace("_", " "), _shown(change.old, currency), _shown(change.new, currency))
                for change in record.diff_against(before).changes
            ]
        previous[key(record)] = record
        if skip_unchanged and record.history_type == "~" and not record.changes:
            continue
        shown.append(record)
    return shown[::-1]


def _shown(value, currency: str) -> str:
    if isinstance(value, Decimal):  # the only decimals kept with history are stakes
        return money(value, currency)
    return "—" if value in ("", None) else str(value)

"""The table page's limits: each bet kind's stake range, and their changes. Registered in
tables.selectors.table_panels by LimitsConfig.ready() (tables never imports limits: apps depend downwards)."""

from tables.history import with_changes
from tables.selectors import TablePanel

from .choices import TABLE_LIMIT_KINDS
from .models import TableLimit


def table_limit_rows(table, configuration) -> dict:
    """A row for each kind the configuration in force offers or that has a limit (insurance follows
    from the main bet and has none): its limit or None, and whether it is offered."""
    offered = configuration.rule_set.offered_kinds if configuration else ()
    limits = {limit.kind: limit for limit in TableLimit.objects.filter(table=table)}
    rows = [
        {"kind": kind, "label": label, "limit": limits.get(kind), "offered": kind in offered}
        for kind, label in TABLE_LIMIT_KINDS
        if kind in offered or kind in limits
    ]
    return {"rows": rows}


def table_limit_changes(table, configuration) -> dict:
    records = list(
        TableLimit.history.filter(table_id=table.pk)
        .select_related("history_user")
        .order_by("-history_date", "-history_id")
    )
    return {"records": with_changes(records, key=lambda record: record.kind, currency=table.currency)}


TABLE_LIMITS = TablePanel("beside", "limits/includes/table_limits.html", table_limit_rows)
TABLE_LIMIT_CHANGES = TablePanel("history", "limits/includes/table_limit_changes.html", table_limit_changes)

"""The table page's link to its last daily report. Registered in tables.selectors.table_panels by
ReportsConfig.ready() (tables never imports reports: apps depend downwards)."""

from tables.selectors import TablePanel

from .models import DailyTableSummary
from .records import CURRENT_ROWS


def table_last_report(table, configuration) -> dict:
    """The table's last reported gaming day in a current run, and whether its RTP was flagged."""
    last = (
        DailyTableSummary.objects.filter(CURRENT_ROWS, table=table)
        .order_by("-day")
        .values("day", "run_id", "flagged", "findings")
        .first()
    )
    return {"table": table.code, "last": last}


LAST_REPORT = TablePanel("links", "reports/includes/table_links.html", table_last_report)

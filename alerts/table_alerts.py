"""Each table's unresolved alerts, for the floor's tiles and the tables pages: how many, the worst
severity, a link to them. Registered in tables.selectors.table_alert_sources by AlertsConfig.ready()."""

from django.db.models import Count, IntegerField, Max, OuterRef, Subquery
from django.urls import reverse

from tables.selectors import TableAlert, TableAlertSource

from .choices import UNRESOLVED, Severity
from .models import Alert


def annotate_open_alerts(tables):
    unresolved = Alert.objects.filter(table=OuterRef("pk"), status__in=UNRESOLVED).order_by().values("table")
    return tables.annotate(
        open_alerts=Subquery(unresolved.annotate(n=Count("pk")).values("n")[:1], output_field=IntegerField()),
        open_alerts_severity=Subquery(
            unresolved.annotate(worst=Max("severity")).values("worst")[:1], output_field=IntegerField()
        ),
    )


def open_alerts_alert(table) -> TableAlert | None:
    count = getattr(table, "open_alerts", None)
    if not count:
        return None
    severity = Severity(table.open_alerts_severity).label.lower()
    noun = "alert" if count == 1 else "alerts"
    url = f"{reverse('alerts:alert_list')}?table={table.code}&status=open&status=acknowledged"
    return TableAlert(f"{count} {noun} open ({severity})", url)


OPEN_ALERTS = TableAlertSource(annotate=annotate_open_alerts, alert=open_alerts_alert)

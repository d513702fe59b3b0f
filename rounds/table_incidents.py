"""The open incident of each table, for the tables pages: a table with an open incident is never shown
as just "Open". Registered in tables.selectors.table_alert_sources by RoundsConfig.ready() (tables never
imports rounds: apps depend downwards)."""

from django.db.models import OuterRef, Subquery
from django.urls import reverse

from tables.selectors import TableAlert, TableAlertSource

from .choices import IncidentKind, IncidentStatus
from .models import Incident


def annotate_open_incident(tables):
    """Each table's open incident (one at most: a constraint), its id and kind, in the tables' query."""
    open_incident = Incident.objects.filter(table=OuterRef("pk"), status=IncidentStatus.OPEN)
    return tables.annotate(
        open_incident_id=Subquery(open_incident.values("pk")[:1]),
        open_incident_kind=Subquery(open_incident.values("kind")[:1]),
    )


def open_incident_alert(table) -> TableAlert | None:
    pk = getattr(table, "open_incident_id", None)
    if pk is None:
        return None
    kind = dict(IncidentKind.choices).get(table.open_incident_kind, table.open_incident_kind).lower()
    return TableAlert(f"Incident {pk} open: {kind}", reverse("rounds:incident_detail", args=[pk]))


OPEN_INCIDENTS = TableAlertSource(annotate=annotate_open_incident, alert=open_incident_alert)

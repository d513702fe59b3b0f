"""Every write to round history after ingest: reviews, re-settlements, incidents."""

from django.db import transaction

from .choices import IncidentKind, IncidentStatus
from .models import Incident, IncidentNote, Round


@transaction.atomic
def incident_attach_cancelled_round(*, round_: Round) -> Incident:
    """A cancelled round that arrives by ingest joins the open incident on its table, or opens one."""
    incident = (
        Incident.objects.select_for_update().filter(table=round_.table, status=IncidentStatus.OPEN).first()
    )
    reason = round_.cancel_reason or "other"
    if incident is None:
        kind = reason if reason in IncidentKind.values else IncidentKind.OTHER
        incident = Incident.objects.create(table=round_.table, round=round_, kind=kind)
        IncidentNote.objects.create(
            incident=incident,
            text=f"Opened by the game server's cancelled round {round_.round_id} ({reason}).",
        )
    else:
        if incident.round_id is None:
            incident.round = round_
            incident.save(update_fields=["round"])
        IncidentNote.objects.create(
            incident=incident, text=f"The game server sent round {round_.round_id} as cancelled ({reason})."
        )
    return incident

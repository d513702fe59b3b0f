"""The table page's links to its rounds and incidents: today's rounds (and those with findings), its
open incidents. Registered in tables.selectors.table_panels by RoundsConfig.ready() (tables never
imports rounds: apps depend downwards)."""

from django.db.models import Count, Q
from django.utils import timezone

from core.gaming_day import gaming_day_of
from tables.selectors import TablePanel

from .choices import IncidentStatus
from .models import Incident, Round


def table_rounds_today(table, configuration) -> dict:
    today = gaming_day_of(timezone.now())
    counts = Round.objects.filter(table=table, gaming_day=today).aggregate(
        rounds=Count("pk"), with_findings=Count("pk", filter=Q(finding_count__gt=0))
    )
    return {
        "table": table.code,
        "day": today,
        "rounds": counts["rounds"],
        "with_findings": counts["with_findings"],
        "open_incidents": Incident.objects.filter(table=table, status=IncidentStatus.OPEN).count(),
    }


ROUNDS_TODAY = TablePanel("links", "rounds/includes/table_links.html", table_rounds_today)

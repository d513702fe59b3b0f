"""Shared by the ledger's tests: one correction of each kind and one change of each limit, made
through the services as the pages make them (on seed_demo's tables, whose versions 1 and limits are
in the ledger already), and the verify's problems in words."""

from dataclasses import dataclass
from decimal import Decimal

from django.core.management import call_command
from django.db import connection

from ledger.verify import ledger_verify
from limits.models import PersonalLimit, Player
from limits.services import personal_limit_set, table_limit_set
from rounds import services
from rounds.models import Adjustment, Incident, Refund, VoidLine
from tables.models import Table
from tests.fixtures import round_document
from tests.rounds.corrections_support import demo_user, ingest, second_supervisor, wrongly_paid


@dataclass
class Made:
    adjustment: Adjustment
    refund: Refund
    void_line: VoidLine
    personal_limit: PersonalLimit


def seeded() -> None:
    call_command("seed_demo", stdout=open("/dev/null", "w"))  # noqa: SIM115


def resettled(suffix: str = "-L") -> Adjustment:
    resettlement = services.resettlement_propose(
        round_=wrongly_paid(suffix), proposed_by=demo_user("compliance"), reason="paid short"
    )
    services.resettlement_approve(resettlement=resettlement, decided_by=demo_user("supervisor"), comment="ok")
    return resettlement.adjustments.get()


def one_of_each() -> Made:
    """A re-settlement (an adjustment), a cancelled round (its refunds), a void (its lines), a table
    limit and a personal limit changed."""
    adjustment = resettled()
    cancelled = ingest(round_document("classic-network-failure-refunds"))
    incident = Incident.objects.get(table=cancelled.table, status="open")
    services.incident_cancel_round(
        incident=incident, round_=cancelled, cancelled_by=demo_user("supervisor"), reason="server cancelled"
    )
    void = services.void_propose(
        round_=wrongly_paid("-V"), proposed_by=demo_user("supervisor"), reason="fault"
    )
    services.void_approve(void=void, decided_by=second_supervisor(), comment="seen")
    table_limit_set(
        table=Table.objects.get(code="CLS1"),
        kind="main",
        min_stake=Decimal("2"),
        max_stake=Decimal("999.5"),
        changed_by=demo_user("supervisor"),
        reason="quieter night",
    )
    player = Player.objects.filter(currency="EUR").first()
    personal = personal_limit_set(
        player=player, changed_by=demo_user("customer-service"), reason="asked", max_stake=Decimal("7")
    )
    return Made(
        adjustment=adjustment,
        refund=Refund.objects.filter(incident=incident).order_by("id").first(),
        void_line=VoidLine.objects.filter(void=void).order_by("id").first(),
        personal_limit=personal,
    )


def problems(**options) -> list[str]:
    return [str(problem) for problem in ledger_verify(**options)]


def sql(statement: str, params=()) -> int:
    with connection.cursor() as cursor:
        cursor.execute(statement, list(params))
        return cursor.rowcount

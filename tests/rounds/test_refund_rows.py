"""An incident's refunds are drawn by templates/rounds/includes/refund_table.html from the refunds,
not cell by cell by django-tables2: they must be, cell for cell, what django-tables2's own template
draws from RefundTable's columns."""

from decimal import Decimal

from django.template.loader import get_template
from django.test import RequestFactory

from limits.models import Player
from rounds.incident_views import RefundTable
from rounds.models import Bet, Incident, Refund
from tests.rounds.test_play_record_rows import a_bet
from tests.rounds.test_round_rows import rows_of


def a_refund(bet: Bet, amount: str) -> Refund:
    return Refund(incident=Incident(table=bet.round.table), bet=bet, amount=Decimal(amount))


def rendered(template_name: str, rows) -> str:
    request = RequestFactory().get("/rounds/incidents/1/")
    table = RefundTable(rows, prefix="refunds-")
    return get_template(template_name).render({"table": table, "request": request}, request)


def test_the_template_rows_are_django_tables2s_rows():
    blackjack = a_bet("B 2", kind="twenty_one_plus_three")
    blackjack.player = Player(external_id='P<"2">')
    rows = [
        a_refund(a_bet("B-1"), "20.00"),
        a_refund(blackjack, "50.00"),  # a blackjack already dealt, paid 3:2: not what was wagered
        a_refund(a_bet("B-3", kind="behind"), "20.00"),
    ]
    ours = rows_of(rendered("rounds/includes/refund_table.html", rows))
    theirs = rows_of(rendered("django_tables2/table.html", rows))
    assert len(ours) == len(rows)
    assert ours == theirs


def test_an_incident_without_refunds_is_told_so():
    assert "No refund: no round has been cancelled" in rendered("rounds/includes/refund_table.html", [])

"""The play record's rows are drawn by templates/rounds/includes/play_record_table.html from the
bets, not cell by cell by django-tables2: they must be, cell for cell, what django-tables2's own
template draws from PlayRecordTable's columns."""

from decimal import Decimal

from django.template.loader import get_template
from django.test import RequestFactory
from django.utils import timezone

from limits.models import Player
from rounds.models import Bet
from rounds.tables import PlayRecordTable
from tests.rounds.test_round_rows import rows_of
from tests.test_list_cells import a_round


def a_bet(bet_id: str, *, outcome="completed", **fields) -> Bet:
    bet = Bet(
        bet_id=bet_id,
        round=a_round(f"R-{bet_id}", outcome=outcome),
        player=Player(external_id="P<1>"),
        spot="1",
        kind=fields.pop("kind", "main"),
        stake=Decimal("10.00"),
        wagered=Decimal("20.00"),
        returned=Decimal("40.00"),
        computed_returned=fields.pop("computed_returned", Decimal("40.00")),
    )
    # play_record_bets' annotations
    bet.outcome = outcome
    bet.adjustment = fields.pop("adjustment", None)
    bet.refund = fields.pop("refund", None)
    bet.void = fields.pop("void", None)
    bet.breached = fields.pop("breached", False)
    assert not fields
    return bet


def rendered(template_name: str, rows) -> str:
    request = RequestFactory().get("/rounds/players/P1/")
    return get_template(template_name).render({"table": PlayRecordTable(rows), "request": request}, request)


def test_the_template_rows_are_django_tables2s_rows():
    rows = [
        a_bet("B-1"),
        a_bet("B 2", kind="twenty_one_plus_three", breached=True, computed_returned=Decimal("35.00")),
        a_bet("B-3", outcome="resettled", computed_returned=Decimal("45.00"), adjustment=Decimal("5.00")),
        a_bet("B-4", outcome="cancelled_in_incident", computed_returned=None, refund=Decimal("20.00")),
        a_bet("B-5", outcome="voided", void=Decimal("-20.00"), kind="behind"),
    ]
    ours = rows_of(rendered("rounds/includes/play_record_table.html", rows))
    theirs = rows_of(rendered("django_tables2/table.html", rows))
    assert len(ours) == len(rows)
    assert ours == theirs


def test_a_player_without_bets_is_told_so():
    ours = rendered("rounds/includes/play_record_table.html", [])
    assert "No bet matches." in ours


def test_times_follow_the_active_time_zone():
    with timezone.override("America/New_York"):
        ours = rows_of(rendered("rounds/includes/play_record_table.html", [a_bet("B-1")]))
        theirs = rows_of(rendered("django_tables2/table.html", [a_bet("B-1")]))
    assert ours == theirs

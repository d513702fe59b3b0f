"""A document that is not a round is refused, naming the field."""

import pytest

from blackjack.document import RoundFormatError, parse_round
from tests.engine.documents import changed
from tests.fixtures import round_document


def refusal(edit, strict_cards=False) -> str:
    document = changed(round_document("deluxe-split-double-play-behind"), edit)
    with pytest.raises(RoundFormatError) as error:
        parse_round(document, strict_cards=strict_cards)
    return error.value.field


@pytest.mark.parametrize(
    ("edit", "field"),
    [
        (lambda d: d.pop("round_id"), "round_id"),
        (lambda d: d.update(format=2), "format"),
        (lambda d: d.update(format=1.0), "format"),  # format 1 is the integer 1 (issue 16)
        (lambda d: d.update(status="done"), "status"),
        (lambda d: d.update(status="cancelled"), "cancel_reason"),
        (lambda d: d.update(number=0), "number"),
        (lambda d: d.update(opened_at="yesterday"), "opened_at"),
        (lambda d: d.update(opened_at=d["closed_at"], closed_at=d["opened_at"]), "closed_at"),
        (lambda d: d.update(dealer="9S 7H"), "dealer"),
        (lambda d: d["spots"][0].pop("player"), "spots[0].player"),
        (lambda d: d["spots"][1].update(spot=d["spots"][0]["spot"]), "spots[1].spot"),
        (lambda d: d["spots"][0]["hands"][0]["actions"].append("dance"), "spots[0].hands[0].actions[2]"),
        (lambda d: d["bets"][2].update(stake="-20.00"), "bets[2].stake"),
        (lambda d: d["bets"][2].update(stake="0.00"), "bets[2].stake"),
        (lambda d: d["bets"][2].update(stake="20.001"), "bets[2].stake"),
        (lambda d: d["bets"][2].update(stake=20.0), "bets[2].stake"),
        # Only ASCII digits (issue 16): Arabic-Indic and full-width digits were stored as amounts.
        (lambda d: d["bets"][2].update(stake="\u0662\u0660.00"), "bets[2].stake"),
        (lambda d: d["bets"][2].update(stake="\uff12\uff10.00"), "bets[2].stake"),
        (lambda d: d["bets"][2].update(kind="lucky_seven"), "bets[2].kind"),
        (lambda d: d["bets"][2].update(spot="9"), "bets[2].spot"),
        (lambda d: d["bets"][3].update(bet_id=d["bets"][0]["bet_id"]), "bets[3].bet_id"),
        (lambda d: d["bets"][3].update(follow_double="yes"), "bets[3].follow_double"),
    ],
)
def test_it_names_the_field_of_a_broken_document(edit, field):
    assert refusal(edit) == field


def test_it_refuses_something_that_is_not_an_object():
    with pytest.raises(RoundFormatError) as error:
        parse_round(["not", "a", "round"])
    assert error.value.field == "document"


def test_strict_cards_refuses_a_card_that_does_not_exist():
    assert refusal(lambda d: d["dealer"].__setitem__(1, "1X"), strict_cards=True) == "dealer[1]"
    assert refusal(lambda d: d["spots"][1]["hands"][0]["cards"].__setitem__(0, "as"), strict_cards=True) == (
        "spots[1].hands[0].cards[0]"
    )


def test_it_reads_automatic_decisions_with_what_was_requested():
    record = parse_round(
        changed(
            round_document("deluxe-surrender-auto-play"),
            lambda d: d["spots"][1]["hands"][0]["actions"].__setitem__(
                0, {"action": "auto_hit", "requested": "double"}
            ),
        )
    )
    action = record.spots[1].hands[0].actions[0]
    assert (action.name, action.auto, action.requested, action.label) == ("hit", True, "double", "auto_hit")

"""A refused round document leaves nothing behind (issue 16): a 409 conflict used to store its new
shoe, bound to its table, so that shoe's real rounds were then refused ("shoe belongs to table ...")."""

import pytest

from rounds.ingest import RoundConflict, round_ingest
from rounds.models import Round, Shoe
from tests.factories import table
from tests.fixtures import round_document

pytestmark = pytest.mark.django_db


def conflicting(document: dict, shoe: str) -> dict:
    """The same round id sent again with other content, in a shoe never seen before."""
    return {**document, "shoe": shoe, "cut_card": not document.get("cut_card", False)}


def test_a_conflict_stores_no_new_shoe():
    table("DLX1")
    document = round_document("deluxe-split-double-play-behind")
    round_ingest(document=document)
    shoes = set(Shoe.objects.values_list("code", flat=True))
    with pytest.raises(RoundConflict):
        round_ingest(document=conflicting(document, "NEW-SHOE-1"))
    assert set(Shoe.objects.values_list("code", flat=True)) == shoes
    assert Round.objects.count() == 1


def test_a_new_shoe_a_stored_round_uses_is_kept():
    table("DLX1")
    document = round_document("deluxe-split-double-play-behind")
    round_ingest(document=conflicting(document, "NEW-SHOE-2"))
    assert Shoe.objects.filter(code="NEW-SHOE-2").exists()

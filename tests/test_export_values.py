"""core.export_values reads each cell as django-tables2's `as_values()` does, through the ways a
column can name a value: a field with choices (its label), a relation that is empty on some rows, an
annotation some rows lack, a method, a value function taking the record."""

import io

import django_tables2 as tables
import pytest
from django.core.management import call_command

from core.export_values import table_values
from rounds.ingest import round_ingest
from rounds.models import Round
from rounds.review import round_review
from tests import factories
from tests.fixtures import round_documents

pytestmark = pytest.mark.django_db


class EveryKindOfCell(tables.Table):
    round_id = tables.Column()
    status = tables.Column()  # a field with choices: its label
    currency = tables.Column(accessor="table__currency")  # a related field with choices
    reviewer = tables.Column(accessor="reviewed_by__username")  # empty relation on unreviewed rounds
    codes = tables.Column(accessor="finding_codes_text")  # an annotation only some rows carry
    text = tables.Column(accessor="__str__")  # a method: called
    wagered = tables.Column()
    table_name = tables.Column(accessor="table__name", default="none")

    def value_wagered(self, value, record):
        return f"{value} {record.table.currency}"


def test_each_cell_is_what_as_values_gives():
    call_command("seed_demo", stdout=io.StringIO())
    for document in round_documents()[:4]:
        round_ingest(document=document)
    rounds = list(Round.objects.select_related("table", "reviewed_by").order_by("id"))
    round_review(round_=rounds[0], reviewed_by=factories.user("compliance"), comment="Seen.")
    rounds[0].refresh_from_db()
    rounds[1].finding_codes_text = "ACTION_OUT_OF_TURN"
    assert len({r.reviewed_by_id is None for r in rounds}) == 2

    fast = list(table_values(EveryKindOfCell(rounds)))
    assert fast == list(EveryKindOfCell(rounds).as_values())
    assert fast[1][1] == rounds[0].get_status_display()


class DictCells(tables.Table):
    round_id = tables.Column()
    currency = tables.Column(accessor="table__currency")
    reviewer = tables.Column(accessor="reviewed_by__username")
    missing = tables.Column(accessor="not_in_the_row", default="none")
    wagered = tables.Column()

    def value_wagered(self, value, record):
        return f"{value} {record['table__currency']}"


def test_each_cell_of_a_row_of_values_is_what_as_values_gives():
    """Rows of `QuerySet.values()`, as the round list exports them."""
    call_command("seed_demo", stdout=io.StringIO())
    for document in round_documents()[:3]:
        round_ingest(document=document)
    rounds = list(
        Round.objects.order_by("id").values("round_id", "table__currency", "reviewed_by__username", "wagered")
    )
    fast = list(table_values(DictCells(rounds)))
    assert fast == list(DictCells(rounds).as_values())
    assert [row[1] for row in fast[1:]] == [row["table__currency"] for row in rounds]

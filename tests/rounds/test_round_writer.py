"""The ingest package's contract with its callers and with the database: the names importers use,
and its one writer (`RoundWriter`): the ids it reserves are its rows' ids, in order, and rows the
database refuses raise Django's IntegrityError at the write, leaving nothing written and the
connection ready once the savepoint is rolled back (by COPY on PostgreSQL, bulk_create elsewhere)."""

import io

import pytest
from django.core.management import call_command
from django.db import IntegrityError, transaction

import rounds.ingest
from rounds.ingest.store import BET_COLUMNS
from rounds.ingest.writer import RoundWriter
from rounds.models import Bet, Finding
from tests.fixtures import round_document

pytestmark = pytest.mark.django_db

FINDING_FIELDS = ["round_id", "code", "bet_id", "spot", "hand", "message"]


@pytest.fixture
def stored_round(db):
    call_command("seed_demo", stdout=io.StringIO())
    return rounds.ingest.round_ingest(document=round_document("deluxe-split-double-play-behind")).round


def test_the_names_importers_use_come_from_the_package():
    from rounds.ingest import IngestResult, RoundConflict, RoundFormatError, round_ingest, rounds_ingest

    assert {"IngestResult", "RoundConflict", "RoundFormatError", "round_ingest", "rounds_ingest"} <= set(
        rounds.ingest.__all__
    )
    assert all(
        callable(name)
        for name in (IngestResult, RoundConflict, RoundFormatError, round_ingest, rounds_ingest)
    )


def test_the_writer_answers_the_ids_of_its_rows_in_their_order(stored_round):
    messages = [f"written {n}" for n in range(3)]
    bet = Bet.objects.filter(round=stored_round).order_by("pk").first()
    rows = [(stored_round.pk, "shoe_round_gap", bet.pk, "", None, message) for message in messages]

    ids = RoundWriter({Finding: len(rows)}).write(Finding, FINDING_FIELDS, rows)

    written = Finding.objects.filter(pk__in=ids).values_list("pk", "message", "bet_id", "round_id")
    assert sorted(written) == [
        (pk, message, bet.pk, stored_round.pk) for pk, message in zip(ids, messages, strict=True)
    ]


def test_rows_the_database_refuses_raise_integrity_error_and_leave_nothing(stored_round):
    bet = Bet.objects.filter(round=stored_round).order_by("pk").first()
    again = [getattr(bet, name) for name in BET_COLUMNS]  # a bet id that is already stored
    fresh = [*again[:1], f"{bet.bet_id}-fresh", *again[2:]]
    before = Bet.objects.count()

    with pytest.raises(IntegrityError), transaction.atomic():
        RoundWriter({Bet: 2}).write(Bet, BET_COLUMNS, [tuple(fresh), tuple(again)])

    assert Bet.objects.count() == before  # the connection answers, and the fresh row is gone too
    assert not Bet.objects.filter(bet_id=f"{bet.bet_id}-fresh").exists()

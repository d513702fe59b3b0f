"""The ingest package's contract with its callers and with the database: the names importers use,
and its one writer (`RoundWriter`): the ids it reserves are its rows' ids, in order, and rows the
database refuses raise Django's IntegrityError at the write, leaving nothing written and the
connection ready once the savepoint is rolled back (by COPY on PostgreSQL, bulk_create elsewhere)."""

import io
import json

import pytest
from django.core.management import call_command
from django.db import IntegrityError, transaction

import rounds.ingest
from rounds.ingest.store import BET_COLUMNS
from rounds.ingest.writer import RoundWriter
from rounds.models import Bet, BetKey, Finding
from tests.fixtures import round_document
from tests.rounds.test_big_rounds import boundless_round

pytestmark = pytest.mark.django_db

FINDING_FIELDS = ["round_id", "gaming_day", "code", "bet_id", "spot", "hand", "message"]


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
    rows = [
        (stored_round.pk, stored_round.gaming_day, "shoe_round_gap", bet.pk, "", None, message)
        for message in messages
    ]

    ids = RoundWriter({Finding: len(rows)}).write(Finding, FINDING_FIELDS, rows)

    written = Finding.objects.filter(pk__in=ids).values_list("pk", "message", "bet_id", "round_id")
    assert sorted(written) == [
        (pk, message, bet.pk, stored_round.pk) for pk, message in zip(ids, messages, strict=True)
    ]


def test_rows_the_database_refuses_raise_integrity_error_and_leave_nothing(stored_round):
    """A bet id another bet holds is refused by the registry (BetKey), the whole write with it."""
    bet = Bet.objects.filter(round=stored_round).order_by("pk").first()
    keys = [(f"{bet.bet_id}-fresh", stored_round.pk), (bet.bet_id, stored_round.pk)]
    before = BetKey.objects.count()

    with pytest.raises(IntegrityError), transaction.atomic():
        writer = RoundWriter({Bet: 2})
        ids = writer.write(Bet, BET_COLUMNS, [tuple(getattr(bet, name) for name in BET_COLUMNS)] * 2)
        writer.write(BetKey, ["bet_id", "round_id"], keys, ids=ids)

    assert BetKey.objects.count() == before  # the connection answers, and the fresh row is gone too
    assert not BetKey.objects.filter(bet_id=f"{bet.bet_id}-fresh").exists()
    assert not Bet.objects.filter(round=stored_round).exclude(pk__in=BetKey.objects.values("pk")).exists()


def test_each_bet_is_registered_under_its_own_id_whatever_order_the_registry_is_written_in(db):
    """Ingest writes the registry in bet-id order, not the document's (B10 sorts before B2): each
    key still carries its own bet's id and round."""
    call_command("seed_demo", stdout=io.StringIO())
    document = boundless_round(players=12)
    document_order = [bet["bet_id"] for bet in document["bets"]]
    assert document_order != sorted(document_order)  # the case this test is about

    round_ = rounds.ingest.round_ingest(document=json.loads(json.dumps(document))).round

    bets = set(Bet.objects.of_round(round_).values_list("pk", "bet_id", "round_id"))
    keys = set(BetKey.objects.filter(round_id=round_.pk).values_list("pk", "bet_id", "round_id"))
    assert len(bets) == len(document_order)
    assert keys == bets
    assert (
        list(Bet.objects.of_round(round_).order_by("pk").values_list("bet_id", flat=True)) == document_order
    )

"""One rule, read four ways: which bets were paid other than the engine computes (or cannot be
computed). The round page asks the database whether a round has any and lists them, the
re-settlement adjusts those it can compute, and an archived round's page asks DuckDB. Each must pick
exactly the bets whose `Bet.difference` is not 0."""

from decimal import Decimal

import duckdb
import pyarrow as pa
import pytest

from archive.slices import arrow_type
from rounds.correction_policy import corrections_present
from rounds.models import Bet
from rounds.querysets import PAID_OTHER_THAN_COMPUTED
from rounds.services.resettlements import bets_to_adjust
from tests.fixtures import round_document
from tests.rounds.corrections_support import demo, ingest, renamed, wrongly_paid  # noqa: F401

pytestmark = pytest.mark.usefixtures("demo")


def bet_ids(bets) -> set[str]:
    return {bet.bet_id for bet in bets}


@pytest.fixture
def mixed_round():
    """D23-1-W paid 5.00 short; D23-2-W uncomputed; D23-3-W overpaid 0.01 and wagered other than
    computed; the rest paid as computed."""
    round_ = wrongly_paid()
    Bet.objects.filter(bet_id="D23-2-W").update(computed_returned=None)
    third = Bet.objects.get(bet_id="D23-3-W")
    Bet.objects.filter(pk=third.pk).update(
        returned=third.computed_returned + Decimal("0.01"), wagered=third.computed_wagered + 1
    )
    return round_


def test_the_database_picks_the_bets_whose_difference_is_not_zero(mixed_round):
    bets = list(Bet.objects.of_round(mixed_round))
    expected = {bet.bet_id for bet in bets if bet.difference != 0}
    assert expected == {"D23-1-W", "D23-2-W", "D23-3-W"}
    assert len(bets) > len(expected)  # some were paid as computed
    assert bet_ids(Bet.objects.of_round(mixed_round).paid_other_than_computed()) == expected
    assert corrections_present(mixed_round).differing_bets


def test_a_re_settlement_adjusts_only_those_the_engine_computes(mixed_round):
    assert bet_ids(bets_to_adjust(mixed_round)) == {"D23-1-W", "D23-3-W"}
    assert bet_ids(Bet.objects.of_round(mixed_round).uncomputed()) == {"D23-2-W"}


def test_a_round_paid_as_computed_has_none():
    round_ = ingest(renamed(round_document("deluxe-split-double-play-behind"), "-R"))
    assert not Bet.objects.of_round(round_).paid_other_than_computed().exists()
    assert not corrections_present(round_).differing_bets


def test_duckdb_reads_the_rule_as_the_database_does(mixed_round):
    """An archived month's bets are read by DuckDB with the same condition (archive.recall), from
    columns of the types the archive writes (archive.slices)."""
    columns = ["bet_id", "returned", "computed_returned"]
    rows = list(Bet.objects.of_round(mixed_round).values_list(*columns))
    bets = pa.table(
        {
            name: pa.array([row[at] for row in rows], arrow_type(Bet._meta.get_field(name)))
            for at, name in enumerate(columns)
        }
    )
    database = duckdb.connect()
    database.register("bets", bets)
    picked = database.sql(f"SELECT bet_id FROM bets WHERE {PAID_OTHER_THAN_COMPUTED}").fetchall()
    ormed = Bet.objects.of_round(mixed_round).paid_other_than_computed()
    assert {bet_id for (bet_id,) in picked} == bet_ids(ormed) == {"D23-1-W", "D23-2-W", "D23-3-W"}

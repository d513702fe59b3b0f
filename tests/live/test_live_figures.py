"""The live figures ingest keeps, held to a recount from the stored rounds, bets, findings and
corrections after each kind of correction, on SQLite and on PostgreSQL; and what they cost ingest."""

import random
from datetime import UTC, datetime, timedelta
from decimal import Decimal

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from blackjack.findings import FINDING_CODES
from blackjack.rules import preset
from blackjack.simulate import simulate_shoe
from live.choices import FindingClass
from live.models import ROUNDS_ROW, LiveFigures
from live.services import SUMS, slot_of
from rounds.choices import FINDING_CLASSES, INGEST_FINDING_CODES, CorrectionKind, RoundStatus, finding_class
from rounds.live_figures import live_figures_rebuild, live_kept, live_recount
from rounds.models import Round
from rounds.services import (
    incident_cancel_round,
    incident_open,
    resettlement_approve,
    resettlement_propose,
    void_approve,
    void_propose,
)
from rounds.services.corrections import correction_record
from tests.fixtures import round_document, round_documents
from tests.rounds.corrections_support import demo, demo_user, ingest, renamed, second_supervisor, wrongly_paid

pytestmark = pytest.mark.django_db
__all__ = ["demo"]  # the fixture, used by name


def nonzero(figures: dict) -> dict:
    """Rows that hold anything: a round leaving leaves its kinds' rows at zero."""
    return {key: row for key, row in figures.items() if any(getattr(row, name) for name in SUMS)}


def assert_kept_equals_recount(table_pk: int, day) -> None:
    kept = nonzero(live_kept(table_pk=table_pk, day=day))
    recount = nonzero(live_recount(table_pk=table_pk, day=day))
    assert kept == recount
    assert kept  # something was counted


def boundless_rounds(shoe_id: str, count: int, *, cancel_rate: float = 0.1) -> list[Round]:
    documents = simulate_shoe(
        preset("boundless"),
        table="BND1",
        shoe_id=shoe_id,
        players=12,
        rng=random.Random(11),
        start=datetime.now(UTC) - timedelta(hours=1),
        cancel_rate=cancel_rate,
        dealt_by=lambda opened_at: "D-ANA" if opened_at.minute % 20 < 10 else "D-BEN",
    )
    return [ingest(document) for document in documents[:count]]


def test_a_day_of_rounds_is_kept_as_its_recount(demo):
    rounds = boundless_rounds("BND1-LIVE", 30)
    for document in round_documents():
        ingest(document)
    cancelled = [r for r in rounds if r.status == RoundStatus.CANCELLED]
    assert cancelled and len(cancelled) < len(rounds)
    for table_pk, day in {(r.table_id, r.gaming_day) for r in Round.objects.all()}:
        assert_kept_equals_recount(table_pk, day)
    # The table's rounds row of the day: every round, the cancelled ones, and the handle of the others.
    rows = LiveFigures.objects.filter(table_id=rounds[0].table_id, kind=ROUNDS_ROW, shoe="BND1-LIVE")
    assert sum(row.rounds for row in rows) == 30
    assert sum(row.cancelled for row in rows) == len(cancelled)
    played = [r for r in rounds if r.status == RoundStatus.COMPLETED]
    assert sum(row.wagered for row in rows) == sum(r.wagered for r in played)
    assert sum(row.returned for row in rows) == sum(r.returned for r in played)
    assert {row.slot for row in rows} == {slot_of(r.opened_at) for r in rounds}
    # Who dealt: each round counted under its dealer.
    for dealer in ("D-ANA", "D-BEN"):
        dealt = [r for r in rounds if r.dealt_by == dealer]
        assert dealt and sum(row.rounds for row in rows if row.dealt_by == dealer) == len(dealt)


def test_a_re_settlement_adds_its_adjustments(demo):
    round_ = wrongly_paid()
    before = LiveFigures.objects.get(table_id=round_.table_id, kind="main", shoe=round_.shoe.code)
    resettlement = resettlement_propose(
        round_=round_, proposed_by=demo_user("compliance"), reason="Short paid"
    )
    resettlement_approve(resettlement=resettlement, decided_by=demo_user("supervisor"), comment="Agreed")
    after = LiveFigures.objects.get(pk=before.pk)
    assert after.returned - before.returned == Decimal("5.00")
    assert after.rounds == before.rounds == 1
    assert_kept_equals_recount(round_.table_id, round_.gaming_day)


def test_a_void_takes_the_round_out_and_counts_it_voided(demo):
    round_ = ingest(renamed(round_document("deluxe-split-double-play-behind"), "-V"))
    void = void_propose(round_=round_, proposed_by=demo_user("supervisor"), reason="Shuffler fault")
    void_approve(void=void, decided_by=second_supervisor(), comment="Seen on camera")
    rounds_row = LiveFigures.objects.get(table_id=round_.table_id, kind=ROUNDS_ROW, shoe=round_.shoe.code)
    assert (rounds_row.rounds, rounds_row.voided, rounds_row.cancelled) == (1, 1, 0)
    assert rounds_row.wagered == rounds_row.returned == 0
    assert not nonzero(
        {row.pk: row for row in LiveFigures.objects.filter(shoe=round_.shoe.code).exclude(kind=ROUNDS_ROW)}
    )
    assert_kept_equals_recount(round_.table_id, round_.gaming_day)


def test_an_incidents_refunds_of_a_server_cancelled_round_change_nothing(demo):
    round_ = ingest(renamed(round_document("classic-network-failure-refunds"), "-N"))
    assert round_.status == RoundStatus.CANCELLED
    before = {row.pk: row.rounds for row in LiveFigures.objects.filter(shoe=round_.shoe.code)}
    incident = (
        round_.incidents.get()
        if round_.incidents.exists()
        else incident_open(
            table=round_.table,
            kind="network_failure",
            opened_by=demo_user("supervisor"),
            note="Lost",
            round_=round_,
        )
    )
    incident_cancel_round(
        incident=incident, round_=round_, cancelled_by=demo_user("supervisor"), reason="Refund"
    )
    rounds_row = LiveFigures.objects.get(shoe=round_.shoe.code, kind=ROUNDS_ROW)
    assert (rounds_row.rounds, rounds_row.cancelled) == (1, 1)
    assert {row.pk: row.rounds for row in LiveFigures.objects.filter(shoe=round_.shoe.code)} == before
    assert_kept_equals_recount(round_.table_id, round_.gaming_day)


def test_a_played_round_cancelled_in_an_incident_before_voids_existed_leaves(demo):
    """Rounds corrected before voids existed: a completed round's refunds took it out."""
    round_ = ingest(renamed(round_document("deluxe-split-double-play-behind"), "-L"))
    incident = incident_open(
        table=round_.table, kind="malfunction", opened_by=demo_user("supervisor"), note="Old"
    )
    correction_record(
        round_=round_, kind=CorrectionKind.CANCELLED, incident=incident, recorded_by=demo_user("supervisor")
    )
    rounds_row = LiveFigures.objects.get(shoe=round_.shoe.code, kind=ROUNDS_ROW)
    assert (rounds_row.rounds, rounds_row.cancelled, rounds_row.voided, rounds_row.wagered) == (1, 1, 0, 0)
    assert_kept_equals_recount(round_.table_id, round_.gaming_day)


def test_the_rebuild_writes_the_recount(demo):
    rounds = boundless_rounds("BND1-REBUILD", 12)
    table_pk, day = rounds[0].table_id, rounds[0].gaming_day
    kept = nonzero(live_kept(table_pk=table_pk, day=day))
    LiveFigures.objects.filter(table_id=table_pk, day=day).delete()
    assert live_figures_rebuild(table_pk=table_pk, day=day) == len(kept)
    assert nonzero(live_kept(table_pk=table_pk, day=day)) == kept


def test_a_round_costs_ingest_one_statement_of_live_figures(demo):
    document = simulate_shoe(
        preset("boundless"),
        table="BND1",
        shoe_id="BND1-COST",
        players=50,
        rng=random.Random(3),
        start=datetime.now(UTC) - timedelta(minutes=10),
    )[0]
    with CaptureQueriesContext(connection) as queries:
        ingest(document)
    table = LiveFigures._meta.db_table
    live_statements = [query["sql"] for query in queries if table in query["sql"]]
    assert len(live_statements) == 1
    # Its rounds row and a row per bet kind staked, in that one statement.
    assert LiveFigures.objects.filter(shoe="BND1-COST").count() == 1 + len(
        {bet["kind"] for bet in document["bets"]}
    )


def test_every_finding_code_has_one_class_and_the_readme_lists_the_named_ones():
    codes = set(FINDING_CODES) | set(INGEST_FINDING_CODES)
    named = [code for codes_of_class in FINDING_CLASSES.values() for code in codes_of_class]
    assert len(named) == len(set(named)) and set(named) <= codes
    assert finding_class("dealer_drew_on_17") == FindingClass.DEALER
    assert finding_class("wrong_returned") == FindingClass.MONEY
    assert finding_class("limit_breached") == FindingClass.LIMIT
    assert finding_class("shoe_round_gap") == FindingClass.OTHER
    from pathlib import Path

    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text()
    assert [code for code in named if f"`{code}`" not in readme] == []


def test_the_rebuild_command_names_a_table_it_does_not_know_and_writes_the_rest(demo):
    import io

    from django.core.management import CommandError, call_command

    rounds = boundless_rounds("BND1-COMMAND", 6)
    day = rounds[0].gaming_day
    kept = nonzero(live_kept(table_pk=rounds[0].table_id, day=day))
    LiveFigures.objects.all().delete()
    with pytest.raises(CommandError, match="No table NOPE"):
        call_command("live_figures_rebuild", "--table", "NOPE", "--day", f"{day}")
    out = io.StringIO()
    call_command("live_figures_rebuild", "--table", "BND1", "--day", f"{day}", stdout=out)
    assert f"BND1 {day}: {len(kept)} rows of live figures written" in out.getvalue()
    assert nonzero(live_kept(table_pk=rounds[0].table_id, day=day)) == kept

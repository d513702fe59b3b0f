"""Every money movement, approved version and limit change is appended to its chain in the
transaction that writes it; an untouched database verifies clean."""

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

from ledger.chains import GENESIS_SHA256, chain_of, content_sha256
from ledger.models import LedgerEntry
from rounds import services
from rounds.models import Adjustment
from tables.models import TableConfiguration
from tests.fixtures import round_document
from tests.ledger.support import one_of_each, problems, resettled, seeded
from tests.rounds.corrections_support import corrections_urls, demo_user, ingest, wrongly_paid  # noqa: F401

pytestmark = pytest.mark.django_db


@pytest.fixture
def demo(db):
    seeded()


def entry_of(kind: str, row) -> LedgerEntry:
    return LedgerEntry.objects.get(chain=kind, source_pk=row.pk)


def test_each_kind_of_record_is_appended_with_its_content_hash(demo):
    made = one_of_each()
    for kind, row in [
        ("adjustment", made.adjustment),
        ("refund", made.refund),
        ("void_line", made.void_line),
        ("personal_limit", made.personal_limit),
    ]:
        row = chain_of(kind).model.objects.get(pk=row.pk)  # as stored
        assert entry_of(kind, row).content_sha256 == content_sha256(chain_of(kind), row)
    assert (
        LedgerEntry.objects.filter(chain="table_limit").count()
        == chain_of("table_limit").model.objects.count()
    )
    assert set(
        LedgerEntry.objects.filter(chain="table_configuration").values_list("source_pk", flat=True)
    ) == set(TableConfiguration.objects.approved().values_list("pk", flat=True))
    assert problems() == []


def test_a_chain_is_numbered_and_linked(demo):
    resettled("-1")
    resettled("-2")
    entries = list(LedgerEntry.objects.filter(chain="adjustment").order_by("sequence"))
    assert [entry.sequence for entry in entries] == [1, 2]
    assert entries[0].previous_sha256 == GENESIS_SHA256
    assert entries[1].previous_sha256 == entries[0].entry_sha256


def test_a_correction_rolled_back_leaves_no_entry(demo):
    resettlement = services.resettlement_propose(
        round_=wrongly_paid("-R"), proposed_by=demo_user("compliance"), reason="paid short"
    )
    with pytest.raises(RuntimeError), transaction.atomic():
        services.resettlement_approve(
            resettlement=resettlement, decided_by=demo_user("supervisor"), comment="ok"
        )
        assert LedgerEntry.objects.filter(chain="adjustment").count() == 1
        raise RuntimeError("the request failed after the approval")
    assert not Adjustment.objects.exists()
    assert not LedgerEntry.objects.filter(chain="adjustment").exists()


def test_ingest_of_a_round_without_corrections_touches_no_ledger(demo):
    before = LedgerEntry.objects.count()
    with CaptureQueriesContext(connection) as queries:
        ingest(round_document("deluxe-split-double-play-behind"))
    assert LedgerEntry.objects.count() == before
    assert not [query for query in queries if "ledger" in query["sql"] or "advisory" in query["sql"]]


def test_an_approved_version_is_appended_at_approval(demo):
    from tables.odds import configuration_odds_compute
    from tables.services import configuration_approve, configuration_propose
    from tests.tables.test_configuration_proposals import RICHER_PAIR

    table = TableConfiguration.objects.get(table__code="DLX1", version=1).table
    proposal = configuration_propose(
        table=table, changes=RICHER_PAIR, proposed_by=demo_user("supervisor"), reason="richer pair"
    )
    assert not LedgerEntry.objects.filter(chain="table_configuration", source_pk=proposal.pk).exists()
    configuration_odds_compute(configuration=proposal)
    approved = configuration_approve(configuration=proposal, decided_by=demo_user("supervisor-2"))
    stored = TableConfiguration.objects.get(pk=approved.pk)
    entry = entry_of("table_configuration", stored)
    assert entry.content_sha256 == content_sha256(chain_of("table_configuration"), stored)
    assert problems(kinds=["table_configuration"]) == []

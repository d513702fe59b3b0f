"""Rows written before the ledger existed (made here with the appends off, as on a deployment
upgraded to the ledger) read "not in the ledger" until `manage.py ledger_adopt` appends them, each
chain in primary key order after its last entry, marked adopted; then the verify is clean, and a
second run adopts nothing. On SQLite and on PostgreSQL alike."""

import io

import pytest
from django.core.management import CommandError, call_command

from ledger.adoption import ledger_adopt
from ledger.chains import chains
from ledger.models import LedgerAdoption, LedgerEntry
from ledger.services import appends_off
from rounds.models import Adjustment
from tests.ledger.support import one_of_each, problems, resettled, seeded, sql
from tests.rounds.corrections_support import corrections_urls  # noqa: F401

pytestmark = pytest.mark.django_db


@pytest.fixture
def before_the_ledger(db):
    """The demo's tables and one correction of each kind and limit change, none of them in the
    ledger; then a re-settlement made with the ledger (its adjustment the chain's one entry)."""
    with appends_off():
        seeded()
        one_of_each()
    assert not LedgerEntry.objects.exists()
    return resettled("-after")


def adopt(*args) -> str:
    out = io.StringIO()
    call_command("ledger_adopt", *args, stdout=out)
    return out.getvalue()


def test_rows_written_before_the_ledger_are_adopted_in_key_order_and_then_verify_clean(before_the_ledger):
    found = problems()
    assert found and all("source row not in the ledger" in problem for problem in found)
    sources = {chain.kind: sorted(chain.source_rows().values_list("pk", flat=True)) for chain in chains()}
    # No report signed here, no account changed.
    assert all(rows for kind, rows in sources.items() if kind not in ("report_signoff", "account_change"))

    out = adopt()

    earlier = [pk for pk in sources["adjustment"] if pk != before_the_ledger.pk]
    assert f"adjustment: {len(earlier)} row(s) adopted (#2-#{len(earlier) + 1})" in out
    assert f"{sum(map(len, sources.values())) - 1} row(s) adopted. Now run ledger_verify." in out
    assert problems() == []
    for kind, pks in sources.items():
        entries = list(LedgerEntry.objects.filter(chain=kind).order_by("sequence"))
        assert sorted(entry.source_pk for entry in entries) == pks
        adopted = [entry for entry in entries if entry.adopted]
        assert [entry.source_pk for entry in adopted] == sorted(entry.source_pk for entry in adopted)
    first = LedgerEntry.objects.get(chain="adjustment", sequence=1)
    assert first.source_pk == before_the_ledger.pk and not first.adopted  # appended as it was written
    records = {record.chain: record for record in LedgerAdoption.objects.all()}
    assert sorted(records) == sorted(kind for kind, pks in sources.items() if pks)  # none of nothing
    record = records["adjustment"]
    assert (record.entries, record.last_sequence) == (len(earlier), len(earlier) + 1)
    assert records["adjustment"].adopted_by


def test_a_second_run_adopts_nothing(before_the_ledger):
    adopt()
    entries, records = LedgerEntry.objects.count(), LedgerAdoption.objects.count()
    out = adopt()
    assert "adjustment: nothing to adopt" in out and "0 row(s) adopted." in out
    assert (LedgerEntry.objects.count(), LedgerAdoption.objects.count()) == (entries, records)
    assert problems() == []


def test_one_chain_in_small_batches(before_the_ledger):
    resettled("-more")  # a second entry of the ledger's own
    with appends_off():
        resettled("-before")  # one more row without
    (outcome,) = ledger_adopt("adjustment", adopted_by="tester", batch=2)
    missing = Adjustment.objects.count() - 2
    assert outcome.entries == missing and (outcome.first_sequence, outcome.last_sequence) == (3, missing + 2)
    assert problems(kinds=["adjustment"]) == []
    assert LedgerEntry.objects.filter(chain="refund").count() == 0  # the others not touched
    assert problems(kinds=["refund"])


def test_the_adopted_mark_is_in_the_hash(before_the_ledger):
    adopt()
    entry = LedgerEntry.objects.filter(chain="void_line", adopted=True).order_by("sequence").first()
    sql("UPDATE ledger_ledgerentry SET adopted = %s WHERE id = %s", [False, entry.pk])
    assert problems(kinds=["void_line"]) == [
        f"void_line #{entry.sequence} (source {entry.source_pk}): ledger entry edited (its hash does not "
        "recompute)"
    ]


def test_an_unknown_chain_is_refused(db):
    with pytest.raises(CommandError, match="No chain nothing; there are: account_change, adjustment"):
        adopt("--chain", "nothing")

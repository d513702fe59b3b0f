"""Tampering in SQL, behind the application, is found and named by the verify and by
`manage.py ledger_verify` (exit status 1); an untouched database verifies clean (exit status 0).
On SQLite and on PostgreSQL alike."""

import io

import pytest
from django.core.management import CommandError, call_command
from django.utils import timezone

from core.gaming_day import gaming_day_of
from ledger.chains import chain_of, content_sha256, entry_sha256
from ledger.models import LedgerEntry, LedgerVerification
from ledger.services import day_heads, ledger_sign_heads
from tests.ledger.support import one_of_each, problems, resettled, seeded, sql
from tests.rounds.corrections_support import corrections_urls  # noqa: F401

pytestmark = pytest.mark.django_db


@pytest.fixture
def made(db):
    seeded()
    return one_of_each()


def verify_command(*args) -> str:
    out = io.StringIO()
    call_command("ledger_verify", *args, stdout=out)
    return out.getvalue()


def test_untouched_it_verifies_clean_and_keeps_the_run(made):
    assert "Ledger verified clean: account_change, adjustment, personal_limit, refund" in verify_command()
    run = LedgerVerification.objects.get()
    assert run.clean and run.problems == [] and "void_line" in run.chains


def test_a_source_row_changed_is_named(made):
    sql("UPDATE rounds_adjustment SET amount = amount + 100 WHERE id = %s", [made.adjustment.pk])
    entry = LedgerEntry.objects.get(chain="adjustment", source_pk=made.adjustment.pk)
    assert problems() == [f"adjustment #{entry.sequence} (source {made.adjustment.pk}): source row changed"]
    out = io.StringIO()
    with pytest.raises(CommandError, match="1 problem"):
        call_command("ledger_verify", "--chain", "adjustment", stdout=out)
    assert "source row changed" in out.getvalue()
    assert not LedgerVerification.objects.get().clean


def test_a_source_row_deleted_is_named(made):
    sql("DELETE FROM rounds_refund WHERE id = %s", [made.refund.pk])
    assert problems(kinds=["refund"]) == [
        f"refund #{LedgerEntry.objects.get(chain='refund', source_pk=made.refund.pk).sequence} "
        f"(source {made.refund.pk}): source row deleted"
    ]


def test_a_row_inserted_behind_the_application_is_named(made):
    columns = (
        "player_id, kind, table_id, game, min_stake, max_stake, effective_from, replaces_id, withdrawn_at, "
        "reason, created_by_id, created_at"
    )
    sql(
        f"INSERT INTO limits_personallimit ({columns}) "
        f"SELECT {columns} FROM limits_personallimit WHERE id = %s",
        [made.personal_limit.pk],
    )
    (found,) = problems(kinds=["personal_limit"])
    assert found.endswith("source row not in the ledger (inserted behind the application)")


def test_a_ledger_row_edited_is_named(made):
    entry = LedgerEntry.objects.get(chain="void_line", source_pk=made.void_line.pk)
    sql("UPDATE ledger_ledgerentry SET content_sha256 = %s WHERE id = %s", ["ab" * 32, entry.pk])
    assert problems(kinds=["void_line"]) == [
        f"void_line #{entry.sequence} (source {made.void_line.pk}): ledger entry edited (its hash does not "
        "recompute)"
    ]


def test_a_ledger_row_deleted_breaks_the_chain(made):
    resettled("-2")
    first = LedgerEntry.objects.get(chain="adjustment", sequence=1)
    sql("DELETE FROM ledger_ledgerentry WHERE id = %s", [first.pk])
    found = problems(kinds=["adjustment"])
    assert "ledger entries missing before it (deleted)" in found[0]
    assert f"(source {first.source_pk}): source row not in the ledger" in found[-1]


def rewrite_whole_chain(kind: str) -> None:
    """What a tamperer without the key can do: every entry's hashes recomputed from the sources."""
    chain, previous = chain_of(kind), "0" * 64
    for entry in LedgerEntry.objects.filter(chain=kind).order_by("sequence"):
        content = content_sha256(chain, chain.model.objects.get(pk=entry.source_pk))
        digest = entry_sha256(kind, entry.sequence, entry.source_pk, entry.source_month, content, previous)
        sql(
            "UPDATE ledger_ledgerentry SET content_sha256 = %s, previous_sha256 = %s, entry_sha256 = %s "
            "WHERE id = %s",
            [content, previous, digest, entry.pk],
        )
        previous = digest


def test_a_chain_rewritten_whole_is_caught_by_its_signed_day_head(made):
    today = gaming_day_of(timezone.now())
    heads = {head.chain: head for head in ledger_sign_heads(today)}
    assert heads["adjustment"].sequence == 1 and len(heads["adjustment"].signature) == 64
    assert [head.chain for head in day_heads(today)] == sorted(heads)
    assert problems() == []
    sql("UPDATE rounds_adjustment SET amount = amount + 100 WHERE id = %s", [made.adjustment.pk])
    rewrite_whole_chain("adjustment")
    assert problems() == [f"adjustment #1: chain differs from its signed head of {today}"]


def test_a_day_head_resigned_without_the_key_is_named(made):
    today = gaming_day_of(timezone.now())
    ledger_sign_heads(today)
    sql("UPDATE ledger_ledgerdayhead SET sequence = 0 WHERE chain = %s", ["refund"])
    assert problems(kinds=["refund"]) == [f"refund #0: day head signature does not match ({today})"]

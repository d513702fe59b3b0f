"""Each chain has its own advisory lock (PostgreSQL): a limit change never waits on a correction
holding the corrections' chain, while a second correction does wait for it."""

import threading
from decimal import Decimal

import pytest
from django.db import OperationalError, connection, transaction

from ledger.models import LedgerEntry
from ledger.services import chain_lock, ledger_append
from limits.services import table_limit_set
from rounds.models import Adjustment
from tables.models import Table
from tests.ledger.support import seeded
from tests.rounds.corrections_support import demo_user

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def adjustments_chain_held():
    """Another connection holds the adjustments chain's lock until the test ends."""
    held, done = threading.Event(), threading.Event()

    def hold():
        try:
            with transaction.atomic():
                chain_lock("adjustment")
                held.set()
                done.wait(30)
        finally:
            connection.close()

    holder = threading.Thread(target=hold)
    holder.start()
    assert held.wait(10)
    yield
    done.set()
    holder.join(10)


def lock_timeout(seconds: float) -> None:
    with connection.cursor() as cursor:
        cursor.execute(f"SET LOCAL lock_timeout = '{int(seconds * 1000)}ms'")


def test_a_limit_change_does_not_wait_on_the_corrections_chain(adjustments_chain_held):
    seeded()
    before = LedgerEntry.objects.filter(chain="table_limit").count()
    with transaction.atomic():
        lock_timeout(2)
        table_limit_set(
            table=Table.objects.get(code="CLS1"),
            kind="main",
            min_stake=Decimal("2.00"),
            max_stake=Decimal("900.00"),
            changed_by=demo_user("supervisor"),
            reason="while a correction is under way",
        )
    assert LedgerEntry.objects.filter(chain="table_limit").count() == before + 1
    # ... while another correction waits for the chain it holds.
    with pytest.raises(OperationalError, match="lock timeout"), transaction.atomic():
        lock_timeout(0.5)
        ledger_append("adjustment", [Adjustment(pk=1)])

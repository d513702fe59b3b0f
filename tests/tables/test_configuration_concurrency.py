"""Two supervisors propose a change to one table at the same moment, from forms showing the same
version (PostgreSQL: real row locks): one proposal is stored, the other refused; neither is built on
rules its proposer did not see. Two decisions at once decide a proposal once."""

import threading

import pytest
from django.core.exceptions import ValidationError
from django.db import connection

from tables.models import TableConfiguration
from tables.odds import configuration_odds_compute
from tables.services import configuration_approve, configuration_propose, configuration_reject
from tests import factories

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def at_once(*calls) -> list[BaseException]:
    start = threading.Barrier(len(calls))
    errors: list[BaseException] = []

    def run(call):
        try:
            start.wait(timeout=10)
            call()
        except BaseException as error:  # noqa: BLE001 - reported below
            errors.append(error)
        finally:
            connection.close()  # each thread had its own connection

    threads = [threading.Thread(target=run, args=(call,)) for call in calls]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    return errors


def test_two_proposals_from_the_same_version_store_one():
    table = factories.table("DLX1")
    ana, ben = factories.user("supervisor", "ana"), factories.user("supervisor", "ben")

    def propose(by, changes):
        return lambda: configuration_propose(
            table=table, changes=changes, proposed_by=by, reason="at once", seen_version=1
        )

    errors = at_once(
        propose(ana, {"seats": 6}),
        propose(ben, {"side_options": {"pair": {"paytable": {"mixed_pair": "6"}}}}),
    )
    assert len(errors) == 1 and isinstance(errors[0], ValidationError), errors
    assert "since you opened" in str(errors[0])
    assert TableConfiguration.objects.filter(table=table).count() == 2


def test_an_approval_and_a_rejection_at_once_decide_once():
    table = factories.table("DLX1")
    proposal = configuration_propose(
        table=table, changes={"seats": 6}, proposed_by=factories.user("supervisor", "ana"), reason="fewer"
    )
    configuration_odds_compute(configuration=proposal)
    ben, carl = factories.user("supervisor", "ben"), factories.user("supervisor", "carl")
    errors = at_once(
        lambda: configuration_approve(configuration=proposal, decided_by=ben),
        lambda: configuration_reject(configuration=proposal, decided_by=carl, comment="no"),
    )
    assert len(errors) == 1 and "a decision is not made twice" in str(errors[0]), errors
    proposal.refresh_from_db()
    assert proposal.status in ("approved", "rejected") and proposal.decided_by in (ben, carl)

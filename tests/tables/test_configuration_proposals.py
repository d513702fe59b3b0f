"""Change control of configurations: one supervisor proposes a version, its odds are worked out, a
second supervisor approves (or rejects) it; it comes into force at the time chosen or at approval,
never in the past, and until approved it is never used to check a round."""

from datetime import UTC, datetime, timedelta

import pytest
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone
from freezegun import freeze_time

from core.refusals import OwnDecisionRefused
from rounds.ingest import round_ingest
from rounds.models import Round
from tables.choices import ConfigurationStatus
from tables.models import ConfigurationOdds, TableConfiguration
from tables.odds import configuration_odds_compute
from tables.selectors import configuration_in_force, open_proposal
from tables.services import configuration_approve, configuration_propose, configuration_reject
from tests import factories
from tests.fixtures import round_document

pytestmark = pytest.mark.django_db

RICHER_PAIR = {
    "side_options": {
        "pair": {
            "paytable": {
                "mixed_pair": "6",
                "coloured_pair": "10",
                "perfect_pair": "30",
                "suited_trips": "50",
            },
            "max_round": 30,
        }
    }
}


@pytest.fixture
def dlx():
    with freeze_time(timezone.now() - timedelta(days=1)):
        return factories.table("DLX1")


@pytest.fixture
def ana():
    return factories.user("supervisor", "ana")


@pytest.fixture
def ben():
    return factories.user("supervisor", "ben")


def messages_of(error: ValidationError) -> str:
    return " ".join(message for messages in error.message_dict.values() for message in messages)


def proposed(table, by, changes=RICHER_PAIR, **kwargs):
    return configuration_propose(table=table, changes=changes, proposed_by=by, reason="richer pair", **kwargs)


def test_a_proposal_is_not_in_force_until_a_second_supervisor_approves_it(dlx, ana, ben):
    proposal = proposed(dlx, ana, seen_version=1)
    assert (proposal.version, proposal.status) == (2, ConfigurationStatus.PROPOSED)
    assert configuration_in_force(dlx).version == 1
    assert configuration_in_force(dlx, timezone.now() + timedelta(days=365)).version == 1
    assert open_proposal(dlx) == proposal

    configuration_odds_compute(configuration=proposal)
    before = timezone.now()
    approved = configuration_approve(configuration=proposal, decided_by=ben, comment="checked the sheet")

    assert approved.status == ConfigurationStatus.APPROVED
    assert (approved.created_by, approved.decided_by, approved.decision_comment) == (
        ana,
        ben,
        "checked the sheet",
    )
    assert before <= approved.valid_from <= timezone.now() and approved.decided_at == approved.valid_from
    assert configuration_in_force(dlx).version == 2 and open_proposal(dlx) is None


def test_a_proposed_version_is_never_used_to_check_a_round(dlx, ana):
    richer = {
        "side_options": {
            "pair": {"paytable": {"mixed_pair": "6", "coloured_pair": "10", "perfect_pair": "30"}}
        }
    }
    proposal = proposed(dlx, ana, richer, valid_from=timezone.now() + timedelta(seconds=1))
    document = round_document("deluxe-split-double-play-behind")
    later = (timezone.now() + timedelta(minutes=1)).isoformat().replace("+00:00", "Z")
    document = document | {"opened_at": later, "closed_at": later}
    round_ingest(document=document)
    assert Round.objects.get().configuration.version == 1
    assert proposal.rounds.count() == 0


def test_approving_your_own_proposal_is_refused(dlx, ana):
    proposal = proposed(dlx, ana)
    configuration_odds_compute(configuration=proposal)
    with pytest.raises(OwnDecisionRefused, match="another supervisor"):  # a 403, as for voids
        configuration_approve(configuration=proposal, decided_by=ana)
    proposal.refresh_from_db()
    assert proposal.status == ConfigurationStatus.PROPOSED and proposal.decided_by is None


def test_the_database_refuses_a_version_decided_by_its_proposer(dlx, ana):
    proposal = proposed(dlx, ana)
    with pytest.raises(IntegrityError), transaction.atomic():
        TableConfiguration.objects.filter(pk=proposal.pk).update(
            status=ConfigurationStatus.APPROVED, decided_by=ana, decided_at=timezone.now()
        )


def test_approving_before_the_odds_are_worked_out_is_refused(dlx, ana, ben):
    proposal = proposed(dlx, ana)
    assert not ConfigurationOdds.objects.filter(configuration=proposal).exists()
    with pytest.raises(ValidationError) as error:
        configuration_approve(configuration=proposal, decided_by=ben)
    assert "odds" in messages_of(error.value)
    assert TableConfiguration.objects.get(pk=proposal.pk).status == ConfigurationStatus.PROPOSED


def test_it_comes_into_force_at_the_time_chosen(dlx, ana, ben):
    tomorrow = timezone.now() + timedelta(days=1)
    proposal = proposed(dlx, ana, valid_from=tomorrow)
    configuration_odds_compute(configuration=proposal)
    approved = configuration_approve(configuration=proposal, decided_by=ben)
    assert approved.valid_from == approved.requested_from == tomorrow
    assert configuration_in_force(dlx).version == 1
    assert configuration_in_force(dlx, tomorrow).version == 2


def test_it_comes_into_force_at_approval_when_the_time_chosen_has_passed(dlx, ana, ben):
    soon = timezone.now() + timedelta(minutes=5)
    proposal = proposed(dlx, ana, valid_from=soon)
    configuration_odds_compute(configuration=proposal)
    with freeze_time(soon + timedelta(hours=2)):
        approved = configuration_approve(configuration=proposal, decided_by=ben)
        assert approved.valid_from == timezone.now() > soon
    assert approved.requested_from == soon  # what was asked stays on record


@pytest.mark.parametrize("ago", [timedelta(seconds=1), timedelta(seconds=4), timedelta(hours=1)])
def test_a_proposal_may_not_start_in_the_past_even_by_seconds(dlx, ana, ago):
    with pytest.raises(ValidationError) as error:
        proposed(dlx, ana, valid_from=timezone.now() - ago)
    assert "valid_from" in error.value.message_dict
    assert TableConfiguration.objects.count() == 1


def test_one_open_proposal_per_table(dlx, ana, ben):
    proposed(dlx, ana)
    with pytest.raises(ValidationError) as error:
        proposed(dlx, ben, {"seats": 6})
    assert "awaits a decision" in messages_of(error.value)
    assert TableConfiguration.objects.count() == 2


def test_a_stale_proposal_is_refused_and_stores_nothing(dlx, ana, ben):
    first = proposed(dlx, ana, seen_version=1)
    configuration_odds_compute(configuration=first)
    configuration_approve(configuration=first, decided_by=ben)
    with pytest.raises(ValidationError) as error:
        proposed(dlx, ben, {"seats": 6}, seen_version=1)  # ben's form was opened before version 2
    assert "since you opened" in messages_of(error.value)
    assert TableConfiguration.objects.count() == 2
    fresh = proposed(dlx, ben, {"seats": 6}, seen_version=2)
    assert fresh.rule_set.side_option("pair").odds("mixed_pair") == 6  # built on version 2, not reverting it


def test_a_rejection_needs_a_comment_and_leaves_the_version_out_of_force(dlx, ana, ben):
    proposal = proposed(dlx, ana)
    with pytest.raises(ValidationError) as error:
        configuration_reject(configuration=proposal, decided_by=ben, comment="  ")
    assert "comment" in error.value.message_dict
    rejected = configuration_reject(configuration=proposal, decided_by=ben, comment="Not this month")
    assert (rejected.status, rejected.decided_by, rejected.decision_comment) == (
        ConfigurationStatus.REJECTED,
        ben,
        "Not this month",
    )
    assert configuration_in_force(dlx, timezone.now() + timedelta(days=1)).version == 1
    with pytest.raises(ValidationError):
        configuration_approve(configuration=rejected, decided_by=ben)
    # The next proposal follows the rejected one's number, on the rules in force.
    following = proposed(dlx, ana, {"seats": 6}, seen_version=2)
    assert following.version == 3 and following.rule_set.side_option("pair").odds("mixed_pair") == 5


def test_a_decision_is_not_made_twice(dlx, ana, ben):
    proposal = proposed(dlx, ana)
    configuration_odds_compute(configuration=proposal)
    configuration_approve(configuration=proposal, decided_by=ben)
    carl = factories.user("supervisor", "carl")
    with pytest.raises(ValidationError) as error:
        configuration_reject(configuration=proposal, decided_by=carl, comment="too late")
    assert "already approved" in messages_of(error.value)


def test_a_proposal_after_a_pending_version_starts_after_it(dlx, ana, ben):
    tomorrow = timezone.now() + timedelta(days=1)
    pending = proposed(dlx, ana, valid_from=tomorrow)
    configuration_odds_compute(configuration=pending)
    configuration_approve(configuration=pending, decided_by=ben)
    # "As soon as approved" would start before version 2 and be undone by it tomorrow.
    with pytest.raises(ValidationError) as error:
        proposed(dlx, ben, {"seats": 6})
    assert "valid_from" in error.value.message_dict
    later = proposed(dlx, ben, {"seats": 6}, valid_from=tomorrow + timedelta(hours=1))
    assert later.rule_set.side_option("pair").odds("mixed_pair") == 6


def test_versions_stored_before_change_control_count_as_approved(dlx):
    first = TableConfiguration.objects.get(table=dlx)
    assert first.status == ConfigurationStatus.APPROVED and first.decided_by is None


def test_a_days_version_proposed_and_approved_in_the_past_of_the_clock():
    """The demo's and the reports' way: both steps at a frozen earlier time."""
    with freeze_time(datetime(2026, 10, 1, tzinfo=UTC)):
        table = factories.table("DLX1")
        start = datetime(2026, 10, 2, 9, tzinfo=UTC)
        version = factories.configuration_approved(table, RICHER_PAIR, valid_from=start)
    assert version.valid_from == start and version.status == ConfigurationStatus.APPROVED

"""A round dated past the server's clock is refused: otherwise a round dated a day ahead would be judged
against limits whose raise is still pending. A few minutes of clock difference between a game server
and Pitboss are allowed (PITBOSS_ROUND_CLOCK_TOLERANCE_MINUTES, 5 by default)."""

from datetime import timedelta
from decimal import Decimal

import pytest
from django.core.management import call_command
from django.utils import timezone

from limits.models import PersonalLimit, Player
from limits.services import personal_limit_set
from rounds.ingest import RoundFormatError, round_ingest
from rounds.models import Bet, Finding, Round, Shoe
from tests import factories
from tests.factories import user
from tests.fixtures import round_document

pytestmark = pytest.mark.django_db

SPLIT_ROUND = "deluxe-split-double-play-behind"


@pytest.fixture
def demo(db):
    call_command("seed_demo", stdout=open("/dev/null", "w"))


def iso(moment) -> str:
    return moment.astimezone(timezone.UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def dated(opened_at, closed_at) -> dict:
    document = round_document(SPLIT_ROUND)
    document["opened_at"], document["closed_at"] = iso(opened_at), iso(closed_at)
    return document


def stored() -> dict[str, int]:
    return {model.__name__: model.objects.count() for model in (Round, Shoe, Bet, Finding, Player)}


@pytest.mark.parametrize(
    ("field", "opened_ahead", "closed_ahead"),
    [
        ("opened_at", timedelta(hours=25), timedelta(hours=25, minutes=1)),
        ("closed_at", timedelta(minutes=-2), timedelta(minutes=6)),
    ],
)
def test_a_round_dated_past_the_servers_clock_is_refused_naming_the_field(
    demo, field, opened_ahead, closed_ahead
):
    now = timezone.now()
    before = stored()

    with pytest.raises(RoundFormatError) as refused:
        round_ingest(document=dated(now + opened_ahead, now + closed_ahead))

    assert refused.value.field == field
    assert "server's clock" in refused.value.message
    assert stored() == before


def test_a_few_minutes_of_clock_difference_are_allowed(demo):
    now = timezone.now()

    result = round_ingest(document=dated(now + timedelta(minutes=3), now + timedelta(minutes=4)))

    assert result.created


def test_the_tolerance_is_a_setting(demo, settings):
    settings.PITBOSS_ROUND_CLOCK_TOLERANCE = timedelta(minutes=1)
    now = timezone.now()

    with pytest.raises(RoundFormatError) as refused:
        round_ingest(document=dated(now + timedelta(minutes=2), now + timedelta(minutes=3)))
    assert refused.value.field == "opened_at"


def test_a_pending_raise_never_counts_before_the_servers_clock_reaches_it(demo):
    agent = user("customer_service")
    document = round_document(SPLIT_ROUND)
    bet = document["bets"][0]
    player = factories.player(bet["player"])
    personal_limit_set(player=player, changed_by=agent, reason="asked", max_stake=Decimal("1.00"))
    # Lifting it waits its 24 hours: say they end two minutes from now.
    lifted = personal_limit_set(player=player, changed_by=agent, reason="lift", max_stake=None)
    now = timezone.now()
    PersonalLimit.objects.filter(pk=lifted.pk).update(effective_from=now + timedelta(minutes=2))

    # A round dated three minutes ahead (within the clock tolerance) is judged at the server's clock,
    # when the lift is still pending: the 1.00 maximum holds.
    round_ingest(document=dated(now + timedelta(minutes=3), now + timedelta(minutes=4)))

    assert Finding.objects.filter(code="limit_breached", bet__bet_id=bet["bet_id"]).exists()

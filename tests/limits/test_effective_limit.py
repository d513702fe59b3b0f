"""The effective range of a bet: the table's limits intersected with the player's own."""

from datetime import timedelta
from decimal import Decimal

import pytest
from django.utils import timezone
from freezegun import freeze_time

from limits.selectors import effective_limit
from limits.services import personal_limit_set
from tests.factories import player, table, user

pytestmark = pytest.mark.django_db
D = Decimal


def set_limit(who, **fields):
    return personal_limit_set(
        player=who, changed_by=user("customer_service"), reason="asked by the player", **fields
    )


def test_without_personal_limits_the_tables_range_applies():
    limit = effective_limit(player(), table("DLX1"), "main")
    assert (limit.allowed, limit.min_stake, limit.max_stake, limit.currency) == (
        True,
        D("5.00"),
        D("500.00"),
        "EUR",
    )


def test_insurance_follows_half_the_main_range():
    limit = effective_limit(player(), table("DLX1", limits={"main": ("5.01", "501.00")}), "insurance")
    assert (limit.min_stake, limit.max_stake) == (D("2.50"), D("250.50"))


def test_personal_limits_narrow_the_range_by_kind_table_and_game():
    who, dlx, cls = player(), table("DLX1"), table("CLS1")
    set_limit(who, max_stake=D("100.00"))
    set_limit(who, kind="main", table=dlx, min_stake=D("10.00"))
    set_limit(who, game="classic", max_stake=D("50.00"))
    at_deluxe = effective_limit(who, dlx, "main")
    assert (at_deluxe.min_stake, at_deluxe.max_stake) == (D("10.00"), D("100.00"))
    at_classic = effective_limit(who, cls, "main")
    assert (at_classic.min_stake, at_classic.max_stake) == (D("5.00"), D("50.00"))


def test_an_empty_intersection_is_said_in_words():
    who = player()
    set_limit(who, max_stake=D("2.00"))
    limit = effective_limit(who, table("DLX1"), "main")
    assert not limit.allowed
    assert "No stake fits" in limit.reasons[0] and "5.00 to 2.00 EUR" in limit.reasons[0]
    assert "No stake fits" in limit.refuses(D("3.00"))


@pytest.mark.parametrize(
    ("account", "kind", "allowed"),
    [
        ("trial", "main", False),
        ("play_for_fun", "main", False),
        ("trial", "behind", True),
        ("real", "main", True),
    ],
)
def test_trial_and_play_for_fun_accounts_may_not_take_a_seat(account, kind, allowed):
    dlx = table("DLX1", limits={"main": ("5.00", "500.00"), "behind": ("1.00", "100.00")})
    assert effective_limit(player(account_type=account), dlx, kind).allowed is allowed


def test_a_kind_the_table_does_not_offer_and_another_currency_are_refused():
    dlx, who = table("DLX1"), player()
    assert "does not offer" in effective_limit(who, dlx, "lucky_trio").reasons[0]
    assert "plays in GBP" in effective_limit(player("P2", currency="GBP"), dlx, "main").reasons[0]
    assert "no limit set" in effective_limit(who, dlx, "pair").reasons[0]


def test_a_lower_limit_is_in_force_at_once_and_a_raise_after_24_hours():
    who, dlx = player(), table("DLX1")
    lowered = set_limit(who, max_stake=D("50.00"))
    assert lowered.effective_from <= timezone.now()
    raised = set_limit(who, max_stake=D("80.00"))
    assert raised.effective_from - timezone.now() > timedelta(hours=23, minutes=59)
    assert raised.replaces == lowered
    assert effective_limit(who, dlx, "main").max_stake == D("50.00")
    with freeze_time(timezone.now() + timedelta(hours=24, seconds=1)):
        assert effective_limit(who, dlx, "main").max_stake == D("80.00")


def test_a_later_change_withdraws_a_pending_raise():
    who, dlx = player(), table("DLX1")
    set_limit(who, max_stake=D("50.00"))
    raised = set_limit(who, max_stake=D("80.00"))
    set_limit(who, max_stake=D("40.00"))
    raised.refresh_from_db()
    assert raised.withdrawn_at is not None
    with freeze_time(timezone.now() + timedelta(days=2)):
        assert effective_limit(who, dlx, "main").max_stake == D("40.00")


def test_lifting_a_limit_is_a_raise():
    who, dlx = player(), table("DLX1")
    set_limit(who, max_stake=D("50.00"))
    lifted = set_limit(who)
    assert lifted.effective_from > timezone.now() + timedelta(hours=23)
    with freeze_time(timezone.now() + timedelta(days=2)):
        assert effective_limit(who, dlx, "main").max_stake == D("500.00")


def test_insurance_is_half_of_what_the_player_may_stake_on_the_seat():
    who, dlx = player(), table("DLX1")
    set_limit(who, max_stake=D("50.00"))
    assert effective_limit(who, dlx, "insurance").max_stake == D("25.00")
    set_limit(who, kind="insurance", max_stake=D("10.00"))
    assert effective_limit(who, dlx, "insurance").max_stake == D("10.00")

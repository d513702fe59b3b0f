"""Setting table and personal limits: bad input is refused naming the field, and nothing changes."""

from decimal import Decimal

import pytest
from django.core.exceptions import ValidationError

from limits.models import PersonalLimit, TableLimit
from limits.services import PersonalLimitChanged, personal_limit_set, player_create, table_limit_set
from tests.factories import player, table, user

pytestmark = pytest.mark.django_db
D = Decimal


def refused_field(call) -> str:
    with pytest.raises(ValidationError) as error:
        call()
    return next(iter(error.value.message_dict))


@pytest.mark.parametrize(
    ("fields", "field"),
    [
        ({"min_stake": D("50.00"), "max_stake": D("10.00")}, "min_stake"),
        ({"min_stake": D("-1.00")}, "min_stake"),
        ({"min_stake": D("0.00")}, "min_stake"),
        ({"max_stake": D("10.005")}, "max_stake"),
        ({"kind": "keno"}, "kind"),
        ({"kind": "lucky_trio"}, "kind"),
        ({"currency": "GBP"}, "currency"),
        ({"reason": ""}, "reason"),
    ],
)
def test_it_refuses_a_bad_table_limit_and_changes_nothing(fields, field):
    dlx = table("DLX1")
    values = {
        "kind": "main",
        "min_stake": D("1.00"),
        "max_stake": D("100.00"),
        "reason": "new range",
    } | fields
    assert refused_field(lambda: table_limit_set(table=dlx, changed_by=user(), **values)) == field
    assert list(TableLimit.objects.values_list("min_stake", "max_stake")) == [(D("5.00"), D("500.00"))]


def test_a_table_limit_change_keeps_its_history_with_the_reason():
    dlx = table("DLX1")
    table_limit_set(
        table=dlx,
        kind="main",
        min_stake=D("10.00"),
        max_stake=D("1000.00"),
        changed_by=user(),
        reason="VIP night",
    )
    history = TableLimit.objects.get(table=dlx, kind="main").history.all()
    assert [(h.min_stake, h.max_stake, h.history_change_reason) for h in history] == [
        (D("10.00"), D("1000.00"), "VIP night"),
        (D("5.00"), D("500.00"), "opening limits"),
    ]


@pytest.mark.parametrize(
    ("fields", "field"),
    [
        ({"min_stake": D("50.00"), "max_stake": D("10.00")}, "min_stake"),
        ({"max_stake": D("-5.00")}, "max_stake"),
        ({"max_stake": D("0")}, "max_stake"),
        ({"max_stake": D("1.234")}, "max_stake"),
        ({"kind": "keno"}, "kind"),
        ({"game": "poker"}, "game"),
        ({"currency": "USD"}, "currency"),
        ({"reason": "  "}, "reason"),
    ],
)
def test_it_refuses_a_bad_personal_limit_and_changes_nothing(fields, field):
    who = player()
    values = {"max_stake": D("100.00"), "reason": "asked"} | fields
    assert (
        refused_field(lambda: personal_limit_set(player=who, changed_by=user("customer_service"), **values))
        == field
    )
    assert PersonalLimit.objects.count() == 0


def test_a_personal_limit_for_a_table_in_another_currency_is_refused():
    who = player("P7", currency="GBP")
    field = refused_field(
        lambda: personal_limit_set(
            player=who, table=table("DLX1"), max_stake=D("5.00"), changed_by=user(), reason="x"
        )
    )
    assert field == "table"


def test_a_raise_without_a_reason_is_refused():
    who = player()
    personal_limit_set(
        player=who, max_stake=D("10.00"), changed_by=user("customer_service"), reason="self-limit"
    )
    field = refused_field(
        lambda: personal_limit_set(
            player=who, max_stake=D("100.00"), changed_by=user("customer_service"), reason=""
        )
    )
    assert field == "reason" and PersonalLimit.objects.count() == 1


def test_a_change_over_someone_elses_is_refused_instead_of_overwriting_it():
    who, agent = player(), user("customer_service")
    first = personal_limit_set(
        player=who, max_stake=D("50.00"), changed_by=agent, reason="one", seen_setting=0
    )
    stale = refused_field(
        lambda: personal_limit_set(
            player=who, max_stake=D("20.00"), changed_by=agent, reason="two", seen_setting=0
        )
    )
    assert stale == "seen_setting"
    with pytest.raises(PersonalLimitChanged) as refused:  # HTTP 409 in the API
        personal_limit_set(player=who, max_stake=D("20.00"), changed_by=agent, reason="two", seen_setting=0)
    assert "in force — to 50.00 EUR" in refused.value.messages[0]
    assert PersonalLimit.objects.count() == 1
    second = personal_limit_set(
        player=who, max_stake=D("20.00"), changed_by=agent, reason="two", seen_setting=first.pk
    )
    assert second.replaces == first


def test_a_known_player_id_is_refused():
    player("P1")
    assert refused_field(lambda: player_create(external_id="P1", currency="EUR")) == "external_id"

"""Creating tables, versioning their configuration, opening and closing them."""

from datetime import timedelta
from decimal import Decimal

import pytest
from django.core.exceptions import ValidationError
from django.utils import timezone

from blackjack.rules import preset
from tables.models import Table, TableConfiguration, TableStatusChange
from tables.selectors import configuration_in_force
from tables.services import configuration_propose, table_create, table_set_status, table_update
from tests.factories import configuration_approved, table, user

pytestmark = pytest.mark.django_db


def field_of(error: ValidationError) -> str:
    return next(iter(error.message_dict))


def test_a_new_table_is_closed_with_its_games_preset_as_version_1():
    created = table("BND1")
    configuration = configuration_in_force(created)
    assert created.status == "closed"
    assert configuration.version == 1 and configuration.rule_set == preset("boundless")


@pytest.mark.parametrize(
    ("fields", "field"),
    [
        ({"code": "DLX1"}, "code"),
        ({"game": "baccarat"}, "game"),
        ({"currency": "XXX"}, "currency"),
        ({"code": "dlx 2"}, "code"),
    ],
)
def test_it_refuses_a_bad_table_naming_the_field(fields, field):
    table("DLX1")
    values = {"code": "DLX2", "name": "Two", "game": "deluxe", "currency": "EUR", "studio": "A"} | fields
    with pytest.raises(ValidationError) as error:
        table_create(**values, created_by=user())
    assert field_of(error.value) == field
    assert Table.objects.count() == 1 and TableConfiguration.objects.count() == 1


def test_a_paytable_change_is_a_new_version_and_the_old_one_stays():
    dlx = table("DLX1")
    changed = configuration_approved(
        dlx,
        {
            "side_options": {
                "pair": {"paytable": {"mixed_pair": "6", "coloured_pair": "12", "perfect_pair": "25"}}
            }
        },
        reason="new pair paytable",
    )
    first = dlx.configurations.get(version=1)
    assert changed.version == 2 and changed.reason == "new pair paytable"
    assert changed.rule_set.side_option("pair").odds("mixed_pair") == Decimal(6)
    assert first.rule_set.side_option("pair").odds("mixed_pair") == Decimal(5)
    assert configuration_in_force(dlx) == changed
    assert configuration_in_force(dlx, first.valid_from) == first


@pytest.mark.parametrize(
    ("changes", "field"),
    [
        (
            {"side_options": {"pair": {"paytable": {"mixed_pair": "0"}}}},
            "rules.side_options.pair.paytable.mixed_pair",
        ),
        (
            {"side_options": {"pair": {"paytable": {"mixed_pair": None}}}},
            "rules.side_options.pair.paytable.mixed_pair",
        ),
        (
            {"side_options": {"pair": {"paytable": {"mixed_pair": "5"}, "max_round": 0}}},
            "rules.side_options.pair.max_round",
        ),
        (
            {"side_options": {"lucky_trio": {"paytable": {"suited_21": "10"}}}},
            "rules.side_options.lucky_trio",
        ),
        ({"blackjack_pays": "2"}, "rules.blackjack_pays"),
        ({"surprise": True}, "rules.surprise"),
        ({"seats": 0}, "rules.seats"),
    ],
)
def test_it_refuses_a_configuration_that_cannot_be(changes, field):
    dlx = table("DLX1")
    with pytest.raises(ValidationError) as error:
        configuration_propose(table=dlx, changes=changes, proposed_by=user(), reason="try")
    assert field_of(error.value) == field
    assert dlx.configurations.count() == 1


def test_a_version_cannot_start_in_the_past_or_change_nothing():
    dlx = table("DLX1")
    with pytest.raises(ValidationError) as error:
        configuration_propose(
            table=dlx,
            changes={"seats": 6},
            proposed_by=user(),
            reason="late",
            valid_from=timezone.now() - timedelta(hours=1),
        )
    assert field_of(error.value) == "valid_from"
    with pytest.raises(ValidationError):
        configuration_propose(table=dlx, changes={"seats": 7}, proposed_by=user(), reason="same")
    with pytest.raises(ValidationError) as error:
        configuration_propose(table=dlx, changes={"seats": 6}, proposed_by=user(), reason=" ")
    assert field_of(error.value) == "reason"


def test_a_future_version_is_pending_until_it_starts():
    dlx = table("DLX1")
    tomorrow = timezone.now() + timedelta(days=1)
    configuration_approved(dlx, {"seats": 5}, reason="fewer seats", valid_from=tomorrow)
    assert configuration_in_force(dlx).version == 1
    assert configuration_in_force(dlx, tomorrow + timedelta(seconds=1)).rule_set.seats == 5


def test_opening_pausing_and_closing_are_logged_with_who_and_why():
    dlx = table("DLX1")
    supervisor = user()
    table_set_status(table=dlx, status="open", changed_by=supervisor, reason="shift starts")
    table_set_status(table=dlx, status="paused", changed_by=supervisor, reason="card reader")
    log = list(TableStatusChange.objects.filter(table=dlx).values_list("from_status", "to_status", "reason"))
    assert log == [("open", "paused", "card reader"), ("closed", "open", "shift starts")]
    with pytest.raises(ValidationError) as error:
        table_set_status(table=dlx, status="paused", changed_by=supervisor, reason="again")
    assert field_of(error.value) == "status"
    with pytest.raises(ValidationError) as error:
        table_set_status(table=dlx, status="open", changed_by=supervisor, reason="")
    assert field_of(error.value) == "reason"
    dlx.refresh_from_db()
    assert dlx.status == "paused"


def test_a_details_change_is_kept_in_the_tables_history():
    dlx = table("DLX1")
    table_update(table=dlx, changed_by=user(), reason="shift change", dealer="Ben")
    latest = dlx.history.first()
    assert (latest.dealer, latest.history_change_reason, latest.history_user.username) == (
        "Ben",
        "shift change",
        "supervisor-user",
    )


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_two_creates_of_one_code_at_once_store_one_table_and_refuse_the_other():
    import threading

    from django.db import connection

    supervisor = user()
    barrier = threading.Barrier(2)
    outcomes = []

    def create():
        barrier.wait()
        try:
            table_create(
                code="DLX9", name="Nine", game="deluxe", currency="EUR", studio="A", created_by=supervisor
            )
            outcomes.append("created")
        except ValidationError as error:
            outcomes.append(field_of(error))
        finally:
            connection.close()

    threads = [threading.Thread(target=create) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(outcomes) == ["code", "created"]
    assert Table.objects.filter(code="DLX9").count() == 1

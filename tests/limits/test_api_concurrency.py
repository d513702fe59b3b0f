"""Two agents change the same personal limit at the same moment (PostgreSQL: real row locks).

Both settings are stored, one after the other: the second replaces the first, no update is lost.
Having both seen the same setting (`seen_setting`, as the page and the API send it), only the
first is stored: the second is refused, never silently written over the first.
"""

import threading
import time
from decimal import Decimal

import pytest
from django.db import connection

from limits import services
from limits.models import PersonalLimit
from limits.services import PersonalLimitChanged, personal_limit_set
from tests.api_support import make_player, make_table, user


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_two_concurrent_changes_to_one_scope_are_both_kept_in_order(monkeypatch):
    read_settings = services.personal_limit_scope_settings

    def slow_read(*args, **kwargs):  # widen the window between reading the setting and writing the next
        time.sleep(0.3)
        return read_settings(*args, **kwargs)

    monkeypatch.setattr(services, "personal_limit_scope_settings", slow_read)
    table = make_table()
    player = make_player()
    agent = user("customer_service")
    start = threading.Barrier(2)
    errors: list[BaseException] = []

    def change(max_stake: str):
        try:
            start.wait(timeout=10)
            personal_limit_set(
                player=player,
                changed_by=agent,
                reason=f"agent setting {max_stake}",
                kind="main",
                table=table,
                max_stake=Decimal(max_stake),
            )
        except BaseException as error:  # noqa: BLE001 - reported below
            errors.append(error)
        finally:
            connection.close()  # each thread had its own connection

    threads = [threading.Thread(target=change, args=(amount,)) for amount in ("100.00", "50.00")]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert errors == []
    first, second = PersonalLimit.objects.order_by("id")
    assert {first.max_stake, second.max_stake} == {Decimal("100.00"), Decimal("50.00")}
    assert first.replaces_id is None
    assert second.replaces_id == first.pk
    assert second.created_at >= first.created_at


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_two_agents_who_saw_the_same_setting_never_overwrite_each_other(monkeypatch):
    read_settings = services.personal_limit_scope_settings

    def slow_read(*args, **kwargs):
        time.sleep(0.3)
        return read_settings(*args, **kwargs)

    monkeypatch.setattr(services, "personal_limit_scope_settings", slow_read)
    table = make_table()
    player = make_player()
    agent = user("customer_service")
    start = threading.Barrier(2)
    refused: list[BaseException] = []
    errors: list[BaseException] = []

    def change(max_stake: str):
        try:
            start.wait(timeout=10)
            personal_limit_set(
                player=player,
                changed_by=agent,
                reason=f"agent setting {max_stake}",
                kind="main",
                table=table,
                max_stake=Decimal(max_stake),
                seen_setting=0,  # both opened the scope with no setting
            )
        except PersonalLimitChanged as error:
            refused.append(error)
        except BaseException as error:  # noqa: BLE001 - reported below
            errors.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=change, args=(amount,)) for amount in ("100.00", "50.00")]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert errors == []
    stored = PersonalLimit.objects.get()
    assert len(refused) == 1
    assert f"setting {stored.pk}" in refused[0].messages[0]

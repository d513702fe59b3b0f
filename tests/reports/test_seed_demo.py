"""seed_demo: the demo tables with their rule sheets' paytables, limits, players, one user per role."""

from io import StringIO

import pytest
from django.contrib.auth import authenticate
from django.core.management import call_command
from django.http import HttpRequest

from accounts.roles import user_role
from blackjack.rules import preset
from limits.models import Player, TableLimit
from tables.models import Table
from tables.selectors import configuration_in_force

pytestmark = pytest.mark.django_db


def seed() -> str:
    out = StringIO()
    call_command("seed_demo", stdout=out)
    return out.getvalue()


def test_it_creates_the_four_tables_with_their_games_rules_and_limits():
    seed()
    games = dict(Table.objects.values_list("code", "game"))
    assert games == {"DLX1": "deluxe", "BND1": "boundless", "CLS1": "classic", "MPB1": "multiplayer"}
    for table in Table.objects.all():
        assert configuration_in_force(table).rule_set == preset(table.game)
        assert table.status == "open"
    kinds = set(TableLimit.objects.filter(table__code="BND1").values_list("kind", flat=True))
    assert kinds == {"main", "pair", "bust_bonus", "lucky_trio", "poker_trio"}
    assert Player.objects.get(external_id="T9001").account_type == "trial"


def test_it_prints_one_user_per_role_whose_password_works():
    output = seed()
    for username, role in [
        ("supervisor", "Supervisor"),
        ("compliance", "Compliance"),
        ("customer-service", "Customer service"),
    ]:
        assert f"user {username} ({role}), password {username}-demo" in output
        # django-axes's backend counts sign-ins per request: authenticate() needs one.
        signed_in = authenticate(HttpRequest(), username=username, password=f"{username}-demo")
        assert user_role(signed_in) == role


def test_running_it_again_changes_nothing():
    seed()
    counts = (Table.objects.count(), TableLimit.objects.count(), Player.objects.count())
    seed()
    assert (Table.objects.count(), TableLimit.objects.count(), Player.objects.count()) == counts

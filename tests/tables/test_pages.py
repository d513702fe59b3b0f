"""The table pages: who may see and change what, the forms, the CSV export, the query count."""

from decimal import Decimal

import pytest
from django.urls import reverse

from accounts.services import user_create
from limits.models import TableLimit
from limits.services import table_limit_set
from tables.models import Table, TableConfiguration, TableStatusChange
from tables.services import table_create, table_set_status
from tests.factories import configuration_approved
from tests.second_factor_support import enrolled_if_required

pytestmark = pytest.mark.django_db

ROLES = {"supervisor": "Supervisor", "compliance": "Compliance", "customer_service": "Customer service"}


def login(client, role: str):
    from django.contrib.auth import get_user_model

    user = get_user_model().objects.filter(username=role).first() or enrolled_if_required(
        user_create(username=role, password="pw-" + role, role=ROLES[role])
    )
    client.force_login(user)
    return user


def make_table(code="DLX1", game="deluxe", currency="EUR"):
    from django.contrib.auth import get_user_model

    creator = get_user_model().objects.filter(username="maker").first() or enrolled_if_required(
        user_create(username="maker", password="pw-maker", role="Supervisor")
    )
    table = table_create(
        code=code, name=f"Table {code}", game=game, currency=currency, studio="Riga 2", created_by=creator
    )
    table_limit_set(
        table=table,
        kind="main",
        min_stake=Decimal("5.00"),
        max_stake=Decimal("2500.00"),
        changed_by=creator,
        reason="opening",
    )
    return table


# --- who may see what --------------------------------------------------------------------------

PAGES = [
    ("tables:table_list", (), "supervisor compliance"),
    ("tables:table_detail", ("DLX1",), "supervisor compliance"),
    ("tables:table_create", (), "supervisor"),
    ("tables:table_update", ("DLX1",), "supervisor"),
    ("tables:table_status", ("DLX1",), "supervisor"),
    ("tables:configuration_change", ("DLX1",), "supervisor"),
    ("tables:configuration_proposal", ("DLX1",), "supervisor compliance"),
    ("tables:configuration_approve", ("DLX1",), "supervisor"),
    ("tables:configuration_reject", ("DLX1",), "supervisor"),
    ("limits:table_limit_list", (), "supervisor compliance"),
    ("limits:table_limit_set", ("DLX1",), "supervisor"),
]


@pytest.mark.parametrize("name,args,allowed", PAGES)
@pytest.mark.parametrize("role", ROLES)
def test_each_page_serves_only_the_roles_allowed(client, name, args, allowed, role):
    make_table()
    login(client, role)
    response = client.get(reverse(name, args=args))
    assert response.status_code == (200 if role in allowed.split() else 403)


@pytest.mark.parametrize("name,args,allowed", PAGES)
def test_each_page_sends_anonymous_visitors_to_the_login_page(client, name, args, allowed):
    make_table()
    url = reverse(name, args=args)
    response = client.get(url)
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))


def test_the_navigation_shows_each_role_only_what_it_may_use(client):
    login(client, "customer_service")
    html = client.get("/").content.decode()
    assert reverse("limits:player_list") in html
    assert reverse("tables:table_list") not in html
    assert reverse("limits:table_limit_list") not in html
    login(client, "supervisor")
    html = client.get("/").content.decode()
    assert reverse("tables:table_list") in html and reverse("limits:personal_limit_list") in html


# --- the list ----------------------------------------------------------------------------------


def test_the_list_shows_tables_with_status_and_version_and_filters(client):
    make_table("DLX1")
    make_table("CLS1", game="classic", currency="GBP")
    login(client, "compliance")
    response = client.get(reverse("tables:table_list"))
    html = response.content.decode()
    assert "DLX1" in html and "CLS1" in html
    assert 'class="badge badge-closed"' in html
    assert "v1" in html
    assert "New table" not in html  # compliance changes nothing
    html = client.get(reverse("tables:table_list"), {"game": "classic"}).content.decode()
    assert "CLS1" in html and "DLX1" not in html
    html = client.get(reverse("tables:table_list"), {"q": "dlx"}).content.decode()
    assert "DLX1" in html and "CLS1" not in html


def test_the_list_exports_csv_with_a_header_row(client):
    make_table()
    login(client, "supervisor")
    response = client.get(reverse("tables:table_list"), {"_export": "csv", "status": "closed"})
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/csv")
    lines = response.getvalue().decode().splitlines()
    assert lines[0].lower().startswith("code,name,game,currency")
    assert lines[1].startswith("DLX1,")


def test_the_table_limit_list_exports_csv_with_a_header_row(client):
    make_table()
    login(client, "compliance")
    response = client.get(reverse("limits:table_limit_list"), {"_export": "csv"})
    assert response["Content-Type"].startswith("text/csv")
    lines = response.getvalue().decode().splitlines()
    assert lines[0].lower().startswith("table,game,kind,minimum stake,maximum stake")
    assert "5.00" in lines[1] and "2500.00" in lines[1]


def test_the_list_costs_the_same_queries_for_many_tables(client, django_assert_max_num_queries):
    for number in range(1, 9):
        make_table(f"DLX{number}")
    login(client, "supervisor")
    with django_assert_max_num_queries(6):
        response = client.get(reverse("tables:table_list"))
    assert response.content.decode().count('class="badge badge-closed"') == 8


# --- the detail page ---------------------------------------------------------------------------


def test_the_detail_page_shows_rules_versions_limits_log_and_history(client):
    table = make_table()
    user = login(client, "supervisor")
    table_set_status(table=table, status="open", changed_by=user, reason="Shift start")
    configuration_approved(
        table,
        {"side_options": {"pair": {"paytable": {"mixed_pair": "6"}, "max_round": 30}}},
        reason="March paytable",
        proposed_by=user,
    )
    html = client.get(reverse("tables:table_detail", args=["DLX1"])).content.decode()
    assert "Mixed pair" in html and "6:1" in html and "Max round: 30" in html
    assert "March paytable" in html and "v2" in html
    assert "Shift start" in html and "badge-open" in html
    assert "2,500.00" in html and "EUR" in html
    assert "UTC" in html


@pytest.mark.parametrize(
    ("game", "word"),
    [
        ("deluxe", "Facilitator"),
        ("boundless", "Facilitator"),
        ("classic", "Dealer"),
        ("multiplayer", "Dealer"),
    ],
)
def test_the_detail_page_calls_who_deals_what_the_games_rule_sheet_calls_them(client, game, word):
    table = make_table(code="T1", game=game)
    Table.objects.filter(pk=table.pk).update(dealer="Ana")
    login(client, "supervisor")
    html = client.get(reverse("tables:table_detail", args=["T1"])).content.decode()
    assert f"<dt>{word} on duty</dt><dd>Ana</dd>" in html


# --- creating a table --------------------------------------------------------------------------

NEW = {"code": "BND7", "name": "Arena", "game": "boundless", "currency": "EUR", "studio": "Riga 2"}


def test_it_creates_a_table_with_the_games_rules(client):
    login(client, "supervisor")
    response = client.post(reverse("tables:table_create"), NEW)
    assert response.status_code == 302
    assert response["Location"] == reverse("tables:table_detail", args=["BND7"])
    table = Table.objects.get(code="BND7")
    assert table.configurations.get().version == 1


@pytest.mark.parametrize(
    "change,field",
    [({"code": "DLX1"}, "code"), ({"game": "roulette"}, "game"), ({"currency": "BTC"}, "currency")],
)
def test_it_creates_nothing_on_a_taken_code_an_unknown_game_or_currency(client, change, field):
    make_table("DLX1")
    login(client, "supervisor")
    response = client.post(reverse("tables:table_create"), {**NEW, **change})
    assert response.status_code == 200
    assert response.context["form"].errors[field]
    assert Table.objects.count() == 1


# --- status ------------------------------------------------------------------------------------


@pytest.mark.parametrize("status", ["open", "paused"])
def test_it_opens_and_pauses_a_table_with_a_reason(client, status):
    make_table()
    login(client, "supervisor")
    response = client.post(
        reverse("tables:table_status", args=["DLX1"]), {"status": status, "reason": "Shift start"}
    )
    assert response.status_code == 302
    assert Table.objects.get(code="DLX1").status == status
    assert TableStatusChange.objects.get().reason == "Shift start"


def test_it_closes_an_open_table(client):
    table = make_table()
    user = login(client, "supervisor")
    table_set_status(table=table, status="open", changed_by=user, reason="Shift start")
    client.post(reverse("tables:table_status", args=["DLX1"]), {"status": "closed", "reason": "End of shift"})
    assert Table.objects.get(code="DLX1").status == "closed"


def test_it_refuses_a_status_change_without_a_reason(client):
    make_table()
    login(client, "supervisor")
    response = client.post(reverse("tables:table_status", args=["DLX1"]), {"status": "open", "reason": " "})
    assert response.status_code == 200
    assert "Say why" in response.context["form"].errors["reason"][0]
    assert Table.objects.get(code="DLX1").status == "closed"
    assert not TableStatusChange.objects.exists()


def test_it_keeps_a_status_change_when_the_details_are_edited(client):
    table = make_table()
    user = login(client, "supervisor")
    table_set_status(table=table, status="open", changed_by=user, reason="Shift start")
    response = client.post(
        reverse("tables:table_update", args=["DLX1"]),
        {"name": "Lounge", "studio": "Riga 3", "dealer": "Bruno", "reason": "New shift"},
    )
    assert response.status_code == 302
    table.refresh_from_db()
    assert (table.name, table.dealer, table.status) == ("Lounge", "Bruno", "open")


# --- configuration -----------------------------------------------------------------------------


def configuration_form(client, code="CLS1", **changes):
    """The form as the page shows it, with `changes` applied."""
    response = client.get(reverse("tables:configuration_change", args=[code]))
    form = response.context["form"]
    data = {}
    for name in form.fields:
        value = form[name].value()
        if value is None or value is False:
            continue
        data[name] = "on" if value is True else value
    data.update(changes)
    return {name: value for name, value in data.items() if value is not None}


def test_it_changes_a_paytable_in_a_new_version_and_keeps_the_old_one(client):
    make_table("CLS1", game="classic")
    login(client, "supervisor")
    data = configuration_form(client, perfect_pairs__mixed_pair="7", reason="March sheet")
    response = client.post(reverse("tables:configuration_change", args=["CLS1"]), data)
    assert response.status_code == 302, response.context["form"].errors
    first, second = TableConfiguration.objects.filter(table__code="CLS1").order_by("version")
    assert first.rules["side_options"]["perfect_pairs"]["paytable"]["mixed_pair"] == "6"
    assert second.rules["side_options"]["perfect_pairs"]["paytable"]["mixed_pair"] == "7"
    assert second.reason == "March sheet"


def test_it_withdraws_a_side_option(client):
    make_table("CLS1", game="classic")
    login(client, "supervisor")
    data = configuration_form(client, reason="No 21+3 tonight")
    data.pop("twenty_one_plus_three__offered")
    response = client.post(reverse("tables:configuration_change", args=["CLS1"]), data)
    assert response.status_code == 302
    latest = TableConfiguration.objects.filter(table__code="CLS1").latest("version")
    assert set(latest.rules["side_options"]) == {"perfect_pairs"}


@pytest.mark.parametrize(
    "change,field",
    [
        ({"perfect_pairs__mixed_pair": "0"}, "perfect_pairs__mixed_pair"),
        ({"perfect_pairs__max_round": "0"}, "perfect_pairs__max_round"),
        ({"seats": "0"}, "seats"),
    ],
)
def test_it_refuses_odds_or_a_max_round_of_zero_naming_the_field(client, change, field):
    make_table("CLS1", game="classic")
    login(client, "supervisor")
    data = configuration_form(client, reason="typo", **change)
    response = client.post(reverse("tables:configuration_change", args=["CLS1"]), data)
    assert response.status_code == 200
    assert response.context["form"].errors[field]
    assert TableConfiguration.objects.filter(table__code="CLS1").count() == 1


def test_it_refuses_a_configuration_that_changes_nothing(client):
    make_table("CLS1", game="classic")
    login(client, "supervisor")
    response = client.post(
        reverse("tables:configuration_change", args=["CLS1"]), configuration_form(client, reason="x")
    )
    assert "Nothing changes" in response.content.decode()
    assert TableConfiguration.objects.count() == 1


def test_it_changes_the_strategy_table_of_the_multi_player_game(client):
    make_table("MPB1", game="multiplayer")
    login(client, "supervisor")
    data = configuration_form(
        client, "MPB1", strategy_overrides="hard16 T stand\nsoft18 9 hit", reason="House"
    )
    response = client.post(reverse("tables:configuration_change", args=["MPB1"]), data)
    assert response.status_code == 302
    latest = TableConfiguration.objects.filter(table__code="MPB1").latest("version")
    assert latest.rules["strategy_overrides"] == {"hard16": {"T": "stand"}, "soft18": {"9": "hit"}}
    bad = configuration_form(client, "MPB1", strategy_overrides="hard16 T fly", reason="House")
    response = client.post(reverse("tables:configuration_change", args=["MPB1"]), bad)
    assert response.context["form"].errors["strategy_overrides"]


# --- table limits ------------------------------------------------------------------------------


def test_it_sets_a_table_limit(client):
    make_table()
    login(client, "supervisor")
    response = client.post(
        reverse("limits:table_limit_set", args=["DLX1"]),
        {"kind": "pair", "min_stake": "1.00", "max_stake": "100.00", "reason": "Side bets"},
    )
    assert response.status_code == 302
    limit = TableLimit.objects.get(table__code="DLX1", kind="pair")
    assert (limit.min_stake, limit.max_stake) == (Decimal("1.00"), Decimal("100.00"))


@pytest.mark.parametrize(
    "stakes,field",
    [
        ({"min_stake": "600", "max_stake": "500"}, "min_stake"),
        ({"min_stake": "1.005", "max_stake": "500"}, "min_stake"),
        ({"min_stake": "0", "max_stake": "500"}, "min_stake"),
        ({"min_stake": "5", "max_stake": "0"}, "max_stake"),
    ],
)
def test_it_refuses_a_table_limit_naming_the_field(client, stakes, field):
    make_table()
    login(client, "supervisor")
    response = client.post(
        reverse("limits:table_limit_set", args=["DLX1"]), {"kind": "main", "reason": "x", **stakes}
    )
    assert response.status_code == 200
    assert response.context["form"].errors[field]
    limit = TableLimit.objects.get(table__code="DLX1", kind="main")
    assert (limit.min_stake, limit.max_stake) == (Decimal("5.00"), Decimal("2500.00"))

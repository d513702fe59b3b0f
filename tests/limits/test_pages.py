"""The player and personal-limit pages: who may see and change what, the forms, CSV, query counts."""

from decimal import Decimal

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse
from django.utils.html import strip_tags

from accounts.services import user_create
from limits.models import PersonalLimit, Player
from limits.services import personal_limit_set, player_create, table_limit_set
from tables.services import table_create
from tests.second_factor_support import enrolled_if_required

pytestmark = pytest.mark.django_db

ROLES = {"supervisor": "Supervisor", "compliance": "Compliance", "customer_service": "Customer service"}


def user(role: str):
    found = get_user_model().objects.filter(username=role).first()
    return found or enrolled_if_required(user_create(username=role, password="pw-" + role, role=ROLES[role]))


def login(client, role: str):
    client.force_login(user(role))
    return user(role)


def make_table(code="DLX1", game="deluxe", currency="EUR"):
    table = table_create(
        code=code,
        name=f"Table {code}",
        game=game,
        currency=currency,
        studio="Riga 2",
        created_by=user("supervisor"),
    )
    table_limit_set(
        table=table,
        kind="main",
        min_stake=Decimal("5.00"),
        max_stake=Decimal("500.00"),
        changed_by=user("supervisor"),
        reason="opening",
    )
    return table


def make_player(external_id="P1001", currency="EUR", **options):
    return player_create(external_id=external_id, currency=currency, display_name="Pat Doe", **options)


def set_limit(player, max_stake, **options):
    return personal_limit_set(
        player=player,
        changed_by=user("customer_service"),
        reason=options.pop("reason", "asked by the player"),
        max_stake=None if max_stake is None else Decimal(max_stake),
        **options,
    )


# --- who may see what --------------------------------------------------------------------------

PAGES = [
    ("limits:player_list", (), "supervisor compliance customer_service"),
    ("limits:player_detail", ("P1001",), "supervisor compliance customer_service"),
    ("limits:player_create", (), "customer_service"),
    ("limits:personal_limit_set", ("P1001",), "customer_service"),
    ("limits:personal_limit_list", (), "supervisor compliance customer_service"),
]


@pytest.mark.parametrize("name,args,allowed", PAGES)
@pytest.mark.parametrize("role", ROLES)
def test_each_page_serves_only_the_roles_allowed(client, name, args, allowed, role):
    make_player()
    login(client, role)
    response = client.get(reverse(name, args=args))
    assert response.status_code == (200 if role in allowed.split() else 403)


@pytest.mark.parametrize("name,args,allowed", PAGES)
def test_each_page_sends_anonymous_visitors_to_the_login_page(client, name, args, allowed):
    make_player()
    response = client.get(reverse(name, args=args))
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))


def test_the_home_page_shows_customer_service_its_cards_only(client):
    login(client, "customer_service")
    html = client.get("/").content.decode()
    assert "Players" in html and "Personal limits" in html
    assert reverse("tables:table_list") not in html


# --- players -----------------------------------------------------------------------------------


def test_the_player_list_searches_by_id_or_name_and_exports_csv(client):
    make_player("P1001")
    player_create(external_id="P2002", currency="GBP", display_name="Kim Lee")
    login(client, "customer_service")
    html = client.get(reverse("limits:player_list"), {"q": "kim"}).content.decode()
    assert "P2002" in html and "P1001" not in html
    html = client.get(reverse("limits:player_list"), {"q": "P1001"}).content.decode()
    assert "P1001" in html and "P2002" not in html
    response = client.get(reverse("limits:player_list"), {"_export": "csv"})
    assert response["Content-Type"].startswith("text/csv")
    lines = response.getvalue().decode().splitlines()
    assert lines[0].lower().startswith("player id,display name")
    assert len(lines) == 3


def test_it_creates_a_player(client):
    login(client, "customer_service")
    response = client.post(
        reverse("limits:player_create"),
        {
            "external_id": "P3003",
            "display_name": "Lou",
            "account_type": "real",
            "currency": "EUR",
            "status": "active",
        },
    )
    assert response.status_code == 302
    assert Player.objects.get(external_id="P3003").history.get().history_user.username == "customer_service"


def test_it_creates_no_player_on_a_taken_id(client):
    make_player("P1001")
    login(client, "customer_service")
    response = client.post(
        reverse("limits:player_create"),
        {"external_id": "P1001", "account_type": "real", "currency": "EUR", "status": "active"},
    )
    assert response.status_code == 200
    assert "already exists" in response.context["form"].errors["external_id"][0]


def test_the_player_page_shows_limits_in_force_pending_history_and_effective_limits(client):
    make_table("DLX1")
    make_table("CLS1", game="classic", currency="GBP")
    player = make_player()
    set_limit(player, "100.00", reason="wants less")
    set_limit(player, "300.00", reason="wants more")  # a raise: pending for 24 hours
    login(client, "compliance")
    html = client.get(reverse("limits:player_detail", args=["P1001"])).content.decode()
    assert "pending until" in html
    assert "wants less" in html and "wants more" in html
    assert "— to 100.00 EUR" in strip_tags(html)  # the raise's "before"
    assert "in force" in html
    # Effective limits: DLX1's main range cut by the personal maximum; CLS1 plays in another currency.
    assert "100.00" in html
    assert "Player P1001 plays in EUR; CLS1 is in GBP." in html
    assert "Set a personal limit" not in html  # compliance changes nothing


def test_the_player_page_costs_the_same_queries_for_many_tables(client, django_assert_max_num_queries):
    player = make_player()
    set_limit(player, "100.00")
    set_limit(player, "300.00")
    set_limit(player, "5.00", kind="pair")
    for number in range(1, 7):
        make_table(f"DLX{number}")
    login(client, "customer_service")
    with django_assert_max_num_queries(14):
        response = client.get(reverse("limits:player_detail", args=["P1001"]))
    assert response.content.decode().count("DLX") >= 6


# --- setting a personal limit ------------------------------------------------------------------


def post_limit(client, external_id="P1001", **data):
    url = reverse("limits:personal_limit_set", args=[external_id])
    context = client.get(url, {key: data[key] for key in ("kind", "table", "game") if key in data}).context
    posted = {name: context["scope_form"][name].value() for name in ("kind", "table", "game")}
    form = context["form"]
    posted.update({field.name: field.value() for field in form.hidden_fields()})  # the scope shown
    posted.update({"min_stake": "", "max_stake": "", "reason": "asked by the player"})
    posted.update(data)
    return client.post(url, {key: "" if value is None else value for key, value in posted.items()})


def test_it_lowers_a_limit_at_once(client):
    player = make_player()
    set_limit(player, "200.00")
    login(client, "customer_service")
    response = post_limit(client, max_stake="50.00")
    assert response.status_code == 302
    latest = PersonalLimit.objects.latest("id")
    assert latest.max_stake == Decimal("50.00")
    page = client.get(response["Location"]).content.decode()
    assert "In force now" in page


def test_it_shows_a_raise_as_pending(client):
    player = make_player()
    set_limit(player, "200.00")
    login(client, "customer_service")
    response = post_limit(client, max_stake="900.00")
    assert response.status_code == 302
    page = client.get(response["Location"]).content.decode()
    assert "pending until" in page


def test_it_refuses_a_raise_without_a_reason(client):
    player = make_player()
    set_limit(player, "200.00")
    login(client, "customer_service")
    response = post_limit(client, max_stake="900.00", reason="")
    assert response.status_code == 200
    assert response.context["form"].errors["reason"]
    assert PersonalLimit.objects.count() == 1


def test_it_sets_a_limit_for_one_kind_at_one_table(client):
    make_table("DLX1")
    make_player()
    login(client, "customer_service")
    response = post_limit(client, kind="pair", table="DLX1", max_stake="5.00")
    assert response.status_code == 302
    setting = PersonalLimit.objects.get()
    assert (setting.kind, setting.table.code, setting.max_stake) == ("pair", "DLX1", Decimal("5.00"))


def test_it_refuses_to_overwrite_a_change_made_meanwhile(client):
    player = make_player()
    set_limit(player, "200.00")
    login(client, "customer_service")
    url = reverse("limits:personal_limit_set", args=["P1001"])
    seen = client.get(url).context["form"]["seen_setting"].value()
    set_limit(player, "150.00", reason="another agent")
    data = {"kind": "", "table": "", "game": "", "seen_setting": seen, "max_stake": "120.00", "reason": "me"}
    response = client.post(url, data)
    assert response.status_code == 200
    assert "Someone changed this limit" in response.content.decode()
    assert PersonalLimit.objects.latest("id").reason == "another agent"
    # The form now knows the new setting: a second try goes through.
    data["seen_setting"] = response.context["form"]["seen_setting"].value()
    assert client.post(url, data).status_code == 302


def test_it_refuses_a_minimum_above_the_maximum_naming_it(client):
    make_player()
    login(client, "customer_service")
    response = post_limit(client, min_stake="50.00", max_stake="10.00")
    assert response.context["form"].errors["min_stake"]
    assert not PersonalLimit.objects.exists()


# --- the personal limit list -------------------------------------------------------------------


def test_the_personal_limit_list_shows_states_and_exports_csv(client):
    player = make_player()
    set_limit(player, "100.00", reason="first")
    set_limit(player, "50.00", reason="second")
    set_limit(player, "300.00", reason="third")
    login(client, "supervisor")
    html = client.get(reverse("limits:personal_limit_list")).content.decode()
    assert "superseded" in html and "in force" in html and "pending" in html
    html = client.get(reverse("limits:personal_limit_list"), {"state": "pending"}).content.decode()
    assert "third" in html and "first" not in html
    response = client.get(reverse("limits:personal_limit_list"), {"_export": "csv"})
    lines = response.getvalue().decode().splitlines()
    assert lines[0].lower().startswith("player,scope,minimum stake,maximum stake")
    assert len(lines) == 4


def test_customer_service_changes_a_players_account_with_a_reason(client):
    from tests.factories import player as make_player
    from tests.factories import user as make_user

    who = make_player("P4242")
    client.force_login(make_user("customer_service"))
    url = f"/limits/players/{who.external_id}/edit/"
    refused = client.post(
        url, {"display_name": "Pat", "account_type": "trial", "status": "active", "reason": ""}
    )
    assert refused.status_code == 200 and "reason" in refused.context["form"].errors
    who.refresh_from_db()
    assert who.account_type == "real"
    response = client.post(
        url, {"display_name": "Pat", "account_type": "trial", "status": "suspended", "reason": "KYC"}
    )
    assert response.status_code == 302
    who.refresh_from_db()
    assert (who.account_type, who.status, who.history.first().history_change_reason) == (
        "trial",
        "suspended",
        "KYC",
    )

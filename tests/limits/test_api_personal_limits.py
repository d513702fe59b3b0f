"""Personal limits through the API: a lower limit is in force at once, a raise waits 24 hours;
every setting is kept with before, after, who, when, why and its state. Every write says which
setting of its scope it saw (`seen_setting`), so two agents never silently overwrite each other."""

from datetime import timedelta

import pytest
from django.utils import timezone
from django.utils.dateparse import parse_datetime

from limits.models import PersonalLimit
from tests.api_support import client_as, make_player, make_table, set_personal

URL = "/api/players/P1001/personal-limits/"


def seen(agent, kind="", table=None, game="") -> int:
    """The latest setting of a scope, read as a client does: the highest id of the scope's
    settings in force or pending in the player's document (0 when the scope has none)."""
    history = agent.get(URL).json()["history"]
    scope = (kind, table, game)
    ids = [
        row["id"]
        for row in history
        if (row["kind"], row["table"], row["game"]) == scope and row["state"] in ("in_force", "pending")
    ]
    return max(ids, default=0)


def post(agent, body: dict):
    """POST `body` having looked at its scope first."""
    scope = {name: body[name] for name in ("kind", "table", "game") if name in body}
    return agent.post(URL, {**body, "seen_setting": seen(agent, **scope)})


@pytest.fixture
def agent(db):
    make_table()
    make_player()
    return client_as("customer_service")


def test_a_lower_limit_is_in_force_at_once(agent):
    response = post(agent, {"max_stake": "50.00", "reason": "asked by the player"})
    assert response.status_code == 201, response.json()
    body = response.json()
    assert (body["state"], body["max_stake"], body["min_stake"], body["before"]) == (
        "in_force",
        "50.00",
        None,
        None,
    )
    assert parse_datetime(body["effective_from"]) <= timezone.now()
    assert body["created_by"] == "api-customer_service"
    document = agent.get(URL).json()
    assert [row["id"] for row in document["in_force"]] == [body["id"]]
    assert document["pending"] == []


def test_a_raise_waits_24_hours_and_a_later_lowering_withdraws_it(agent):
    first = post(agent, {"max_stake": "50.00", "reason": "asked"}).json()
    response = post(agent, {"max_stake": "200.00", "reason": "wants more"})
    assert response.status_code == 201
    raised = response.json()
    assert raised["state"] == "pending"
    assert raised["replaces"] == first["id"]
    assert raised["before"] == {"min_stake": None, "max_stake": "50.00"}
    wait = parse_datetime(raised["effective_from"]) - parse_datetime(raised["created_at"])
    assert timedelta(hours=23, minutes=59) < wait <= timedelta(hours=24, seconds=1)
    document = agent.get(URL).json()
    assert [row["max_stake"] for row in document["in_force"]] == ["50.00"]
    assert [row["id"] for row in document["pending"]] == [raised["id"]]
    check = {"player": "P1001", "table": "DLX1", "kind": "main", "amount": "100.00"}
    refused = agent.post("/api/limits/check", check).json()
    assert (refused["allowed"], refused["max_stake"]) == (False, "50.00")

    lowered = post(agent, {"max_stake": "30.00", "reason": "changed mind"}).json()
    assert lowered["state"] == "in_force"
    document = agent.get(URL).json()
    assert document["pending"] == []
    states = [(row["max_stake"], row["state"], row["reason"]) for row in document["history"]]
    assert states == [
        ("30.00", "in_force", "changed mind"),
        ("200.00", "withdrawn", "wants more"),
        ("50.00", "superseded", "asked"),
    ]
    assert document["history"][0]["before"] == {"min_stake": None, "max_stake": "50.00"}


def test_a_scoped_limit_and_the_list_of_everyones(agent):
    make_player("P2002")
    body = {"kind": "pair", "table": "DLX1", "max_stake": "10.00", "reason": "side bets only small"}
    assert post(agent, body).status_code == 201
    assert post(agent, {"game": "classic", "min_stake": "2.00", "reason": "x"}).status_code == 201
    set_personal(make_player("P3003"), max_stake="5.00")
    rows = agent.get("/api/personal-limits/?player=P1001&ordering=created_at").json()["results"]
    assert [(r["kind"], r["table"], r["game"], r["scope"]) for r in rows] == [
        ("pair", "DLX1", "", "Pair at DLX1"),
        ("", None, "classic", "all kinds at BlackJack (classic)"),
    ]
    assert {r["state"] for r in rows} == {"in_force"}
    assert agent.get("/api/personal-limits/?table=DLX1").json()["count"] == 1
    assert agent.get("/api/personal-limits/?state=pending").json()["count"] == 0
    one = agent.get(f"/api/personal-limits/{rows[0]['id']}/").json()
    assert (one["state"], one["range"]) == ("in_force", "— to 10.00 EUR")


def test_a_write_without_seen_setting_is_400_naming_it(agent):
    response = agent.post(URL, {"max_stake": "50.00", "reason": "asked"})
    assert response.status_code == 400
    assert "seen_setting" in response.json(), response.json()
    assert PersonalLimit.objects.count() == 0
    response = agent.post(URL, {"max_stake": "50.00", "reason": "asked", "seen_setting": None})
    assert response.status_code == 400 and "seen_setting" in response.json()


def test_a_stale_write_is_409_naming_what_is_in_force_now(agent):
    seen_by_both = 0
    first = agent.post(URL, {"max_stake": "50.00", "reason": "first agent", "seen_setting": seen_by_both})
    assert first.status_code == 201, first.json()
    response = agent.post(URL, {"max_stake": "20.00", "reason": "second agent", "seen_setting": seen_by_both})
    assert response.status_code == 409
    message = " ".join(response.json()["seen_setting"])
    assert "Someone changed this limit" in message
    assert "— to 50.00 EUR" in message  # what is in force now
    assert f"setting {first.json()['id']}" in message  # what to send to replace it
    assert PersonalLimit.objects.count() == 1
    # Having seen it, the second agent's change goes through.
    again = {"max_stake": "20.00", "reason": "second agent", "seen_setting": first.json()["id"]}
    assert agent.post(URL, again).status_code == 201


def test_a_pending_raise_is_the_setting_to_have_seen(agent):
    lowered = post(agent, {"max_stake": "50.00", "reason": "asked"}).json()
    raised = post(agent, {"max_stake": "90.00", "reason": "wants more"}).json()
    assert raised["state"] == "pending"
    response = agent.post(URL, {"max_stake": "40.00", "reason": "x", "seen_setting": lowered["id"]})
    assert response.status_code == 409
    message = " ".join(response.json()["seen_setting"])
    assert "— to 50.00 EUR" in message and "pending" in message and "— to 90.00 EUR" in message
    assert f"setting {raised['id']}" in message
    seen_now = {"max_stake": "40.00", "reason": "x", "seen_setting": raised["id"]}
    assert agent.post(URL, seen_now).status_code == 201


def test_the_seen_setting_is_of_the_scope_written(agent):
    post(agent, {"max_stake": "50.00", "reason": "every kind"})
    pair = {"kind": "pair", "table": "DLX1", "max_stake": "5.00", "reason": "pair only"}
    assert agent.post(URL, {**pair, "seen_setting": 0}).status_code == 201  # another scope's change
    assert agent.post(URL, {**pair, "max_stake": "4.00", "seen_setting": 0}).status_code == 409


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"min_stake": "80.00", "max_stake": "50.00"}, "min_stake"),
        ({"max_stake": "-5.00"}, "max_stake"),
        ({"max_stake": "0"}, "max_stake"),
        ({"max_stake": "12.345"}, "max_stake"),
        ({"max_stake": 12.345}, "max_stake"),
        ({"max_stake": "50.00", "currency": "GBP"}, "currency"),
        ({"max_stake": "50.00", "kind": "roulette"}, "kind"),
        ({"max_stake": "50.00", "game": "poker"}, "game"),
        ({"max_stake": "50.00", "table": "NOPE"}, "table"),
        ({"max_stake": "50.00", "table": "GBP1"}, "table"),  # plays in pounds, the player in euros
        ({"max_stake": "50.00", "table": "DLX1", "game": "deluxe"}, "game"),
        ({"max_stake": "50.00", "seen_setting": -1}, "seen_setting"),
        ({"max_stake": "50.00", "seen_setting": "latest"}, "seen_setting"),
        ({"max_stake": "50.00", "player": "P2"}, "player"),
        ({"max_stake": "50.00"}, "reason"),
    ],
)
def test_bad_input_is_400_naming_the_field_and_stores_nothing(agent, body, field):
    make_table("GBP1", currency="GBP")
    body = {"reason": "asked", **body} if field != "reason" else body
    response = agent.post(URL, {"seen_setting": 0, **body})
    assert response.status_code == 400
    assert field in response.json(), response.json()
    assert PersonalLimit.objects.count() == 0


def test_setting_the_limit_already_in_force_is_400(agent):
    post(agent, {"max_stake": "50.00", "reason": "asked"})
    response = post(agent, {"max_stake": "50.00", "reason": "again"})
    assert response.status_code == 400
    assert "max_stake" in response.json()
    assert PersonalLimit.objects.count() == 1


def test_the_players_document_stays_at_a_few_queries(agent, django_assert_max_num_queries):
    for amount in ("90.00", "80.00", "70.00", "75.00"):
        post(agent, {"max_stake": amount, "reason": "asked"})
    post(agent, {"kind": "pair", "max_stake": "5.00", "reason": "asked"})
    with django_assert_max_num_queries(8):
        assert len(agent.get(URL).json()["history"]) == 5
    with django_assert_max_num_queries(8):
        assert agent.get("/api/personal-limits/").json()["count"] == 5

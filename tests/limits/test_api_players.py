"""Players through the API: create, list with the page's filters, change with a reason."""

import pytest

from limits.models import Player
from tests.api_support import client_as, make_player


@pytest.fixture
def agent():
    return client_as("customer_service")


@pytest.mark.django_db
def test_it_creates_and_reads_a_player(agent):
    body = {"external_id": "P2002", "currency": "GBP", "display_name": "Kim", "account_type": "trial"}
    response = agent.post("/api/players/", body)
    assert response.status_code == 201
    assert response.json()["account_type"] == "trial"
    assert agent.get("/api/players/P2002/").json()["currency"] == "GBP"
    assert Player.history.get().history_user.username == "api-customer_service"


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"external_id": "P1001"}, "external_id"),  # taken
        ({"currency": "XYZ"}, "currency"),
        ({"currency": None}, "currency"),
        ({"account_type": "vip"}, "account_type"),
        ({"balance": "10.00"}, "balance"),
    ],
)
def test_it_refuses_a_bad_player(agent, change, field):
    make_player("P1001")
    response = agent.post("/api/players/", {"external_id": "P2002", "currency": "EUR", **change})
    assert response.status_code == 400
    assert field in response.json()
    assert Player.objects.count() == 1


@pytest.mark.django_db
def test_it_lists_with_the_pages_filters(agent):
    make_player("P1001")
    make_player("P2002", currency="GBP", account_type="trial")
    make_player("Q3003")
    assert [p["external_id"] for p in agent.get("/api/players/?currency=GBP").json()["results"]] == ["P2002"]
    assert [p["external_id"] for p in agent.get("/api/players/?account_type=trial").json()["results"]] == [
        "P2002"
    ]
    assert [p["external_id"] for p in agent.get("/api/players/?q=q30").json()["results"]] == ["Q3003"]
    newest_first = agent.get("/api/players/?ordering=-external_id").json()["results"]
    assert [p["external_id"] for p in newest_first] == ["Q3003", "P2002", "P1001"]


@pytest.mark.django_db
def test_it_changes_a_player_with_a_reason(agent):
    player = make_player()
    response = agent.patch("/api/players/P1001/", {"status": "suspended", "reason": "self-exclusion"})
    assert response.status_code == 200
    assert response.json()["status"] == "suspended"
    latest = player.history.first()
    assert (latest.status, latest.history_change_reason) == ("suspended", "self-exclusion")


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"status": "suspended"}, "reason"),
        ({"status": "suspended", "reason": ""}, "reason"),
        ({"status": "gone", "reason": "x"}, "status"),
        ({"currency": "GBP", "reason": "x"}, "currency"),
        ({"external_id": "P9", "reason": "x"}, "external_id"),
    ],
)
def test_it_refuses_a_bad_change(agent, body, field):
    make_player()
    response = agent.patch("/api/players/P1001/", body)
    assert response.status_code == 400
    assert field in response.json()
    assert list(Player.objects.values_list("external_id", "status", "currency")) == [
        ("P1001", "active", "EUR")
    ]


@pytest.mark.django_db
def test_an_unknown_player_is_404(agent):
    assert agent.get("/api/players/NOPE/").status_code == 404
    assert agent.get("/api/players/NOPE/personal-limits/").status_code == 404
    response = agent.post("/api/players/NOPE/personal-limits/", {"max_stake": "5.00", "reason": "x"})
    assert response.status_code == 404
    assert response.json()["detail"]

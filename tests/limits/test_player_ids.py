"""A player id typed by customer service follows the same rule as one a game server sends (issue 16):
"GS/P1001" was stored and its player page was then a 404, so no limit could ever be set."""

import pytest
from django.test import Client
from django.urls import reverse

from limits.models import Player
from tests.api_support import client_as, user

BAD_IDS = ["GS/P1001", "..", "P 1", "Pü", "new", "x" * 65, "P\x00"]


@pytest.mark.django_db
@pytest.mark.parametrize("external_id", BAD_IDS)
def test_the_api_refuses_a_player_id_outside_the_alphabet(external_id):
    response = client_as("customer_service").post(
        "/api/players/", {"external_id": external_id, "currency": "EUR"}
    )
    assert response.status_code == 400
    assert list(response.json()) == ["external_id"]
    assert not Player.objects.exists()


@pytest.mark.django_db
@pytest.mark.parametrize("external_id", BAD_IDS)
def test_the_player_form_refuses_a_player_id_outside_the_alphabet(external_id):
    client = Client()
    client.force_login(user("customer_service"))
    response = client.post(
        reverse("limits:player_create"),
        {"external_id": external_id, "account_type": "real", "currency": "EUR", "status": "active"},
    )
    assert response.status_code == 200
    assert response.context["form"].errors["external_id"]
    assert not Player.objects.exists()


@pytest.mark.django_db
def test_a_player_id_with_dots_and_colons_is_taken_and_manageable():
    agent = client_as("customer_service")
    assert agent.post("/api/players/", {"external_id": "GS:P.1001_a-b", "currency": "EUR"}).status_code == 201
    assert agent.get(reverse("api:player-detail", args=["GS:P.1001_a-b"])).status_code == 200

"""A reason kept in a model's history holds 100 characters: a longer one is refused beside its
field on the page, and nothing is saved (PostgreSQL would refuse it with a server error)."""

import pytest
from django.urls import reverse

from limits.models import Player
from tables.models import Table
from tests import factories

pytestmark = pytest.mark.django_db

TOO_LONG = "why " * 26  # 104 characters


def test_a_too_long_reason_for_a_player_change_is_refused_on_the_page(client):
    factories.player("P1001")
    client.force_login(factories.user("customer_service"))
    url = reverse("limits:player_update", args=["P1001"])
    data = {"display_name": "Renamed", "account_type": "real", "status": "active", "reason": TOO_LONG}
    response = client.post(url, data)
    assert response.status_code == 200
    assert "at most 100 characters" in response.content.decode()
    assert Player.objects.get(external_id="P1001").display_name == "Pat"


def test_a_too_long_reason_for_a_table_change_is_refused_on_the_page(client):
    factories.table("DLX1")
    client.force_login(factories.user("supervisor"))
    url = reverse("tables:table_update", args=["DLX1"])
    data = {"name": "Renamed", "studio": "Studio A", "dealer": "Ana", "reason": TOO_LONG}
    response = client.post(url, data)
    assert response.status_code == 200
    assert "at most 100 characters" in response.content.decode()
    assert Table.objects.get(code="DLX1").name == "Table DLX1"

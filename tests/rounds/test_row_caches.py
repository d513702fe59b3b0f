"""The play record's and an incident's refund rows are kept in the cache by what they show
(templates/rounds/includes/play_record_table.html, refund_table.html): cached rows are never another
player's, another incident's, another page's, an older state's or another time zone's."""

import re
from datetime import UTC, datetime

import pytest
from django.core.cache import cache
from django.test import Client

from accounts.services import time_zone_set
from rounds import services
from rounds.models import Round
from tests.rounds.corrections_support import demo, demo_user, wrongly_paid  # noqa: F401
from tests.rounds.test_incident_refund_pages import refund_rows, refunded_incident  # noqa: F401

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("demo")]


@pytest.fixture(autouse=True)
def empty_cache():
    cache.clear()


def signed_in(username: str) -> Client:
    client = Client()
    client.force_login(demo_user(username))
    return client


def play_record_row(client, round_: Round) -> str:
    bet = round_.bets.order_by("id").first()
    page = client.get(f"/rounds/players/{bet.player.external_id}/")
    assert page.status_code == 200
    return re.search(rf"<tr [^>]*>(?:(?!</tr>).)*?>{bet.bet_id}</td>.*?</tr>", page.content.decode(), re.S)[0]


def test_a_play_record_row_shows_its_rounds_correction_once_made():
    round_ = wrongly_paid()
    client = signed_in("customer-service")
    row = play_record_row(client, round_)
    assert "badge-completed" in row
    assert play_record_row(client, round_) == row  # the same, from the cache

    resettlement = services.resettlement_propose(
        round_=round_, proposed_by=demo_user("compliance"), reason="Short paid."
    )
    services.resettlement_approve(resettlement=resettlement, decided_by=demo_user("supervisor"), comment="ok")
    row = play_record_row(client, round_)
    assert "badge-resettled" in row and "5.00" in row  # its adjustment


def test_each_user_sees_the_play_record_in_their_own_time_zone():
    round_ = wrongly_paid()
    Round.objects.filter(pk=round_.pk).update(opened_at=datetime(2026, 3, 1, 14, 5, tzinfo=UTC))
    time_zone_set(user=demo_user("supervisor"), time_zone="America/New_York")
    assert "2026-03-01 15:05 CET" in play_record_row(signed_in("customer-service"), round_)
    assert "2026-03-01 09:05 EST" in play_record_row(signed_in("supervisor"), round_)


def test_each_page_of_refunds_shows_its_own(refunded_incident):  # noqa: F811
    client = signed_in("supervisor")
    url = f"/rounds/incidents/{refunded_incident.pk}/"
    first = refund_rows(client.get(url).content.decode())
    second = refund_rows(client.get(f"{url}?refunds-page=2").content.decode())
    assert first and second and not set(first) & set(second)
    assert refund_rows(client.get(url).content.decode()) == first
    by_player = refund_rows(client.get(f"{url}?refunds-sort=-player").content.decode())
    assert by_player != first

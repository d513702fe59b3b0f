"""Customer service looks up a round or bet of an archived month (issue 44; PostgreSQL): as for a
round in the database, the search opens its players' play records at that round, whose period (the
round's gaming day) lists the bets read back from the archive."""

import pytest
from django.test import Client

from rounds.access import play_record_at
from rounds.models import Bet
from tests.rounds.corrections_support import demo_user

pytestmark = [pytest.mark.postgres, pytest.mark.django_db]


def test_an_archived_round_or_bet_opens_its_players_play_record_at_that_round(archived):
    history, before, _, _, _ = archived
    wrong = history.march[1]
    bets = before.api[wrong.round_id]["bets"]
    assert not Bet.objects.filter(bet_id=bets[0]["bet_id"]).exists()  # its month is archived
    agent = Client()
    agent.force_login(demo_user("customer-service"))

    bet = bets[0]
    answer = agent.get("/search/", {"q": bet["bet_id"]})
    expected = play_record_at(bet["player"], wrong.round_id, wrong.gaming_day)
    assert answer.status_code == 302 and answer["Location"] == expected
    page = agent.get(expected)
    assert page.status_code == 200
    assert bet["bet_id"] in page.content.decode()  # in the period's bets read back from the archive

    players = sorted({b["player"] for b in bets})
    answer = agent.get("/search/", {"q": wrong.round_id})
    if len(players) == 1:
        assert answer["Location"] == play_record_at(players[0], wrong.round_id, wrong.gaming_day)
    else:
        html = answer.content.decode()
        for player in players:
            assert play_record_at(player, wrong.round_id, wrong.gaming_day).replace("&", "&amp;") in html
    assert f'href="/rounds/{wrong.round_id}/"' not in answer.content.decode()

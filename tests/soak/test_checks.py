"""The soak's checks catch what they are there to catch, on real rows: a round posted but never
stored, a round stored that was never posted, a round whose bets differ from those sent, and the
players' totals out of step with the bets (the catch-up not yet run) until the catch-up runs."""

import pytest

from rounds.models import Bet
from rounds.totals import player_totals_catch_up
from tests.rounds.corrections_support import boundless_shoe, demo, ingest  # noqa: F401
from tests.soak.checks import rounds_check, task_effects_check
from tests.soak.game_servers import Sent

pytestmark = pytest.mark.postgres


@pytest.fixture
def stored(demo):  # noqa: F811
    """Two rounds of a SOAK- shoe, stored; what a game server would have noted sending them."""
    sent = Sent()
    for document in boundless_shoe("SOAK-BND1-CHECKS", players=3, seed=56)[:2]:
        sent.rounds[ingest(document).round_id] = len(document["bets"])
    return sent


def test_every_round_as_sent_passes(stored):
    verdict = rounds_check([stored])
    assert verdict["ok"], verdict["problems"]
    assert verdict["rounds_posted"] == verdict["rounds_stored"] == 2


def test_a_round_posted_and_not_stored_is_caught(stored):
    stored.rounds["SOAK-BND1-CHECKS-999"] = 4
    verdict = rounds_check([stored])
    assert not verdict["ok"]
    assert verdict["problems"] == ["1 rounds posted but not stored: SOAK-BND1-CHECKS-999"]


def test_a_round_stored_and_never_posted_is_caught(stored):
    unposted = next(iter(stored.rounds))
    del stored.rounds[unposted]
    verdict = rounds_check([stored])
    assert verdict["problems"] == [f"1 rounds stored but never posted: {unposted}"]


def test_a_round_missing_a_bet_is_caught(stored):
    round_id = next(iter(stored.rounds))
    Bet.objects.filter(round__round_id=round_id).order_by("id").first().delete()
    verdict = rounds_check([stored])
    assert verdict["problems"] == [f"1 rounds whose bets differ from those sent: {round_id}"]


def test_player_totals_behind_the_bets_are_caught(stored):
    behind = task_effects_check()
    assert not behind["ok"]
    assert "2 rounds' bets not yet in the player totals" in behind["problems"]
    assert any(
        "player totals differ from the sums of their bets" in problem for problem in behind["problems"]
    )
    player_totals_catch_up()
    caught_up = task_effects_check()
    # The outbox's messages wait for a commit that a test's transaction never makes: only the totals.
    assert not [problem for problem in caught_up["problems"] if "player totals" in problem], caught_up
    assert "refund" in caught_up["ledger_chains_verified"]

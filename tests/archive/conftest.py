from datetime import date

import pytest
from django.test import Client

from rounds.models import Bet
from rounds.selectors import play_record_bets
from rounds.services import void_propose
from tests.api_support import client_as
from tests.archive.recall_support import PERIOD, Before, csv_rows, page_of, shown_bet
from tests.archive.support import History, history_make, march_archived
from tests.rounds.corrections_support import demo_user


@pytest.fixture
def history(db, settings) -> History:
    """Two tables' rounds in March 2026 and one in April, before a hot window of 6 months."""
    settings.PITBOSS_HOT_MONTHS = 6
    return history_make()


@pytest.fixture
def archived(history, tmp_path, settings):
    """March of both tables archived (April stays in the database); what was shown of it before."""
    settings.PITBOSS_ARCHIVE_URL = str(tmp_path / "archive")
    plain, wrong, completed, cancelled = history.march
    # A void proposed before its month was archived, decided after.
    void = void_propose(round_=plain, proposed_by=demo_user("supervisor"), reason="malfunction")
    compliance = Client()
    compliance.force_login(demo_user("compliance"))
    api = client_as("compliance")
    player = Bet.objects.filter(round=wrong).select_related("player").first().player
    record = compliance.get(f"/rounds/players/{player.external_id}/", PERIOD)
    before = Before(
        pages={r.round_id: page_of(compliance, r.round_id) for r in history.march},
        documents={
            r.round_id: compliance.get(f"/rounds/{r.round_id}/document/").content for r in history.march
        },
        api={r.round_id: api.get(f"/api/rounds/{r.round_id}/").json() for r in history.march},
        play_record={name: record.context[name] for name in ("totals", "period_totals")},
        player_bets={
            bet.bet_id: shown_bet(bet)
            for bet in play_record_bets(player).filter(gaming_day__lt=date(2026, 4, 1))
        },
        play_record_csv=csv_rows(
            compliance.get(f"/rounds/players/{player.external_id}/", {"_export": "csv"})
        ),
    )
    march_archived(history)
    return history, before, compliance, player, void

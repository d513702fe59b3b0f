"""An archived month's limit breaches on the play record (PostgreSQL): each breaching bet still marked,
and the findings file read only for a month where one of the player's rounds counted findings."""

from datetime import date

import pytest
from django.test import Client

from archive.month_files import MonthFiles
from limits.models import Player
from rounds.models import Round
from rounds.selectors import play_record_bets
from rounds.totals import player_totals_catch_up
from tests.archive.recall_support import PERIOD, shown_bet
from tests.archive.support import ingest_document_at, march_archived
from tests.fixtures import round_document
from tests.rounds.corrections_support import demo_user, renamed

pytestmark = [pytest.mark.postgres, pytest.mark.django_db]
BREACHING = "PDLX10002"  # the demo's player whose own maximum stake (10.00) the fixture's 15.00 breaches


@pytest.fixture
def files_read(monkeypatch) -> list[str]:
    """The archive files each MonthFiles.select reads, by name, in order."""
    read = []
    select = MonthFiles.select

    def recorded(self, name, *args, **kwargs):
        read.append(name)
        return select(self, name, *args, **kwargs)

    monkeypatch.setattr(MonthFiles, "select", recorded)
    return read


def archived_bets_shown(client: Client, player: Player) -> dict[str, tuple]:
    record = client.get(f"/rounds/players/{player.external_id}/", PERIOD)
    assert record.status_code == 200
    return {bet.bet_id: shown_bet(bet) for bet in record.context["archive"].bets}


def test_an_archived_breach_stays_marked_and_a_month_without_findings_reads_no_findings(
    history, files_read, tmp_path, settings
):
    settings.PITBOSS_ARCHIVE_URL = str(tmp_path / "archive")
    document = renamed(round_document("deluxe-split-double-play-behind"), "-BR")
    for part in document["spots"] + document["bets"]:
        part["player"] = BREACHING
    breach = ingest_document_at(document, date(2026, 3, 20), hours=3)
    player_totals_catch_up()
    breaching = Player.objects.get(external_id=BREACHING)
    clean = next(
        p
        for p in Player.objects.filter(bets__gaming_day__lt=date(2026, 4, 1)).distinct().order_by("pk")
        if not Round.objects.filter(bets__player=p, finding_count__gt=0).exists()
    )
    before = {
        player: {
            bet.bet_id: shown_bet(bet)
            for bet in play_record_bets(player).filter(round__in=history.march + [breach])
        }
        for player in (breaching, clean)
    }
    assert any(shown[-1] for shown in before[breaching].values())  # shown_bet ends with `breached`

    march_archived(history)
    client = Client()
    client.force_login(demo_user("compliance"))

    assert archived_bets_shown(client, breaching) == before[breaching]
    assert "findings" in files_read
    files_read.clear()
    assert archived_bets_shown(client, clean) == before[clean]
    assert "bets" in files_read and "findings" not in files_read

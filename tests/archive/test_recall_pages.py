"""An archived round of several pages of players: each page reads only its players' bets from the
archive (rounds.recall.RecalledRound.bets_of; their hands are in the round's document), and shows
what the page showed before the drop, the players with findings only, and the findings linked to the
page that holds their bet. The API answers the whole round as before.

Three rounds of a simulated Boundless shoe with 120 players (25 a page: five pages) at BND1 in March
2026; one bet of the last player of the second round is reported paid 1.00 more than the engine
computes (a finding, on the last page).
"""

from decimal import Decimal

import pytest
from django.core.cache import cache
from django.test import Client

from archive.drop import month_drop
from archive.models import ArchiveStatus
from archive.services import month_export, month_verify
from rounds.ingest import round_ingest
from rounds.totals import player_totals_catch_up
from tables.models import Table
from tests.api_support import client_as
from tests.archive.recall_support import region
from tests.archive.support import MARCH, boundless_march, rounds_of
from tests.rounds.corrections_support import demo_user

pytestmark = [pytest.mark.postgres, pytest.mark.django_db]
PLAYERS = 120


def page_of(client: Client, round_id: str, query: str) -> str:
    response = client.get(f"/rounds/{round_id}/{query}")
    assert response.status_code == 200
    return response.content.decode()


@pytest.fixture
def boundless(db, settings, tmp_path):
    settings.PITBOSS_HOT_MONTHS = 6
    settings.PITBOSS_ARCHIVE_URL = str(tmp_path / "archive")
    documents = boundless_march(players=PLAYERS, seed=7, rounds=3)
    bet = documents[1]["bets"][-1]
    bet["returned"] = f"{Decimal(bet['returned']) + 1:.2f}"
    rounds = [round_ingest(document=document).round for document in documents]
    player_totals_catch_up()
    assert rounds[1].finding_count >= 1
    return Table.objects.get(code="BND1"), rounds


def test_an_archived_round_of_several_pages_shows_each_page_as_before(boundless):
    table, rounds = boundless
    compliance = Client()
    compliance.force_login(demo_user("compliance"))
    api = client_as("compliance")
    round_id = rounds[1].round_id
    queries = ["", "?spots=2", "?spots=5", "?findings=1"]
    before = {query: page_of(compliance, round_id, query) for query in queries}
    answer = api.get(f"/api/rounds/{round_id}/").json()
    assert month_export(table, MARCH).status == ArchiveStatus.EXPORTED
    assert month_verify(table, MARCH).status == ArchiveStatus.VERIFIED
    month_drop(MARCH)
    assert rounds_of(MARCH) == 0
    cache.clear()

    for query in queries:
        html, hot = page_of(compliance, round_id, query), before[query]
        assert "From the archive (month 2026-03" in html
        for start, end in (
            ('<dl class="facts">', "</dl>"),
            ('<details class="panel findings-panel"', "</details>"),
            ('<section class="panel deal">', '<section class="panel" id="corrections">'),
        ):
            assert region(html, start, end) == region(hot, start, end), (query, start)
    # On the first page, the finding links to the last page, which holds its bet.
    html = page_of(compliance, round_id, "")
    assert "page 1 of 5" in html and "?spots=5#bet-" in region(
        html, '<details class="panel findings-panel"', "</details>"
    )
    # The bet paid other than computed, named in the corrections as before; no proposal here.
    assert "1 bet paid other than the engine computes" in html and "Propose a re-settlement" not in html
    assert "Propose a re-settlement" in before[""]

    archived = api.get(f"/api/rounds/{round_id}/").json()
    assert archived.pop("archived") is True and archived.pop("archive")["table"] == "BND1"
    assert (answer.pop("archived"), answer.pop("archive")) == (False, None)
    assert archived == answer and len(archived["spots"]) == PLAYERS

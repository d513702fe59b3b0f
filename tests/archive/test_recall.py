"""An archived round is recalled as a hot one is (PostgreSQL; rounds.recall, archive.recall).

March 2026 of both tables (tests/archive/support.py: a re-settled DLX1 round, a CLS1 round the game
server cancelled and its incident refunded) is exported, verified and dropped. Its rounds are then
found by id from the archive, read through DuckDB: the round page (with a banner saying so) shows the
same facts, cards, bets, adjustments and refunds as before the drop; the API answers the same round
with `archived` true; the play record of a period reaching into March lists the player's archived
bets and counts them in its totals. A correction of an archived round is refused with the command
that restores its month.
"""

import re
from zoneinfo import ZoneInfo

import pytest
from django.utils import timezone

from accounts.services import preferred_time_zone
from archive.models import ArchivedMonth
from rounds.models import Incident, Round
from rounds.services import (
    TransitionRefused,
    incident_cancel_round,
    incident_open,
    resettlement_propose,
    void_approve,
    void_propose,
)
from tests.api_support import client_as
from tests.archive.recall_support import PERIOD, RESTORE_CLS1, RESTORE_DLX1, page_of, region, shown_bet
from tests.archive.support import MARCH
from tests.rounds.corrections_support import demo_user, second_supervisor

pytestmark = [pytest.mark.postgres, pytest.mark.django_db]


def test_the_round_page_of_an_archived_round_shows_what_it_showed_before(archived):
    history, before, compliance, _, _ = archived
    # The page's dates are in the officer's time zone (by default the casino's): near midnight, not
    # the day UTC has.
    exported = ArchivedMonth.objects.get(table=history.dlx1, month=MARCH).exported_at
    exported = timezone.localtime(exported, ZoneInfo(preferred_time_zone(demo_user("compliance"))))

    for round_ in history.march:
        html = page_of(compliance, round_.round_id)
        hot = before.pages[round_.round_id]

        assert f"From the archive (month 2026-03, exported {exported:%Y-%m-%d})" in html
        assert "From the archive" not in hot
        # The round's facts, its money, the deal, every spot and hand, every bet: as before.
        for start, end in (
            ('<dl class="facts">', "</dl>"),
            ('<table class="compact money-compare">', "</table>"),
            ('<section class="panel deal">', '<section class="panel" id="corrections">'),
        ):
            assert region(html, start, end) == region(hot, start, end), (round_.round_id, start)
        assert 'class="card' in html and "Bets" in html
        table = "DLX1" if round_.table_id == history.dlx1.pk else "CLS1"
        restore = f"python manage.py archive_restore {table} 2026-03"
        assert restore in html
        assert "Propose a re-settlement" not in html and "Propose a void of this round" not in html
        # The raw document, as received.
        assert (
            compliance.get(f"/rounds/{round_.round_id}/document/").content
            == before.documents[round_.round_id]
        )

    plain, wrong, _, cancelled = history.march
    html, hot = page_of(compliance, wrong.round_id), before.pages[wrong.round_id]
    bet_ids = re.findall(r'<tr id="bet-\d+"[^>]*>\s*<td class="mono nowrap">([^<]+)</td>', html)
    assert bet_ids and bet_ids == re.findall(
        r'<tr id="bet-\d+"[^>]*>\s*<td class="mono nowrap">([^<]+)</td>', hot
    )
    # The approved re-settlement's adjustments, read back from the archive's adjustments.
    assert region(html, '<div class="resettlement">', "</table>") == region(
        hot, '<div class="resettlement">', "</table>"
    )
    assert "5.00" in region(html, '<div class="resettlement">', "</table>")
    # The cancelled round's incident and refunds (the refunds from the archive).
    assert region(
        html := page_of(compliance, cancelled.round_id), '<section class="panel" id="incident">', "</section>"
    ) == region(before.pages[cancelled.round_id], '<section class="panel" id="incident">', "</section>")
    assert "Refunded in all" in html
    # The void proposed before the month was archived is shown; no one may decide it here.
    assert "Void " in (html := page_of(compliance, plain.round_id)) and "Approve the void" not in html


def test_a_round_not_stored_anywhere_is_still_not_found(archived):
    _, _, compliance, _, _ = archived
    assert compliance.get("/rounds/NO-SUCH-ROUND/").status_code == 404
    assert client_as("compliance").get("/api/rounds/NO-SUCH-ROUND/").status_code == 404


def test_the_api_answers_an_archived_round_in_the_same_shape_saying_it_is_archived(archived):
    history, before, _, _, _ = archived
    api = client_as("compliance")
    exported = ArchivedMonth.objects.get(table=history.cls1, month=MARCH).exported_at

    for round_ in history.march:
        response = api.get(f"/api/rounds/{round_.round_id}/")
        assert response.status_code == 200
        answer, hot = response.json(), dict(before.api[round_.round_id])

        assert (hot.pop("archived"), hot.pop("archive")) == (False, None)
        assert answer.pop("archived") is True
        archive = answer.pop("archive")
        assert archive["month"] == "2026-03" and archive["restore"].endswith(f"{archive['table']} 2026-03")
        assert answer == hot  # every field, spot, hand, bet and finding as it was
        assert answer["bets"] and answer["spots"][0]["hands"]
    assert api.get(f"/api/rounds/{history.march[3].round_id}/").json()["archive"] == {
        "table": "CLS1",
        "month": "2026-03",
        "exported_at": exported.isoformat().replace("+00:00", "Z"),
        "restore": RESTORE_CLS1,
    }


def test_the_play_record_lists_the_archived_bets_of_its_period_and_counts_them(archived):
    history, before, compliance, player, _ = archived

    response = compliance.get(f"/rounds/players/{player.external_id}/", PERIOD)

    assert response.status_code == 200
    html = response.content.decode()
    assert "This period reaches into archived months" in html
    assert [(p.table_code, p.month) for p in response.context["archive"].places] == [
        ("CLS1", MARCH),
        ("DLX1", MARCH),
    ]
    archived_bets = response.context["archive"].bets
    assert {bet.bet_id: shown_bet(bet) for bet in archived_bets} == before.player_bets
    assert [bet.round.opened_at for bet in archived_bets] == sorted(
        (bet.round.opened_at for bet in archived_bets), reverse=True
    )
    adjusted = [bet for bet in archived_bets if bet.adjustment]
    assert adjusted and all(bet.round.round_id == history.march[1].round_id for bet in adjusted)
    for bet in archived_bets:  # listed, each linked to its round's page (which opens from the archive)
        assert bet.bet_id in html and f'href="/rounds/{bet.round.round_id}/"' in html
    # The totals by day and kind, and of the period, are those of before the drop.
    assert response.context["totals"] == before.play_record["totals"]
    assert response.context["period_totals"] == before.play_record["period_totals"]
    # April is in the database still: its bet is in the list of bets as before.
    assert history.april.round_id in html

    # A period in the hot window reaches no archived month.
    recent = compliance.get(
        f"/rounds/players/{player.external_id}/", {"first": "2026-04-01", "last": "2026-04-30"}
    )
    assert recent.context["archive"] is None and "archived months" not in recent.content.decode()


def test_a_correction_of_an_archived_round_is_refused_with_how_to_restore_its_month(archived):
    history, _, _, _, void = archived
    plain, wrong, completed, cancelled = history.march
    supervisor, compliance = demo_user("supervisor"), demo_user("compliance")

    # Through the services, with the round as it was read before its month was archived.
    with pytest.raises(TransitionRefused, match=re.escape(RESTORE_DLX1)):
        resettlement_propose(round_=wrong, proposed_by=compliance, reason="paid short")
    with pytest.raises(TransitionRefused, match=re.escape(RESTORE_CLS1)):
        void_propose(round_=completed, proposed_by=supervisor, reason="malfunction")
    with pytest.raises(TransitionRefused, match=re.escape(RESTORE_DLX1)) as refused:
        void_approve(void=void, decided_by=second_supervisor(), comment="agreed")
    assert f"Round {plain.round_id} is archived" in str(refused.value)
    incident = incident_open(table=history.cls1, kind="other", opened_by=supervisor, note="checking")
    with pytest.raises(TransitionRefused, match=re.escape(RESTORE_CLS1)):
        incident_cancel_round(incident=incident, round_=cancelled, cancelled_by=supervisor, reason="again")

    # Through the API: a 409 naming the round and the command.
    answers = [
        client_as("compliance").post(
            "/api/resettlements/", {"round": wrong.round_id, "reason": "paid short"}, format="json"
        ),
        client_as("supervisor").post(
            "/api/voids/",
            {"round": completed.round_id, "reason": "malfunction", "incident": None},
            format="json",
        ),
        client_as("supervisor").post(
            f"/api/incidents/{incident.pk}/cancel-round",
            {"round": cancelled.round_id, "reason": "x"},
            format="json",
        ),
        client_as("supervisor").post(f"/api/voids/{void.pk}/approve", {"comment": "agreed"}, format="json"),
    ]
    for answer, restore in zip(
        answers, [RESTORE_DLX1, RESTORE_CLS1, RESTORE_CLS1, RESTORE_DLX1], strict=True
    ):
        assert answer.status_code == 409, answer.content
        assert restore in answer.json()["round"][0]
    # Nothing was recorded.
    assert Incident.objects.get(pk=incident.pk).status == "open"
    void.refresh_from_db()
    assert void.status == "proposed"
    assert not Round.objects.filter(pk__in=[r.pk for r in history.march]).exists()


def test_the_incident_api_names_the_archived_rounds_that_hold_its_refunds(archived):
    """Found in review: once its month was archived, an incident's `refunds` in the API were [] and
    nothing said where they had gone; its refunds page names those rounds. The API names them too,
    with where each is and how its month comes back, in the list and in the incident alike."""
    history, _, _, _, _ = archived
    cancelled = history.march[3]
    incident = Incident.objects.get(corrections__round_id=cancelled.pk)
    exported = ArchivedMonth.objects.get(table=history.cls1, month=MARCH).exported_at
    api = client_as("compliance")

    answer = api.get(f"/api/incidents/{incident.pk}/").json()
    listed = {row["id"]: row for row in api.get("/api/incidents/").json()["results"]}

    assert answer["refunds"] == []  # they went to the archive with their round
    assert answer["archived_rounds"] == [
        {
            "round": cancelled.round_id,
            "archive": {
                "table": "CLS1",
                "month": "2026-03",
                "exported_at": exported.isoformat().replace("+00:00", "Z"),
                "restore": RESTORE_CLS1,
            },
        }
    ]
    assert listed[incident.pk]["archived_rounds"] == answer["archived_rounds"]
    assert all(row["archived_rounds"] == [] for pk, row in listed.items() if pk != incident.pk)

"""The game-recall pages: who may see them, the list's filters, CSV and keyset pages, a round card by
card with its findings, the review sign-off, a player's play record and its totals."""

import copy
import csv
import io
import random
import re
from collections import defaultdict
from datetime import UTC, date, datetime, timedelta
from decimal import Decimal

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from blackjack.rules import preset
from blackjack.simulate import simulate_shoe
from core.gaming_day import gaming_day_of
from rounds.ingest import round_ingest
from rounds.models import Bet, Round
from rounds.selectors import play_record_totals
from rounds.views import SHARED_SPOTS_PER_PAGE, PlayRecordView, RoundListView
from tests.fixtures import round_document

pytestmark = pytest.mark.django_db

# The round page's queries, whatever the round's size (pinned: an N+1 cannot creep in), with one
# for its neighbours in the shoe farther than a day away (the last round of a shoe has none). Its
# spots and hands come with the round, in its document.
ROUND_PAGE_QUERIES = 10
# The round list's at most, whatever its rows: session, user, permissions and roles, the newest
# round's gaming day, the page (that month's rounds, then older ones when they are too few to fill
# it), the finding codes of its rounds that have some.
LIST_PAGE_QUERIES = 7


USERS = {
    "supervisor": "supervisor",
    "compliance": "compliance",
    "customer_service": "customer-service",
    "game_server": "game-server",
}


@pytest.fixture
def demo():
    call_command("seed_demo", verbosity=0)


def login(client, role: str):
    user = get_user_model().objects.get(username=USERS[role])
    client.force_login(user)
    return user


def ingest(document: dict) -> Round:
    return round_ingest(document=document).round


def split_round(*, wrong_payout: bool = False) -> Round:
    """The Deluxe fixture with a split, a double and bets behind; optionally one payout short."""
    document = round_document("deluxe-split-double-play-behind")
    if wrong_payout:
        document = copy.deepcopy(document)
        bet = next(b for b in document["bets"] if b["bet_id"] == "D23-3")
        bet["returned"] = "25.00"  # P7102's blackjack on 12.00 pays 30.00
    return ingest(document)


def simulated_rounds(table="DLX1", game="deluxe", shoe="DLX1-S0900", seed=7, start=None) -> list[Round]:
    start = start or datetime.now(UTC) - timedelta(hours=3)
    documents = simulate_shoe(
        preset(game), table=table, shoe_id=shoe, players=5, rng=random.Random(seed), start=start
    )
    return [ingest(document) for document in documents]


# --- who may see what ------------------------------------------------------------------------------

PAGES = [
    ("rounds:round_list", lambda r: (), "supervisor compliance"),
    ("rounds:round_detail", lambda r: (r.round_id,), "supervisor compliance"),
    ("rounds:round_document", lambda r: (r.round_id,), "supervisor compliance"),
    ("rounds:play_record", lambda r: ("P1001",), "supervisor compliance customer_service"),
]


@pytest.mark.parametrize("name,args,allowed", PAGES)
@pytest.mark.parametrize("role", USERS)
def test_each_page_serves_only_the_roles_allowed(client, demo, name, args, allowed, role):
    round_ = split_round()
    login(client, role)
    response = client.get(reverse(name, args=args(round_)))
    assert response.status_code == (200 if role in allowed.split() else 403)


@pytest.mark.parametrize("name,args,allowed", PAGES)
def test_anonymous_visitors_are_sent_to_log_in(client, demo, name, args, allowed):
    url = reverse(name, args=args(split_round()))
    response = client.get(url)
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))


def test_the_nav_shows_rounds_to_those_who_may_view_them(client, demo):
    login(client, "compliance")
    assert b'href="/rounds/"' in client.get("/").content
    login(client, "game_server")
    assert b'href="/rounds/"' not in client.get("/").content


def test_an_unknown_round_or_player_is_a_404(client, demo):
    login(client, "compliance")
    assert client.get(reverse("rounds:round_detail", args=["NOPE-1"])).status_code == 404
    assert client.get(reverse("rounds:play_record", args=["NOPE"])).status_code == 404


# --- the list ------------------------------------------------------------------------------------


def listed(response) -> list[str]:
    """The round ids of the list's rows, in their order (the navigation's links left out)."""
    body = response.content.decode().split("<tbody", 1)[1].split("</tbody>", 1)[0]
    return re.findall(r'<a href="/rounds/([^/"]+)/(?:\?list=[^"]*)?">', body)


def test_the_list_filters_by_table_findings_status_code_player_and_review(client, demo):
    split = split_round(wrong_payout=True)
    boundless = ingest(round_document("boundless-shared-deal-split-double"))
    cancelled = ingest(round_document("classic-network-failure-refunds"))
    user = login(client, "compliance")
    url = reverse("rounds:round_list")

    assert set(listed(client.get(url))) == {split.round_id, boundless.round_id, cancelled.round_id}
    assert listed(client.get(url, {"table": "BND1"})) == [boundless.round_id]
    assert listed(client.get(url, {"game": "classic"})) == [cancelled.round_id]
    assert listed(client.get(url, {"status": "cancelled"})) == [cancelled.round_id]
    assert listed(client.get(url, {"finding": "wrong_returned"})) == [split.round_id]
    assert listed(client.get(url, {"player": "P7302"})) == [boundless.round_id]
    with_findings = set(Round.objects.filter(finding_count__gt=0).values_list("round_id", flat=True))
    assert set(listed(client.get(url, {"has_findings": "true"}))) == with_findings
    assert split.round_id in with_findings

    Round.objects.filter(pk=split.pk).update(reviewed_at=datetime.now(UTC), reviewed_by=user)
    assert listed(client.get(url, {"reviewed": "true"})) == [split.round_id]
    assert split.round_id not in listed(client.get(url, {"reviewed": "false"}))


def test_the_list_shows_money_with_the_currency_and_highlights_findings(client, demo):
    split_round(wrong_payout=True)
    login(client, "compliance")
    html = client.get(reverse("rounds:round_list")).content.decode()
    assert '96.25 <span class="currency">EUR</span>' in html  # wagered by the round's seven bets
    assert '<span class="badge badge-finding">' in html
    assert "to review" in html


def test_csv_export_holds_every_filtered_row_not_one_page(client, demo, monkeypatch):
    rounds = simulated_rounds()
    monkeypatch.setattr(RoundListView, "per_page", 5)
    login(client, "compliance")
    response = client.get(reverse("rounds:round_list"), {"table": "DLX1", "_export": "csv", "before": "3"})
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/csv")
    rows = list(csv.DictReader(io.StringIO(response.getvalue().decode())))
    newest_played_first = sorted(rounds, key=lambda r: (r.opened_at, r.pk), reverse=True)
    assert [row["Round"] for row in rows] == [r.round_id for r in newest_played_first]
    first = next(row for row in rows if row["Round"] == rounds[0].round_id)
    assert first["Wagered"] == str(rounds[0].wagered)
    assert first["Currency"] == "EUR"
    assert first["Opened (UTC)"] == rounds[0].opened_at.isoformat()


def test_keyset_pages_link_older_and_newer_and_never_count(client, demo, monkeypatch):
    rounds = simulated_rounds()
    assert len(rounds) > 12
    monkeypatch.setattr(RoundListView, "per_page", 5)
    newest_first = [r.round_id for r in sorted(rounds, key=lambda r: (r.opened_at, r.pk), reverse=True)]
    login(client, "compliance")
    url = reverse("rounds:round_list")

    with CaptureQueriesContext(connection) as queries:
        first = client.get(url, {"table": "DLX1"})
    assert listed(first) == newest_first[:5]
    assert not any("COUNT(" in q["sql"].upper() for q in queries.captured_queries)
    assert "OFFSET" not in " ".join(q["sql"].upper() for q in queries.captured_queries)
    assert first.context["newer_query"] is None

    older = first.context["older_query"]
    assert "table=DLX1" in older
    second = client.get(f"{url}?{older}")
    assert listed(second) == newest_first[5:10]
    third = client.get(f"{url}?{second.context['older_query']}")
    assert listed(third) == newest_first[10:15]

    back = client.get(f"{url}?{third.context['newer_query']}")
    assert listed(back) == newest_first[5:10]
    newest = client.get(f"{url}?{back.context['newer_query']}")
    assert listed(newest) == newest_first[:5]

    last_page = newest_first[(len(newest_first) - 1) // 5 * 5 :]
    page = first
    while page.context["older_query"]:
        page = client.get(f"{url}?{page.context['older_query']}")
    assert listed(page) == last_page


def test_the_list_page_takes_a_fixed_number_of_queries(client, demo, django_assert_max_num_queries):
    simulated_rounds()
    login(client, "compliance")
    with django_assert_max_num_queries(LIST_PAGE_QUERIES):
        response = client.get(reverse("rounds:round_list"), {"has_findings": "false", "game": "deluxe"})
    assert response.status_code == 200


def test_a_bad_cursor_shows_the_newest_page(client, demo):
    round_ = split_round()
    login(client, "compliance")
    assert listed(client.get(reverse("rounds:round_list"), {"before": "x'1"})) == [round_.round_id]


# --- one round -----------------------------------------------------------------------------------


def test_the_round_page_draws_every_card_in_its_colour(client, demo):
    round_ = split_round()
    login(client, "compliance")
    html = client.get(round_.get_absolute_url()).content.decode()
    cards = re.findall(
        r'<span class="playing-card (red|black)[^"]*" title="([^"]+)" data-card="(\w\w)">', html
    )
    drawn = [code for _, _, code in cards]
    # facilitator, seat 2 (two hands after the split), seat 5
    assert drawn == ["5C", "TS", "8D", "6D", "5H", "9C", "6H", "4D", "7C", "QC", "AH"]
    colours = {code: colour for colour, _, code in cards}
    assert colours == {code: ("red" if code[1] in "HD" else "black") for code in drawn}
    assert ("black", "Ten of spades", "TS") in cards and ("red", "6 of diamonds", "6D") in cards
    assert '<span class="rank">10</span><span class="suit" aria-hidden="true">♠</span>' in html
    assert "round 23 of shoe" in html
    assert "bust (23)" in html  # the facilitator's 5, T, 8


@pytest.mark.parametrize(
    ("table", "game", "word"), [("DLX1", "deluxe", "Facilitator"), ("CLS1", "classic", "Dealer")]
)
def test_the_round_page_calls_who_deals_what_the_games_rule_sheet_calls_them(client, demo, table, game, word):
    round_ = simulated_rounds(table=table, game=game, shoe=f"{table}-S0901")[0]
    login(client, "compliance")
    html = client.get(round_.get_absolute_url()).content.decode()
    assert re.search(rf"<h3>{word} <span class=\"subtle\">", html)


def test_the_round_page_shows_each_decision_with_auto_play(client, demo):
    document = round_document("deluxe-surrender-auto-play")
    hand = document["spots"][1]["hands"][0]
    hand["actions"][0] = {"action": "auto_hit", "requested": "double"}
    round_ = ingest(document)
    login(client, "compliance")
    html = client.get(round_.get_absolute_url()).content.decode()
    decisions = re.findall(r'<li class="decision( auto)?">(\w+)', html)
    assert ("", "surrender") in decisions
    assert decisions.count((" auto", "hit")) == 2 and (" auto", "stand") in decisions
    assert "requested double" in html
    assert html.count('class="badge badge-auto"') == 3


def test_the_round_page_highlights_the_finding_on_its_bet(client, demo):
    round_ = split_round(wrong_payout=True)
    bet = Bet.objects.get(bet_id="D23-3")
    login(client, "compliance")
    html = client.get(round_.get_absolute_url()).content.decode()
    assert "wrong_returned" in html
    row = re.search(rf'<tr id="bet-{bet.pk}" class="([^"]*)">(.*?)</tr>', html, re.S)
    assert "has-finding" in row.group(1) and "differs-row" in row.group(1)
    assert '<td class="number differs"><span class="money">5.00 <span' in row.group(2)  # no plus sign
    assert "25.00" in row.group(2) and "30.00" in row.group(2)
    assert re.search(r'<tbody id="spot-5" class="spot has-finding">', html)
    assert "configuration v1" in html
    # The document as received is fetched when its panel is opened.
    document_url = re.search(r'<details class="panel raw-document" data-document-url="([^"]+)">', html)[1]
    document = client.get(document_url)
    assert document["Content-Type"] == "application/json"
    assert '"round_id": "DLX1-S0412-023"' in document.content.decode()


def test_a_boundless_round_shows_the_shared_deal_once_and_numbers_the_draws(client, demo):
    round_ = ingest(round_document("boundless-shared-deal-split-double"))
    login(client, "compliance")
    html = client.get(round_.get_absolute_url()).content.decode()
    assert "Every player&#x27;s two cards" in html or "Every player's two cards" in html
    shared = html.split("Common draws", 1)[1].split("</section>", 1)[0]
    assert re.findall(
        r'data-card="(\w\w)"><span class="rank">\w+</span><span[^>]*>.</span>'
        r'<span class="draw-no">(\d)</span>',
        shared,
    ) == [("7D", "1"), ("9H", "2"), ("KD", "3")]
    spot = html.split('id="spot-p7302"', 1)[1].split("</tbody>", 1)[0]
    # P7302 split 4-4: 4C took draws 1 and 2 (a double), then 4S took draw 3
    assert re.findall(r'data-card="(\w\w)">.*?(?:draw-no">(\d)</span>|</span></span>)', spot) == [
        ("4C", ""),
        ("7D", "1"),
        ("9H", "2"),
        ("4S", ""),
        ("KD", "3"),
    ]


def test_a_big_shared_round_pages_its_players(client, demo):
    documents = simulate_shoe(
        preset("boundless"),
        table="BND1",
        shoe_id="BND1-S0900",
        players=60,
        rng=random.Random(1),
        start=datetime.now(UTC) - timedelta(hours=2),
    )
    round_ = ingest(documents[0])
    assert len(round_.dealt_spots) > 50
    login(client, "compliance")
    first = client.get(round_.get_absolute_url())
    assert len(first.context["spots"]) == 25
    assert first.context["spot_page"].paginator.num_pages == 3
    last = client.get(round_.get_absolute_url(), {"spots": 3})
    assert len(last.context["spots"]) == len(round_.dealt_spots) - 50


def test_a_cancelled_round_says_why(client, demo):
    round_ = ingest(round_document("classic-network-failure-refunds"))
    login(client, "compliance")
    html = client.get(round_.get_absolute_url()).content.decode()
    assert "badge-cancelled" in html and "Network failure" in html


def test_the_round_page_links_its_neighbours_in_the_shoe(client, demo):
    rounds = simulated_rounds()
    login(client, "compliance")
    response = client.get(rounds[1].get_absolute_url())
    assert response.context["previous"].round_id == rounds[0].round_id
    assert response.context["following"].round_id == rounds[2].round_id


def test_the_round_page_takes_as_many_queries_for_200_players_as_for_3(client, demo):
    """8 queries of its own (session, user, permissions with roles, the round's key and the round with
    its document, bets, shoe neighbours near and farther: neither round has both near) and one for
    the findings of a round that has some, plus what the
    corrections partial reads (one query asking which corrections the round has, then each it has)."""
    small = ingest(round_document("boundless-shared-deal-split-double"))
    documents = simulate_shoe(
        preset("boundless"),
        table="BND1",
        shoe_id="BND1-S0900",
        players=200,
        rng=random.Random(2),
        start=datetime.now(UTC) - timedelta(hours=2),
    )
    big = ingest(documents[0])
    assert len(big.dealt_spots) > 150
    login(client, "compliance")
    counts = []
    for round_ in (small, big):
        with CaptureQueriesContext(connection) as queries:
            assert client.get(round_.get_absolute_url()).status_code == 200
        counts.append(len(queries) - bool(round_.finding_count))
    assert counts[0] == counts[1]
    assert counts[1] <= 20


# --- the review sign-off -------------------------------------------------------------------------


def test_compliance_signs_a_round_off_and_the_first_sign_off_stands(client, demo):
    round_ = split_round()
    user = login(client, "compliance")
    url = reverse("rounds:round_review", args=[round_.round_id])
    response = client.post(url, {"comment": "Checked the split."})
    assert response.status_code == 302
    round_.refresh_from_db()
    assert round_.reviewed_by == user and round_.review_comment == "Checked the split."
    first_at = round_.reviewed_at

    response = client.post(url, {"comment": "again"})
    assert response.status_code == 400
    assert "already reviewed by compliance" in response.content.decode()
    round_.refresh_from_db()
    assert (round_.reviewed_at, round_.review_comment) == (first_at, "Checked the split.")
    page = client.get(round_.get_absolute_url()).content.decode()
    assert "Checked the split." in page and "Sign off as reviewed" not in page


def test_a_round_with_findings_needs_a_comment_to_be_signed_off(client, demo):
    round_ = split_round(wrong_payout=True)
    login(client, "compliance")
    response = client.post(reverse("rounds:round_review", args=[round_.round_id]), {"comment": " "})
    assert response.status_code == 400
    assert "say what you concluded" in response.content.decode()
    round_.refresh_from_db()
    assert round_.reviewed_at is None


@pytest.mark.parametrize("role", ["supervisor", "customer_service", "game_server"])
def test_only_those_who_review_rounds_may_sign_one_off(client, demo, role):
    round_ = split_round()
    login(client, role)
    response = client.post(reverse("rounds:round_review", args=[round_.round_id]), {"comment": "ok"})
    assert response.status_code == 403
    round_.refresh_from_db()
    assert round_.reviewed_at is None
    if role == "supervisor":
        assert "Sign off as reviewed" not in client.get(round_.get_absolute_url()).content.decode()


def test_the_review_url_takes_no_get(client, demo):
    round_ = split_round()
    login(client, "compliance")
    assert client.get(reverse("rounds:round_review", args=[round_.round_id])).status_code == 405


# --- the play record -----------------------------------------------------------------------------


def test_play_record_totals_equal_a_direct_computation(client, demo):
    start = datetime.now(UTC).replace(hour=2, minute=0, second=0, microsecond=0) - timedelta(days=2)
    rounds = simulated_rounds(start=start) + simulated_rounds(
        shoe="DLX1-S0901", seed=8, start=start + timedelta(hours=9)
    )
    player = Bet.objects.filter(round__in=rounds).values_list("player", flat=True).first()
    bets = Bet.objects.filter(player=player).select_related("round", "player")
    expected = defaultdict(lambda: [0, Decimal(0), Decimal(0)])
    for bet in bets:
        row = expected[(gaming_day_of(bet.round.opened_at), bet.kind)]
        row[0] += 1
        row[1] += bet.wagered
        row[2] += bet.returned
    assert len({day for day, _ in expected}) >= 2  # the rounds straddle a gaming-day cut-off
    first, last = min(expected)[0], max(expected)[0]
    totals = play_record_totals(bets[0].player, first, last)
    assert {(row["day"], row["kind"]): [row["bets"], row["wagered"], row["returned"]] for row in totals} == {
        key: value for key, value in expected.items()
    }
    assert all(row["net"] == row["returned"] - row["wagered"] for row in totals)

    login(client, "customer_service")
    external_id = bets[0].player.external_id
    response = client.get(
        reverse("rounds:play_record", args=[external_id]),
        {"first": first.isoformat(), "last": last.isoformat()},
    )
    assert response.context["totals"] == totals


def test_play_record_lists_bets_newest_first_in_keyset_pages(client, demo, monkeypatch):
    rounds = simulated_rounds()
    player = Bet.objects.filter(round__in=rounds).values_list("player__external_id", flat=True).first()
    expected = list(
        Bet.objects.filter(player__external_id=player)
        .order_by("-round__opened_at", "-id")
        .values_list("bet_id", flat=True)
    )
    monkeypatch.setattr(PlayRecordView, "per_page", 3)
    login(client, "customer_service")
    url = reverse("rounds:play_record", args=[player])
    seen = []
    query = ""
    with CaptureQueriesContext(connection) as queries:
        while True:
            response = client.get(f"{url}?{query}")
            seen += [bet.bet_id for bet in response.context["table"].data]
            query = response.context["older_query"]
            if not query:
                break
    assert seen == expected
    assert not any("COUNT(*)" in q["sql"].upper() and "GROUP BY" not in q["sql"].upper() for q in queries)


def test_play_record_shows_adjustments_and_refunds_and_filters_by_kind(client, demo):
    round_ = split_round(wrong_payout=True)
    login(client, "compliance")
    response = client.get(reverse("rounds:play_record", args=["P7102"]), {"kind": "main"})
    rows = list(response.context["table"].data)
    assert [bet.bet_id for bet in rows] == ["D23-3"]
    assert rows[0].adjustment is None and rows[0].refund is None
    html = response.content.decode()
    assert round_.get_absolute_url() in html
    assert 'class="differs"' in html  # computed 30.00 against 25.00 reported


def test_play_record_refuses_a_period_that_ends_before_it_starts(client, demo):
    login(client, "compliance")
    response = client.get(
        reverse("rounds:play_record", args=["P1001"]), {"first": "2026-11-10", "last": "2026-11-01"}
    )
    assert response.status_code == 200
    assert "The period starts after it ends." in response.content.decode()
    assert response.context["last"] - response.context["first"] == timedelta(days=29)


def test_the_player_page_links_the_play_record(client, demo):
    login(client, "customer_service")
    html = client.get(reverse("limits:player_detail", args=["P1001"])).content.decode()
    assert reverse("rounds:play_record", args=["P1001"]) in html


def test_gaming_days_are_cut_at_the_cutoff_in_the_gaming_zone(settings):
    settings.PITBOSS_GAMING_DAY_TIME_ZONE = "Europe/Malta"
    from datetime import time

    settings.PITBOSS_GAMING_DAY_CUTOFF = time(6, 0)
    assert gaming_day_of(datetime(2026, 11, 28, 4, 59, tzinfo=UTC)) == date(2026, 11, 27)  # 05:59 Malta
    assert gaming_day_of(datetime(2026, 11, 28, 5, 0, tzinfo=UTC)) == date(2026, 11, 28)  # 06:00 Malta


@pytest.mark.parametrize("players", [3, 120])
def test_the_round_page_takes_the_same_queries_however_many_players(
    client, demo, players, django_assert_max_num_queries
):
    documents = simulate_shoe(
        preset("boundless"),
        table="BND1",
        shoe_id="BND1-S0901",
        players=players,
        rng=random.Random(players),
        start=datetime.now(UTC) - timedelta(hours=2),
    )
    round_ = ingest(documents[0])
    login(client, "compliance")
    with django_assert_max_num_queries(ROUND_PAGE_QUERIES):
        response = client.get(round_.get_absolute_url())
    assert response.status_code == 200
    assert response.content.decode().count('class="spot-cell') == min(players, SHARED_SPOTS_PER_PAGE)

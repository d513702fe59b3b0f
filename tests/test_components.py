"""The page components in templates/components/ and the round page's row templates: the markup the
CSS, the browser tests and the page tests rely on, and the game server's text escaped wherever it
shows. The HTML below is what the Python that drew it before gave for the same input."""

import re
from datetime import UTC, datetime, timedelta, timezone
from decimal import Decimal

import pytest
from django.template import Context, Template
from django.template.loader import render_to_string
from django.utils.timezone import override

from core.money import money
from limits.models import Player
from rounds.deal import DealtSpot
from rounds.models import Bet, Finding
from rounds.selectors import Decision, HandView, SpotView
from rounds.templatetags.cards import CardFace

HOSTILE = "<script>alert(\"x\")</script> & 'y'"
HOSTILE_ESCAPED = "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#x27;y&#x27;"


def rendered(source: str, **context) -> str:
    return Template("{% load pitboss cards %}" + source).render(Context(context))


def between_tags(html: str) -> str:
    """The HTML without the line breaks (and indents) between tags: the templates lay rows out on lines."""
    return re.sub(r">\s*\n\s*<", "><", html).strip()


# --- money ----------------------------------------------------------------------------------------


def test_money_is_one_component_from_python_a_filter_and_an_include():
    expected = '<span class="money">\u22121,234.50 <span class="currency">EUR</span></span>'
    amount = Decimal("-1234.5")
    assert money(amount, "EUR") == expected
    assert rendered("{{ amount|money:'EUR' }}", amount=amount) == expected
    include = '{% include "components/money.html" with amount=amount currency="EUR" %}'
    assert rendered(include, amount=amount) == expected
    assert money(None, "EUR") == '<span class="money">—</span>'
    assert money(1, "<b>") == '<span class="money">1.00 <span class="currency">&lt;b&gt;</span></span>'


# --- times ----------------------------------------------------------------------------------------


def test_a_moment_shows_in_the_active_zone_with_utc_on_hover_and_its_offset_kept_for_machines():
    moment = datetime(2026, 3, 1, 16, 5, tzinfo=timezone(timedelta(hours=2)))  # any offset: the same moment
    with override("Europe/Malta"):
        assert rendered("{{ moment|local_time }}", moment=moment) == (
            '<time datetime="2026-03-01T15:05:00+01:00" title="2026-03-01 14:05 UTC">'
            "2026-03-01 15:05 CET</time>"
        )
    # Outside a request: the settings' zone, UTC.
    assert rendered("{{ moment|local_time }}", moment=moment) == (
        '<time datetime="2026-03-01T14:05:00+00:00" title="2026-03-01 14:05 UTC">2026-03-01 14:05 UTC</time>'
    )
    assert rendered("{{ moment|local_time }}", moment=None) == '<time datetime="">—</time>'
    assert rendered("{{ moment|local_time_text }}", moment=None) == "—"


@pytest.mark.parametrize(
    ("zone", "utc", "shown", "offset"),
    [
        # Malta's clocks go forward at 01:00 UTC on 29 March 2026 and back at 01:00 UTC on 25 October.
        ("Europe/Malta", "2026-03-29T00:59", "2026-03-29 01:59 CET", "+01:00"),
        ("Europe/Malta", "2026-03-29T01:00", "2026-03-29 03:00 CEST", "+02:00"),
        ("Europe/Malta", "2026-10-25T00:30", "2026-10-25 02:30 CEST", "+02:00"),
        ("Europe/Malta", "2026-10-25T01:30", "2026-10-25 02:30 CET", "+01:00"),
        ("Europe/London", "2026-07-01T23:30", "2026-07-02 00:30 BST", "+01:00"),  # the next day there
        ("America/New_York", "2026-11-01T05:30", "2026-11-01 01:30 EDT", "-04:00"),
        ("America/New_York", "2026-11-01T06:30", "2026-11-01 01:30 EST", "-05:00"),
        ("Asia/Dubai", "2026-03-01T14:05", "2026-03-01 18:05 +04", "+04:00"),  # no abbreviation: the offset
        ("UTC", "2026-03-01T14:05", "2026-03-01 14:05 UTC", "+00:00"),
    ],
)
def test_a_moment_shows_the_zones_abbreviation_of_its_side_of_a_clock_change(zone, utc, shown, offset):
    moment = datetime.fromisoformat(utc).replace(tzinfo=UTC)
    with override(zone):
        html = rendered("{{ moment|local_time }}", moment=moment)
        assert rendered("{{ moment|local_time_text }}", moment=moment) == shown
    local = shown[:10] + "T" + shown[11:16] + ":00" + offset
    assert html == f'<time datetime="{local}" title="{utc.replace("T", " ")} UTC">{shown}</time>'


# --- cards ----------------------------------------------------------------------------------------


def test_a_hand_is_drawn_as_playing_cards_in_their_colours():
    assert rendered("{% card_row cards %}", cards="TS 6D") == (
        '<span class="card-row">'
        '<span class="playing-card black" title="Ten of spades" data-card="TS">'
        '<span class="rank">10</span><span class="suit" aria-hidden="true">♠</span></span>'
        '<span class="playing-card red" title="6 of diamonds" data-card="6D">'
        '<span class="rank">6</span><span class="suit" aria-hidden="true">♦</span></span>'
        "</span>"
    )


def test_a_shared_draw_shows_its_number_and_small_cards_their_class():
    html = rendered("{% card_row cards small=True %}", cards=[CardFace("AH"), CardFace("KC", draw=3)])
    assert html.startswith('<span class="card-row small">')
    assert (
        '<span class="playing-card black drawn" title="King of clubs — shared draw 3" data-card="KC">'
        '<span class="rank">K</span><span class="suit" aria-hidden="true">♣</span>'
        '<span class="draw-no">3</span></span>'
    ) in html


def test_what_is_not_a_card_is_shown_escaped_and_no_cards_say_so():
    html = rendered("{% card_row cards %}", cards=["<b>"])
    assert (
        '<span class="playing-card unknown" title="&lt;b&gt; (not a card)" data-card="&lt;b&gt;">'
        '<span class="rank">&lt;b&gt;</span><span class="suit" aria-hidden="true">?</span></span>'
    ) in html
    assert "<b>" not in html
    assert rendered("{% card_row cards %}", cards="") == (
        '<span class="card-row"><span class="subtle">no cards</span></span>'
    )


# --- the round page's rows ----------------------------------------------------------------------


def a_bet(**fields) -> Bet:
    values = {
        "pk": 7,
        "bet_id": "B-1",
        "spot": "2",
        "kind": "main",
        "options": {},
        "stake": Decimal("10.00"),
        "wagered": Decimal("20.00"),
        "computed_wagered": Decimal("20.00"),
        "returned": Decimal("25.00"),
        "computed_returned": Decimal("30.00"),
        "player": Player(external_id="P1"),
    }
    bet = Bet(**{**values, **fields})
    bet.finding_list = []
    return bet


def bet_rows(*bets: Bet) -> str:
    spot = SpotView(spot=DealtSpot(spot="2", seat=2, player="P1", hands=[]), hands=[], bets=list(bets))
    return between_tags(
        render_to_string("rounds/includes/bet_rows.html", {"spots": [spot], "currency": "EUR"})
    )


def test_a_bet_row_shows_reported_and_computed_amounts_and_marks_what_differs():
    bet = a_bet(options={"follow_double": True, "followed_double": False})
    bet.finding_list = [Finding(code="wrong_returned", message="Paid 25.00, pays 30.00.")]
    assert bet_rows(bet) == (
        '<tr id="bet-7" class="has-finding differs-row">'
        '<td class="mono nowrap">B-1</td><td class="mono nowrap">P1</td><td class="mono nowrap">2</td>'
        '<td>Main <span class="subtle small">follows doubles</span>'
        ' <span class="subtle small">did not follow the double</span></td>'
        '<td class="number"><span class="money">10.00 <span class="currency">EUR</span></span></td>'
        '<td class="number"><span class="money">20.00 <span class="currency">EUR</span></span></td>'
        '<td class="number"><span class="money">20.00 <span class="currency">EUR</span></span></td>'
        '<td class="number"><span class="money">25.00 <span class="currency">EUR</span></span></td>'
        '<td class="number differs"><span class="money">30.00 <span class="currency">EUR</span></span></td>'
        '<td class="number differs"><span class="money">5.00 <span class="currency">EUR</span></span></td>'
        '<td><span class="badge badge-finding" title="Paid 25.00, pays 30.00.">wrong_returned</span> </td>'
        "</tr>"
    )


def test_a_bet_row_that_agrees_has_no_class_and_a_dash_for_findings():
    html = bet_rows(a_bet(returned=Decimal("30.00"), computed_wagered=None))
    assert html.startswith('<tr id="bet-7" class="">')
    assert html.endswith('<td><span class="subtle">—</span></td></tr>')
    assert '<td class="number"><span class="money">—</span></td>' in html  # not computed
    nothing = render_to_string("rounds/includes/bet_rows.html", {"spots": [], "currency": "EUR"})
    assert between_tags(nothing) == '<tr><td colspan="11" class="subtle">No bet.</td></tr>'


def test_the_game_servers_text_in_a_bet_row_is_escaped():
    bet = a_bet(bet_id=HOSTILE, spot=HOSTILE, kind=HOSTILE, player=Player(external_id=HOSTILE))
    bet.finding_list = [Finding(code="wrong_returned", message=HOSTILE)]
    html = bet_rows(bet)
    assert "<script>" not in html
    assert html.count(HOSTILE_ESCAPED) == 5  # bet, player, spot, kind and the finding's title


def spot_rows(views: list[SpotView], *, shared: bool) -> str:
    html = render_to_string("rounds/includes/spot_rows.html", {"spots": views, "shared": shared})
    return between_tags(html)


@pytest.mark.django_db
def test_a_split_spot_spans_its_hands_and_shows_decisions_and_findings():
    spot = DealtSpot(spot="2", seat=2, player="P7", hands=[])
    finding = Finding(code="wrong_total", message=HOSTILE)
    hands = [
        HandView(1, [CardFace("8H")], "8", [Decision("hit", auto=True, requested="double")], [finding]),
        HandView(2, [CardFace("8S")], "8", []),
    ]
    html = spot_rows([SpotView(spot=spot, hands=hands, findings=[finding])], shared=False)
    assert html.startswith('<tbody id="spot-2" class="spot has-finding"><tr class="has-finding">')
    assert (
        f'<td rowspan="2" class="spot-cell"><strong>Seat 2</strong> '
        f'<span class="badge badge-finding" title="{HOSTILE_ESCAPED}">wrong_total</span></td>'
        '<td rowspan="2"><a class="mono" href="/rounds/players/P7/">P7</a></td>'
        '<td class="number">1<span class="subtle small"> of 2</span></td>'
    ) in html
    assert (
        '<ol class="decisions"><li class="decision auto">hit <span class="badge badge-auto" '
        'title="The system decided for the player">auto</span> <span class="requested">requested double'
        '</span></li></ol><div class="finding-inline"><span class="badge badge-finding">wrong_total</span> '
        f"{HOSTILE_ESCAPED}</div></td></tr>"
    ) in html
    assert '<tr class=""><td class="number">2<span class="subtle small"> of 2</span></td>' in html
    assert '<td><span class="subtle">none needed</span></td></tr></tbody>' in html
    assert "<script>" not in html


@pytest.mark.django_db
def test_a_shared_deal_shows_the_player_and_a_spot_without_hands_says_so():
    spot = DealtSpot(spot="p/1", seat=None, player="P9", hands=[])
    html = spot_rows([SpotView(spot=spot, hands=[])], shared=True)
    assert html == (
        '<tbody id="spot-p1" class="spot"><tr><td class="spot-cell">'
        '<a class="mono" href="/rounds/players/P9/">P9</a></td>'
        '<td colspan="4" class="subtle">No hand dealt.</td></tr></tbody>'
    )
    assert spot_rows([], shared=True) == (
        '<tbody><tr><td colspan="6" class="subtle">No player.</td></tr></tbody>'
    )

"""One search box for any id (the navigation's): a table, round, bet, shoe, player or incident.

The query is matched exactly (codes and ids are what people copy from a report, a complaint or a
game server's log), each kind only for a user who may view it. One match goes straight to its page;
several are listed; none says so.
"""

from dataclasses import dataclass

from django.contrib.auth.decorators import login_required
from django.db.models import Subquery
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_safe

from limits.models import Player
from tables.models import Table

from .models import Bet, BetKey, Incident, RoundKey, Shoe
from .views import SHARED_SPOTS_PER_PAGE, SPOTS_PER_PAGE

MAX_QUERY = 128


@dataclass
class Match:
    kind: str
    label: str
    url: str


def bet_url(bet: Bet) -> str:
    """The round page of a bet, at the page of spots that holds it, scrolled to its row."""
    round_ = bet.round
    per_page = SHARED_SPOTS_PER_PAGE if round_.shared else SPOTS_PER_PAGE
    codes = round_.dealt_spots.codes()
    before = codes.index(bet.spot) if bet.spot in codes else 0
    page = before // per_page + 1
    query = f"?spots={page}" if page > 1 else ""
    return f"{round_.get_absolute_url()}{query}#bet-{bet.pk}"


def matches_of(query: str, user) -> list[Match]:
    found = []
    if user.has_perm("tables.view_table"):
        for table in Table.objects.filter(code__iexact=query):
            found.append(
                Match(
                    "Table", f"{table.code} {table.name}", reverse("tables:table_detail", args=[table.code])
                )
            )
    if user.has_perm("rounds.view_round"):
        # The registry keeps every round's and bet's id, those of archived months too (their round
        # page opens from the archive).
        for round_id in RoundKey.objects.filter(round_id=query).values_list("round_id", flat=True):
            found.append(Match("Round", round_id, reverse("rounds:round_detail", args=[round_id])))
        # Its id and its round's gaming day find the bet in its month.
        key = BetKey.objects.filter(bet_id=query)
        bets = Bet.objects.filter(
            pk=Subquery(key.values("pk")[:1]), gaming_day=Subquery(key.values("round__gaming_day")[:1])
        )
        for bet in bets.select_related("round"):  # its round's document: the order of its spots
            found.append(Match("Bet", f"{bet.bet_id} of round {bet.round.round_id}", bet_url(bet)))
        if not bets:
            for bet_pk, bet_id, round_id in key.values_list("pk", "bet_id", "round__round_id"):
                url = f"{reverse('rounds:round_detail', args=[round_id])}#bet-{bet_pk}"
                found.append(Match("Bet", f"{bet_id} of round {round_id} (archived)", url))
        for shoe in Shoe.objects.filter(code=query):
            found.append(Match("Shoe", shoe.code, f"{reverse('rounds:round_list')}?shoe={shoe.code}"))
    if user.has_perm("limits.view_player"):
        for player in Player.objects.filter(external_id=query):
            found.append(
                Match(
                    "Player", player.external_id, reverse("limits:player_detail", args=[player.external_id])
                )
            )
    number = query.removeprefix("#").removeprefix("incident ").strip()
    if user.has_perm("rounds.view_incident") and number.isdecimal() and len(number) < 10:
        for incident in Incident.objects.filter(pk=int(number)).select_related("table"):
            found.append(
                Match(
                    "Incident",
                    f"Incident {incident.pk} at {incident.table.code}",
                    reverse("rounds:incident_detail", args=[incident.pk]),
                )
            )
    return found


@require_safe
@login_required
def search(request):
    query = request.GET.get("q", "").strip()[:MAX_QUERY].replace("\x00", "")
    found = matches_of(query, request.user) if query else []
    if len(found) == 1:
        return redirect(found[0].url)
    return render(request, "search.html", {"query": query, "matches": found, "title": "Search"})

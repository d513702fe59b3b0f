"""One search box for any id (the navigation's): a table, round, bet, shoe, player or incident.

The query is matched exactly (codes and ids are what people copy from a report, a complaint or a
game server's log), each kind only for a user who may view it. One match goes straight to its page;
several are listed; none says so. A round or bet found by a user who may open play records but not
round pages (customer service: rounds.access) opens the play record of each of its players at that
round.
"""

from dataclasses import dataclass

from django.contrib.auth.decorators import login_required
from django.db.models import Subquery
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_safe

from limits.models import Player
from rounds.access import may_open_play_records, may_open_rounds, play_record_at
from rounds.models import Bet, BetKey, Incident, RoundKey, Shoe
from rounds.recall import archived_round
from rounds.views import SHARED_SPOTS_PER_PAGE, SPOTS_PER_PAGE
from tables.models import Table

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
    if may_open_rounds(user):
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
    elif may_open_play_records(user):
        found += play_records_at(query)
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


def play_records_at(query: str) -> list[Match]:
    """The round or bet called `query` as its players' play records at that round: one match per
    player of the round, the bet's player alone for a bet. A round of an archived month is read back
    from the archive for its players (players are never archived)."""
    found = []
    for key in RoundKey.objects.filter(round_id=query):
        for player_id in round_players(key):
            url = play_record_at(player_id, key.round_id, key.gaming_day)
            found.append(Match("Round", f"{key.round_id}: play record of {player_id}", url))
    bet_keys = BetKey.objects.filter(bet_id=query).select_related("round")
    for bet_key in bet_keys:
        round_key = bet_key.round
        player_id = (
            Bet.objects.filter(pk=bet_key.pk, gaming_day=round_key.gaming_day)
            .values_list("player__external_id", flat=True)
            .first()
        )
        if player_id is None:  # its month is archived
            recalled = archived_round(round_key.round_id)
            bets = recalled.bets_all().bets if recalled is not None else []
            player_id = next((bet.player.external_id for bet in bets if bet.bet_id == bet_key.bet_id), None)
        if player_id is not None:
            url = play_record_at(player_id, round_key.round_id, round_key.gaming_day)
            label = f"{bet_key.bet_id} of round {round_key.round_id}: play record of {player_id}"
            found.append(Match("Bet", label, url))
    return found


def round_players(key: RoundKey) -> list[str]:
    """The ids of the players who bet in the round, in order."""
    bets = Bet.objects.filter(round_id=key.pk, gaming_day=key.gaming_day)
    players = sorted(set(bets.values_list("player__external_id", flat=True)))
    if not players:  # its month is archived
        recalled = archived_round(key.round_id)
        if recalled is not None:
            players = sorted({bet.player.external_id for bet in recalled.bets_all().bets})
    return players


@require_safe
@login_required
def search(request):
    query = request.GET.get("q", "").strip()[:MAX_QUERY].replace("\x00", "")
    found = matches_of(query, request.user) if query else []
    if len(found) == 1:
        return redirect(found[0].url)
    return render(request, "search.html", {"query": query, "matches": found, "title": "Search"})

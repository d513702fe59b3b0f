"""What ingest finds in a round beyond its replay: a table without a configuration, the player's
limits and seats, and the integrity of the shoe across its rounds. A finding is a dict, as
stored: code, bet (its bet id, or None), spot, hand and message."""

from collections import Counter

from django.utils import timezone

from blackjack.document import RoundRecord
from blackjack.replay import ReplayResult
from blackjack.rules import kind_label, preset
from core.money import money_text
from limits.models import TableLimit
from limits.selectors import effective_limit_from, personal_limits_in_force_by_player
from tables.models import Table, TableConfiguration

from ..models import Round, Shoe
from .players import PlayerRow, with_personal_limits

AFTER_MAX_ROUND = "side_option_after_max_round"


def finding(code: str, message: str, *, bet: str | None = None, spot: str = "") -> dict:
    return {"code": code, "bet": bet, "spot": spot, "hand": None, "message": message}


def replay_findings(
    result: ReplayResult, record: RoundRecord, table: Table, configuration: TableConfiguration | None
) -> list[dict]:
    """The engine's findings, and the table's want of a configuration when the round opened."""
    findings = [
        {"code": f.code, "bet": f.bet, "spot": f.spot or "", "hand": f.hand, "message": f.message}
        for f in result.findings
    ]
    if configuration is None:
        findings.append(
            finding("no_configuration", f"{table.code} had no configuration in force at {record.opened_at}.")
        )
    return findings


def limit_findings(
    record: RoundRecord, table: Table, configuration, players: dict[str, PlayerRow]
) -> list[dict]:
    if configuration is None:
        return []
    findings = []
    seated = configuration.rule_set.seats is not None
    refused_seats = set()
    seat_allowed = {}  # by account type
    for spot in record.spots:
        player = players[spot.player]
        if player.account_type not in seat_allowed:
            seat_allowed[player.account_type] = player.as_player().may_take_a_seat
        if seated and spot.hands and not seat_allowed[player.account_type]:
            refused_seats.add(spot.spot)
            findings.append(
                finding(
                    "seat_not_allowed",
                    f"Player {player.external_id} ({player.as_player().get_account_type_display().lower()}) "
                    f"sits in seat {spot.seat}; only real-money accounts may take a seat.",
                    spot=spot.spot,
                )
            )
    table_limits = {limit.kind: limit for limit in TableLimit.objects.filter(table=table)}
    # Judged when the round opened, but never later than now: a round dated a little ahead (within the
    # clock tolerance) must not find a pending raise in force before its time.
    judged_at = min(record.opened_at, timezone.now())
    personal = personal_limits_in_force_by_player(
        with_personal_limits([p.pk for p in players.values()]), judged_at
    )
    # A limit depends on the bet kind and the player's standing, not on who the player is:
    # worked out once per distinct pair, not once per bet; a stake inside its range says nothing.
    standings: dict[tuple, int] = {}  # a standing -> a small number, cheaper to hash in every bet's key
    standing = {
        external_id: standings.setdefault(
            (
                player.account_type,
                player.status,
                player.currency,
                tuple(limit.pk for limit in personal.get(player.pk, ())),
            ),
            len(standings),
        )
        for external_id, player in players.items()
    }
    ranges = {}
    for bet in record.bets:
        key = (bet.kind, bet.behind, standing[bet.player])
        limit = ranges.get(key)
        if limit is None or (limit.reasons and limit.player != bet.player):
            # A refusal's reasons name the player: those are worked out for each one.
            player = players[bet.player]
            own = personal.get(player.pk, [])
            limit = ranges[key] = effective_limit_from(
                player.as_player(),
                table,
                bet.kind,
                configuration=lambda: configuration,
                table_limit=table_limits.get,
                personal_limits=lambda own=own: own,
                insured="behind" if bet.behind else "main",
            )
        if not limit.reasons and limit.min_stake <= bet.stake <= limit.max_stake:
            continue
        if bet.kind == "main" and bet.spot in refused_seats:
            continue  # said once already, as the seat
        refusal = limit.refuses(bet.stake)
        if refusal:
            player = players[bet.player]
            findings.append(
                finding(
                    "limit_breached",
                    f"Bet {bet.bet_id} ({kind_label(bet.kind)}) of player {player.external_id} stakes "
                    f"{money_text(bet.stake)}: {refusal}",
                    bet=bet.bet_id,
                    spot=bet.spot,
                )
            )
    return findings


def shoe_findings(shoe: Shoe, record: RoundRecord, table: Table) -> list[dict]:
    """The round against the shoe's earlier rounds: a number repeated or skipped, a round after the
    cut card, a card seen more often than the shoe's decks hold."""
    findings = []
    earlier = list(Round.objects.filter(shoe=shoe).values_list("number", "cut_card", "cards_taken"))
    numbers = {number for number, _, _ in earlier}
    if record.number in numbers:
        findings.append(
            finding("shoe_round_repeated", f"Shoe {shoe.code} already has a round {record.number}.")
        )
    elif numbers and record.number > max(numbers) + 1:
        skipped = record.number - max(numbers) - 1
        findings.append(
            finding(
                "shoe_round_gap",
                f"Round {record.number} of shoe {shoe.code} follows round {max(numbers)}: {skipped} missing.",
            )
        )
    cut = [number for number, cut_card, _ in earlier if cut_card]
    if cut and record.number > min(cut):
        findings.append(
            finding(
                "shoe_after_cut_card",
                f"Round {record.number} of shoe {shoe.code} comes after round {min(cut)}, "
                "the cut-card round that ends the shoe.",
            )
        )
    taken = Counter(record.physical_cards())
    counts = Counter(taken)
    limit = preset(table.game).decks
    for _, _, cards in earlier:
        counts.update(cards.split())
    for card in sorted(card for card, count in counts.items() if count > limit):
        if taken[card]:
            findings.append(
                finding(
                    "shoe_card_count_exceeded",
                    f"{card} has now appeared {counts[card]} times in shoe {shoe.code}; "
                    f"{limit} decks hold {limit}.",
                )
            )
    return findings

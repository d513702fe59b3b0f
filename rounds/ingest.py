"""Taking in round documents from game servers: check, replay, store.

`round_ingest` is the one way a round enters Pitboss. A document that is not a round is refused
(RoundFormatError, a 400 naming the field) and nothing of it is stored; an identical resend
answers with the stored round; a different document under a known round id is refused
(RoundConflict, a 409). Everything else is stored as received, with normalised rows and every
finding: the engine's, the player's limits, and the integrity of the shoe across its rounds.
"""

import hashlib
import json
from collections import Counter
from dataclasses import dataclass

from django.db import IntegrityError, transaction

from limits.models import Player, TableLimit
from limits.selectors import effective_limit_from, personal_limits_in_force_by_player
from rounds.engine.document import RoundFormatError, RoundRecord, parse_round
from rounds.engine.replay import ReplayResult, replay
from rounds.engine.rules import preset
from tables.models import Table
from tables.selectors import configuration_in_force

from .bulk import insert_rows
from .models import Bet, Finding, Hand, Round, Shoe, Spot


class RoundConflict(Exception):
    """A different document under a round id that is already stored."""

    def __init__(self, round_id: str):
        super().__init__(
            f"Round {round_id} is already stored with a different document; nothing was changed."
        )
        self.round_id = round_id


@dataclass
class IngestResult:
    round: Round
    created: bool  # False: an identical resend of a stored round


def document_digest(document: dict) -> str:
    canonical = json.dumps(document, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(canonical.encode()).hexdigest()


def round_ingest(*, document: object) -> IngestResult:
    record = parse_round(document, strict_cards=True)
    digest = document_digest(document)
    stored = _stored(record.round_id, digest)
    if stored:
        return IngestResult(stored, created=False)
    table = Table.objects.filter(code=record.table).first()
    if table is None:
        raise RoundFormatError("table", f"no table {record.table!r} is configured in Pitboss")
    configuration = configuration_in_force(table, record.opened_at)
    rules = configuration.rule_set if configuration else preset(table.game)
    result = replay(record, rules)
    try:
        with transaction.atomic():
            return IngestResult(_store(record, document, digest, table, configuration, result), created=True)
    except IntegrityError:
        # Another request stored the same round id a moment ago.
        stored = _stored(record.round_id, digest)
        if stored:
            return IngestResult(stored, created=False)
        raise


def _stored(round_id: str, digest: str) -> Round | None:
    stored = Round.objects.filter(round_id=round_id).first()
    if stored is None:
        return None
    if stored.document_sha256 != digest:
        raise RoundConflict(round_id)
    return stored


def _store(record: RoundRecord, document, digest, table, configuration, result: ReplayResult) -> Round:
    shoe, _ = Shoe.objects.get_or_create(code=record.shoe, defaults={"table": table})
    shoe = Shoe.objects.select_for_update().get(pk=shoe.pk)  # one round of a shoe at a time
    findings = [
        {"code": f.code, "bet": f.bet, "spot": f.spot or "", "hand": f.hand, "message": f.message}
        for f in result.findings
    ]
    if configuration is None:
        findings.append(
            _finding("no_configuration", f"{table.code} had no configuration in force at {record.opened_at}.")
        )
    if shoe.table_id != table.pk:
        raise RoundFormatError(
            "shoe", f"shoe {shoe.code} belongs to table {shoe.table.code}, not {table.code}"
        )
    findings += _shoe_findings(shoe, record, table)
    players = _players(record, table)
    findings += _limit_findings(record, table, configuration, players)

    bets = result.bets
    computed_wagered = sum((bets[b.bet_id].wagered or 0 for b in record.bets), start=0)
    computed_returned = sum((bets[b.bet_id].returned or 0 for b in record.bets), start=0)
    round_ = Round.objects.create(
        round_id=record.round_id,
        table=table,
        shoe=shoe,
        number=record.number,
        opened_at=record.opened_at,
        closed_at=record.closed_at,
        status=record.status,
        cancel_reason=record.cancel_reason or "",
        cut_card=record.cut_card,
        configuration=configuration,
        document=document,
        document_sha256=digest,
        cards_taken=" ".join(shoe_cards(record)),
        players=len({b.player for b in record.bets} | {s.player for s in record.spots}),
        bet_count=len(record.bets),
        wagered=sum((b.wagered for b in record.bets), start=0),
        returned=sum((b.returned for b in record.bets), start=0),
        computed_wagered=computed_wagered,
        computed_returned=computed_returned,
        finding_count=len(findings),
    )
    spot_ids = insert_rows(
        Spot,
        ["round_id", "spot", "seat", "player_id"],
        [(round_.pk, s.spot, s.seat, players[s.player].pk) for s in record.spots],
    )
    hand_rows = []
    for spot_id, spot in zip(spot_ids, record.spots, strict=True):
        for position, hand in enumerate(spot.hands, start=1):
            actions = [
                a.label if a.requested is None else {"action": a.label, "requested": a.requested}
                for a in hand.actions
            ]
            hand_rows.append((round_.pk, spot_id, position, " ".join(hand.cards), actions))
    insert_rows(Hand, ["round_id", "spot_id", "position", "cards", "actions"], hand_rows)
    bet_ids = insert_rows(
        Bet,
        [
            "round_id",
            "bet_id",
            "player_id",
            "spot",
            "kind",
            "stake",
            "wagered",
            "returned",
            "computed_wagered",
            "computed_returned",
            "options",
        ],
        [
            (
                round_.pk,
                b.bet_id,
                players[b.player].pk,
                b.spot,
                b.kind,
                b.stake,
                b.wagered,
                b.returned,
                bets[b.bet_id].wagered,
                bets[b.bet_id].returned,
                _bet_options(b),
            )
            for b in record.bets
        ],
    )
    row_of_bet = dict(zip((b.bet_id for b in record.bets), bet_ids, strict=True))
    insert_rows(
        Finding,
        ["round_id", "code", "bet_id", "spot", "hand", "message"],
        [
            (round_.pk, f["code"], row_of_bet.get(f["bet"]), f["spot"], f["hand"], f["message"])
            for f in findings
        ],
    )
    if record.cancelled:
        from .services import incident_attach_cancelled_round

        incident_attach_cancelled_round(round_=round_)
    return round_


def _finding(code: str, message: str, *, bet: str | None = None, spot: str = "") -> dict:
    return {"code": code, "bet": bet, "spot": spot, "hand": None, "message": message}


def _bet_options(bet) -> dict:
    if bet.kind == "behind":
        options = {"follow_double": bet.follow_double, "follow_split": bet.follow_split}
        if bet.followed_double is not None:
            options["followed_double"] = bet.followed_double
        if bet.followed_split is not None:
            options["followed_split"] = bet.followed_split
        return options
    if bet.kind == "insurance" and bet.behind:
        return {"behind": True}
    return {}


# --- players and their limits ---------------------------------------------------------------


def _players(record: RoundRecord, table: Table) -> dict[str, Player]:
    """Every player of the round by external id; one the game server sends first is created as a
    real-money account in the table's currency."""
    ids = {b.player for b in record.bets} | {s.player for s in record.spots}
    known = {p.external_id: p for p in Player.objects.filter(external_id__in=ids)}
    missing = ids - known.keys()
    if missing:
        Player.objects.bulk_create(
            [Player(external_id=external_id, currency=table.currency) for external_id in sorted(missing)],
            ignore_conflicts=True,
        )
        known = {p.external_id: p for p in Player.objects.filter(external_id__in=ids)}
    return known


def _limit_findings(
    record: RoundRecord, table: Table, configuration, players: dict[str, Player]
) -> list[dict]:
    if configuration is None:
        return []
    findings = []
    seated = configuration.rule_set.seats is not None
    for spot in record.spots:
        player = players[spot.player]
        if seated and spot.hands and not player.may_take_a_seat:
            findings.append(
                _finding(
                    "seat_not_allowed",
                    f"Player {player.external_id} ({player.get_account_type_display().lower()}) sits in seat "
                    f"{spot.seat}; only real-money accounts may take a seat.",
                    spot=spot.spot,
                )
            )
    table_limits = {limit.kind: limit for limit in TableLimit.objects.filter(table=table)}
    personal = personal_limits_in_force_by_player([p.pk for p in players.values()], record.opened_at)
    ranges = {}
    for bet in record.bets:
        player = players[bet.player]
        own = personal.get(player.pk, [])
        insured = "behind" if bet.behind else "main"
        key = (
            bet.kind,
            insured,
            player.account_type,
            player.status,
            player.currency,
            tuple(limit.pk for limit in own),
        )
        if key not in ranges:
            limit = effective_limit_from(
                player,
                table,
                bet.kind,
                configuration=lambda: configuration,
                table_limit=table_limits.get,
                personal_limits=lambda own=own: own,
                insured=insured,
            )
            ranges[key] = limit
        limit = ranges[key]
        if limit.reasons and bet.kind == "main" and any(f["code"] == "seat_not_allowed" for f in findings):
            continue  # said once already, as the seat
        refusal = limit.refuses(bet.stake)
        if refusal:
            findings.append(
                _finding(
                    "limit_breached",
                    f"Bet {bet.bet_id} ({bet.kind}) of player {player.external_id} stakes {bet.stake}: "
                    f"{refusal}",
                    bet=bet.bet_id,
                    spot=bet.spot,
                )
            )
    return findings


# --- the shoe across its rounds ----------------------------------------------------------------


def _shoe_findings(shoe: Shoe, record: RoundRecord, table: Table) -> list[dict]:
    findings = []
    earlier = list(Round.objects.filter(shoe=shoe).values_list("number", "cut_card"))
    numbers = {number for number, _ in earlier}
    if record.number in numbers:
        findings.append(
            _finding("shoe_round_repeated", f"Shoe {shoe.code} already has a round {record.number}.")
        )
    elif numbers and record.number > max(numbers) + 1:
        skipped = record.number - max(numbers) - 1
        findings.append(
            _finding(
                "shoe_round_gap",
                f"Round {record.number} of shoe {shoe.code} follows round {max(numbers)}: {skipped} missing.",
            )
        )
    cut = [number for number, cut_card in earlier if cut_card]
    if cut and record.number > min(cut):
        findings.append(
            _finding(
                "shoe_after_cut_card",
                f"Round {record.number} of shoe {shoe.code} comes after round {min(cut)}, "
                "the cut-card round that ends the shoe.",
            )
        )
    taken = Counter(shoe_cards(record))
    counts = Counter(taken)
    limit = preset(table.game).decks
    for cards in Round.objects.filter(shoe=shoe).values_list("cards_taken", flat=True):
        counts.update(cards.split())
    for card in sorted(card for card, count in counts.items() if count > limit):
        if taken[card]:
            findings.append(
                _finding(
                    "shoe_card_count_exceeded",
                    f"{card} has now appeared {counts[card]} times in shoe {shoe.code}; "
                    f"{limit} decks hold {limit}.",
                )
            )
    return findings


def shoe_cards(record: RoundRecord) -> list[str]:
    """The physical cards a round took from the shoe (a shared deal's cards once)."""
    if record.shared is not None:
        return record.dealer + record.shared.initial + record.shared.draws
    return record.dealer + [card for spot in record.spots for hand in spot.hands for card in hand.cards]

"""Shared by the tests of how pages show bet kinds and money: the demo tables, a classic round paid
wrongly three ways (one re-settlement away from adjustments of both signs), a round cancelled in an
incident, and the text a page shows its reader."""

import io
import random
import re
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from decimal import Decimal
from html.parser import HTMLParser

from django.contrib.auth import get_user_model
from django.core.management import call_command

from blackjack.rules import BET_KINDS, preset
from blackjack.simulate import simulate_shoe
from rounds import services
from rounds.ingest import round_ingest
from rounds.models import Incident, Resettlement, Round

USERS = {"supervisor": "supervisor", "compliance": "compliance", "customer_service": "customer-service"}


def seed_demo() -> None:
    call_command("seed_demo", stdout=io.StringIO())


def demo_user(role: str):
    return get_user_model().objects.get(username=USERS[role])


@dataclass
class WronglyPaid:
    round: Round
    overpaid_main: str  # paid 1,000.00 too much: adjusted by −1,000.00
    overpaid_side: str  # a 21+3 bet paid 3.00 too much: −3.00
    underpaid: str  # paid 5.00 short: +5.00
    player: str  # who placed the overpaid 21+3 bet


def _classic_rounds(shoe: str, seed: int) -> list[dict]:
    return simulate_shoe(
        preset("classic"),
        table="CLS1",
        shoe_id=shoe,
        players=7,
        rng=random.Random(seed),
        start=datetime.now(UTC) - timedelta(hours=3),
    )


def _with_a_side_bet(documents: list[dict]) -> dict:
    """The first round with a 21+3 bet, a main bet, and a third bet that returned at least 5.00."""
    for document in documents:
        bets = document["bets"]
        side = next((b for b in bets if b["kind"] == "twenty_one_plus_three"), None)
        main = next((b for b in bets if b["kind"] == "main"), None)
        if side is None or main is None:
            continue
        if any(b not in (side, main) and Decimal(b["returned"]) >= 5 for b in bets):
            return document
    raise AssertionError("no simulated round has the bets these tests need")


def wrongly_paid_round() -> WronglyPaid:
    """A classic round at CLS1 whose main bet was paid 1,000.00 too much, whose 21+3 bet 3.00 too much
    and whose third bet 5.00 short."""
    document = _with_a_side_bet(_classic_rounds("CLS1-S0700", seed=3))
    bets = document["bets"]
    side = next(b for b in bets if b["kind"] == "twenty_one_plus_three")
    main = next(b for b in bets if b["kind"] == "main")
    short = next(b for b in bets if b not in (side, main) and Decimal(b["returned"]) >= 5)
    for bet, change in ((main, "1000.00"), (side, "3.00"), (short, "-5.00")):
        bet["returned"] = str(Decimal(bet["returned"]) + Decimal(change))
    round_ = round_ingest(document=document).round
    return WronglyPaid(round_, main["bet_id"], side["bet_id"], short["bet_id"], side["player"])


def resettled(paid: WronglyPaid) -> Resettlement:
    """The round re-settled: proposed by compliance, approved by a supervisor."""
    proposed = services.resettlement_propose(
        round_=paid.round, proposed_by=demo_user("compliance"), reason="Paid wrongly three ways"
    )
    return services.resettlement_approve(
        resettlement=proposed, decided_by=demo_user("supervisor"), comment="Checked"
    )


def cancelled_round() -> tuple[Incident, Round]:
    """A classic round with a 21+3 bet that the game server sent as cancelled (a network failure),
    cancelled in the incident ingest opened for it: every bet refunded."""
    document = _with_a_side_bet(_classic_rounds("CLS1-S0701", seed=4))
    document.update(status="cancelled", cancel_reason="network_failure")
    for bet in document["bets"]:
        bet["returned"] = bet["wagered"]
    round_ = round_ingest(document=document).round
    supervisor = demo_user("supervisor")
    incident = Incident.objects.get(table__code="CLS1", status="open")
    incident = services.incident_cancel_round(
        incident=incident, round_=round_, cancelled_by=supervisor, reason="Stream lost"
    )
    return incident, round_


class _ShownText(HTMLParser):
    def __init__(self):
        super().__init__()
        self.texts: list[str] = []
        self.hidden = 0

    def handle_starttag(self, tag, attrs):
        self.hidden += tag in ("script", "style")

    def handle_endtag(self, tag):
        self.hidden -= tag in ("script", "style")

    def handle_data(self, data):
        if not self.hidden and data.strip():
            self.texts.append(" ".join(data.split()))


def shown_texts(html: str) -> list[str]:
    """Each piece of text the reader sees (attributes, scripts and styles left out)."""
    parser = _ShownText()
    parser.feed(html)
    return parser.texts


def shown_text(html: str) -> str:
    """The page's text, its pieces joined by one space."""
    return " ".join(shown_texts(html))


_KIND_CODE = re.compile(
    r"\b(?:{})\b|\((?:{})\)".format("|".join(kind for kind in BET_KINDS if "_" in kind), "|".join(BET_KINDS))
)


def raw_kinds(html: str) -> list[str]:
    """The texts of a page that name a bet kind by its code ("twenty_one_plus_three", "(main)")."""
    return [text for text in shown_texts(html) if text in BET_KINDS or _KIND_CODE.search(text)]

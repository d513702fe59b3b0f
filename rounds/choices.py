from django.db import models

from blackjack.findings import FINDING_CODES
from live.choices import FindingClass


class RoundStatus(models.TextChoices):
    COMPLETED = "completed", "Completed"
    CANCELLED = "cancelled", "Cancelled"


class CancelReason(models.TextChoices):
    CARD_UNREADABLE = "card_unreadable", "Card unreadable"
    NETWORK_FAILURE = "network_failure", "Network failure"
    MALFUNCTION = "malfunction", "Malfunction"
    PROCEDURE_ERROR = "procedure_error", "Procedure error"


# Findings the back office adds to the engine's: what one round document cannot show alone.
INGEST_FINDING_CODES = {
    "limit_breached": "Stake outside the player's effective limit",
    "seat_not_allowed": "Trial or play-for-fun account in a seat",
    "shoe_card_count_exceeded": "More copies of a card in the shoe than it holds",
    "shoe_round_gap": "Round number skips in the shoe",
    "shoe_round_repeated": "Round number repeated in the shoe",
    "shoe_after_cut_card": "Round after the shoe's cut-card round",
    "no_configuration": "No table configuration in force",
    "table_closed": "Round opened while the table was closed",
}
FindingCode = models.TextChoices(
    "FindingCode",
    [(code, (code, title)) for code, title in {**FINDING_CODES, **INGEST_FINDING_CODES}.items()],
)


class ProposalStatus(models.TextChoices):
    """Where a four-eyes proposal stands: a re-settlement or a void, decided by a second person."""

    PROPOSED = "proposed", "Proposed"
    APPROVED = "approved", "Approved"
    REJECTED = "rejected", "Rejected"


class CorrectionKind(models.TextChoices):
    """The one correction a round's bets may receive after ingest."""

    RESETTLED = "resettled", "Re-settled"
    CANCELLED = "cancelled", "Cancelled in an incident"
    VOIDED = "voided", "Voided"


class IncidentKind(models.TextChoices):
    CARD_UNREADABLE = "card_unreadable", "Card unreadable"
    NETWORK_FAILURE = "network_failure", "Network failure"
    MALFUNCTION = "malfunction", "Malfunction"
    PROCEDURE_ERROR = "procedure_error", "Procedure error"
    WRONG_SETTLEMENT = "wrong_settlement", "Wrong settlement"
    OTHER = "other", "Other"


class IncidentStatus(models.TextChoices):
    OPEN = "open", "Open"
    RESUMED = "resumed", "Resumed"
    CANCELLED = "cancelled", "Round cancelled"


# The floor's classes of findings (live.choices.FindingClass); every other code is OTHER.
FINDING_CLASSES = {
    FindingClass.MONEY: ["wrong_wagered", "wrong_returned", "cancelled_not_refunded"],
    FindingClass.LIMIT: ["limit_breached"],
    FindingClass.DEALER: [
        *("bad_card", "card_count_exceeded", "shoe_card_count_exceeded", "shoe_after_cut_card"),
        *("shared_deal_mismatch", "shared_draws_unused", "cards_actions_mismatch", "card_limit_exceeded"),
        *("dealer_missing_hole_card", "dealer_stopped_early", "dealer_drew_on_17", "dealer_drew_after_end"),
        "play_after_dealer_blackjack",
    ],
}
_CLASS_OF_CODE = {code: finding_class for finding_class, codes in FINDING_CLASSES.items() for code in codes}


def finding_class(code: str) -> FindingClass:
    """The floor's class of a finding's code."""
    return _CLASS_OF_CODE.get(code, FindingClass.OTHER)


def codes_of_classes(classes) -> list[str]:
    """Every finding code of the given classes."""
    return [code for code in FindingCode.values if finding_class(code) in classes]


# What compliance reviews: every finding but a limit breach, which customer service follows up by player.
REVIEWED_CLASSES = [FindingClass.MONEY, FindingClass.DEALER, FindingClass.OTHER]

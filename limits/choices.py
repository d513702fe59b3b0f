from django.db import models

from blackjack.rules import BET_KIND_LABELS


class AccountType(models.TextChoices):
    REAL = "real", "Real money"
    TRIAL = "trial", "Trial"
    PLAY_FOR_FUN = "play_for_fun", "Play for fun"


class PlayerStatus(models.TextChoices):
    ACTIVE = "active", "Active"
    SUSPENDED = "suspended", "Suspended"
    CLOSED = "closed", "Closed"


# BetKind.MAIN == "main", BetKind.TWENTY_ONE_PLUS_THREE.label == "21+3": the kinds and labels of the engine.
BetKind = models.TextChoices(
    "BetKind", [(kind.upper(), (kind, label)) for kind, label in BET_KIND_LABELS.items()]
)


# A table limit is set for every kind but insurance, which follows from the main bet's.
TABLE_LIMIT_KINDS = [(value, label) for value, label in BetKind.choices if value != BetKind.INSURANCE]

from django.db import models


class AccountType(models.TextChoices):
    REAL = "real", "Real money"
    TRIAL = "trial", "Trial"
    PLAY_FOR_FUN = "play_for_fun", "Play for fun"


class PlayerStatus(models.TextChoices):
    ACTIVE = "active", "Active"
    SUSPENDED = "suspended", "Suspended"
    CLOSED = "closed", "Closed"


class BetKind(models.TextChoices):
    MAIN = "main", "Main (seat play)"
    BEHIND = "behind", "Play behind"
    INSURANCE = "insurance", "Insurance"
    PAIR = "pair", "Pair"
    PERFECT_PAIRS = "perfect_pairs", "Perfect Pairs"
    TWENTY_ONE_PLUS_THREE = "twenty_one_plus_three", "21+3"
    LUCKY_TRIO = "lucky_trio", "Lucky Trio"
    POKER_TRIO = "poker_trio", "Poker Trio"
    BUST_BONUS = "bust_bonus", "Bust Bonus"


# A table limit is set for every kind but insurance, which follows from the main bet's.
TABLE_LIMIT_KINDS = [(value, label) for value, label in BetKind.choices if value != BetKind.INSURANCE]

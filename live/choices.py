from django.db import models


class FindingClass(models.TextChoices):
    """What a finding says went wrong, for the floor (rounds.choices.finding_class sorts the codes)."""

    MONEY = "money", "Money: amounts other than computed"
    LIMIT = "limit", "Limit: stakes outside a limit"
    DEALER = "dealer", "Dealer: the dealer's play and the cards"
    OTHER = "other", "Other"

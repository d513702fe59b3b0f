from django.db import models


class Game(models.TextChoices):
    DELUXE = "deluxe", "Deluxe Blackjack"
    BOUNDLESS = "boundless", "Boundless Blackjack"
    CLASSIC = "classic", "BlackJack (classic)"
    MULTIPLAYER = "multiplayer", "Multi-player Blackjack"


class TableStatus(models.TextChoices):
    OPEN = "open", "Open"
    PAUSED = "paused", "Paused"
    CLOSED = "closed", "Closed"


class Currency(models.TextChoices):
    EUR = "EUR", "Euro"
    GBP = "GBP", "Pound sterling"
    USD = "USD", "US dollar"
    CAD = "CAD", "Canadian dollar"
    SEK = "SEK", "Swedish krona"
    PHP = "PHP", "Philippine peso"


class ConfigurationStatus(models.TextChoices):
    """A configuration version's change control: proposed by one supervisor, decided by another."""

    PROPOSED = "proposed", "Proposed"
    APPROVED = "approved", "Approved"
    REJECTED = "rejected", "Rejected"


# What a table's automatic play does for a player who does not decide in time, in words.
AUTO_PLAY_LABELS = {
    "hit_to_12": "Hit to 12, then stand",
    "stand": "Stand",
    "strategy": "Play the strategy table",
}

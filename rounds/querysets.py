"""The round tables' querysets: what reads a round, or its rows, in its month alone."""

from django.db import models

from .registry import RoundKey


class RoundQuerySet(models.QuerySet):
    def by_round_id(self, round_id: str) -> "RoundQuerySet":
        """The round of a game server's round id. Its id and gaming day are read from the registry
        first (a query, now) and named as values, so that PostgreSQL plans only that day's month:
        as subqueries it planned every month's partition (6 ms with 24 months kept)."""
        key = RoundKey.objects.filter(round_id=round_id).values_list("pk", "gaming_day").first()
        if key is None:
            return self.none()
        pk, gaming_day = key
        return self.filter(pk=pk, gaming_day=gaming_day)


class RoundRowQuerySet(models.QuerySet):
    def of_round(self, round_) -> "RoundRowQuerySet":
        """The rows of one round, named with its gaming day so that only its month is read."""
        return self.filter(round=round_, gaming_day=round_.gaming_day)


# The bets paid other than the engine computes, or that it cannot compute (Bet.difference is not 0):
# those a supervisor looks at on the round page. Said once for the ORM (BetQuerySet) and once in SQL
# for what reads a bet's columns without it: the round page's one query for which corrections a round
# has (PostgreSQL, SQLite) and an archived month's bets file (DuckDB). The two say the same:
# tests/rounds/test_paid_other_than_computed.py.
PAID_OTHER_THAN_COMPUTED = "computed_returned IS NULL OR computed_returned <> returned"


UNCOMPUTED = models.Q(computed_returned__isnull=True)


class BetQuerySet(RoundRowQuerySet):
    def paid_other_than_computed(self) -> "BetQuerySet":
        return self.filter(UNCOMPUTED | ~models.Q(computed_returned=models.F("returned")))

    def uncomputed(self) -> "BetQuerySet":
        """Those the engine cannot compute: never adjusted."""
        return self.filter(UNCOMPUTED)

    def to_adjust(self) -> "BetQuerySet":
        """Those a re-settlement adjusts: paid other than computed, where the engine computes them."""
        return self.paid_other_than_computed().exclude(UNCOMPUTED)


class CorrectionQuerySet(models.QuerySet):
    """Re-settlements, voids and incidents: kept in the database for good, while their round's month
    may be archived (its row gone from rounds_round, so a join to it finds nothing)."""

    def with_round_key(self) -> "CorrectionQuerySet":
        """Each row's round as the registry keeps it, archived or not: `game_round_id` (the game
        server's round id), `round_table_code` and `round_currency` (None for an incident naming no
        round)."""
        key = RoundKey.objects.filter(pk=models.OuterRef("round_id"))
        return self.annotate(
            game_round_id=models.Subquery(key.values("round_id")[:1]),
            round_table_code=models.Subquery(key.values("table__code")[:1]),
            round_currency=models.Subquery(key.values("table__currency")[:1]),
        )

"""The round tables' querysets: what reads a round, or its rows, in its month alone."""

from django.db import models

from .registry import RoundKey


class RoundQuerySet(models.QuerySet):
    def by_round_id(self, round_id: str) -> "RoundQuerySet":
        """The round of a game server's round id, found through the registry: its id and gaming day,
        so that PostgreSQL reads only that day's month (runtime partition pruning)."""
        key = RoundKey.objects.filter(round_id=round_id)
        return self.filter(
            pk=models.Subquery(key.values("pk")[:1]), gaming_day=models.Subquery(key.values("gaming_day")[:1])
        )


class RoundRowQuerySet(models.QuerySet):
    def of_round(self, round_) -> "RoundRowQuerySet":
        """The rows of one round, named with its gaming day so that only its month is read."""
        return self.filter(round=round_, gaming_day=round_.gaming_day)

"""The registry of every round and bet ever stored: narrow, unpartitioned, kept when a month of
history is archived.

On PostgreSQL the round tables are partitioned by month of the gaming day (rounds.partitions), and
a partitioned table can enforce uniqueness, or be the target of a foreign key, only together with
its partition key. The registry does both jobs for the whole history: it keeps game servers' round
and bet ids unique across months (and across the archive), and corrections (re-settlements,
incidents, voids, refunds, adjustments) point at rounds and bets through it, so that a month can be
archived without them. A key's id is its round's or bet's own id.
"""

from django.db import models

from tables.models import Table


class RoundKey(models.Model):
    id = models.BigIntegerField(primary_key=True, help_text="The round's id (rounds_round.id).")
    round_id = models.CharField(max_length=64, help_text="The game server's round id.")
    gaming_day = models.DateField(help_text="The round's gaming day: the month it is kept in.")
    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="+", db_index=False)

    class Meta:
        verbose_name = "round key"
        # A constraint, not unique=True: on PostgreSQL that would add a second index, for LIKE.
        constraints = [models.UniqueConstraint(fields=["round_id"], name="round_key_round_id_unique")]

    def __str__(self) -> str:
        return self.round_id


class BetKey(models.Model):
    id = models.BigIntegerField(primary_key=True, help_text="The bet's id (rounds_bet.id).")
    bet_id = models.CharField(max_length=64, help_text="The game server's bet id.")
    round = models.ForeignKey(
        RoundKey, on_delete=models.PROTECT, related_name="+", db_index=False, db_constraint=False
    )

    class Meta:
        verbose_name = "bet key"
        # A constraint, not unique=True: on PostgreSQL that would add a second index (for LIKE), the
        # largest of a round's at one row per bet.
        constraints = [models.UniqueConstraint(fields=["bet_id"], name="bet_key_bet_id_unique")]

    def __str__(self) -> str:
        return self.bet_id

"""The floor's figures, kept as rounds arrive: per table, five-minute slot, shoe, dealer, version and
bet kind. Ingest adds each round in the transaction that stores it; a correction (a void, a
re-settlement) adds its difference in the transaction that records it (`services.py`). Pages sum a
table's rows of a day, or of the last hour's slots, and never read a bet.

A row of kind "" counts the rounds themselves: every round received (cancelled or not), those
cancelled (by the game server or in an incident) and voided, their players, their findings by class,
and the handle and returns of those played (GGR = wagered − returned). A row of a bet kind counts the
played rounds with a bet of the kind: their bets, wagered and returned (returned corrected by
approved re-settlements), the moments its RTP interval comes from (as TableDayTotal's), and the side
options' bets the engine found paying a pattern.
"""

from django.db import models

from core.money import TOTAL_DIGITS
from tables.models import Table

SLOT_MINUTES = 5
ROUNDS_ROW = ""  # the kind of the row that counts the rounds themselves


def money_total(verbose_name: str = "") -> models.DecimalField:
    return models.DecimalField(verbose_name, max_digits=TOTAL_DIGITS, decimal_places=2, default=0)


def moment(verbose_name: str) -> models.DecimalField:
    """A sum of squared or multiplied amounts: exact, and as wide as it grows (core.money)."""
    return models.DecimalField(verbose_name, default=0)


class LiveFigures(models.Model):
    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="+", db_index=False)
    day = models.DateField(help_text="The rounds' gaming day.")
    slot = models.DateTimeField(help_text=f"The {SLOT_MINUTES}-minute slot the rounds opened in: its start.")
    shoe = models.CharField(max_length=64, help_text="The game server's shoe id.")
    dealt_by = models.CharField(max_length=64, blank=True, help_text="Who dealt (the round's dealt_by).")
    configuration_pk = models.PositiveBigIntegerField(help_text="The version in force; 0 when none was.")
    kind = models.CharField(max_length=24, blank=True, help_text='A bet kind; "" for the rounds themselves.')
    # Signed: a correction adds a negative difference.
    rounds = models.IntegerField(default=0)
    cancelled = models.IntegerField(default=0)
    voided = models.IntegerField(default=0)
    player_rounds = models.IntegerField(default=0, help_text="Each round's players, summed.")
    bets = models.IntegerField(default=0)
    hits = models.IntegerField(default=0, help_text="Side-option bets the engine found paying a pattern.")
    wagered = money_total("ΣW_r (reported)")
    returned = money_total("ΣR_r (reported, with approved adjustments)")
    wagered_squared = moment("ΣW_r²")
    returned_squared = moment("ΣR_r²")
    wagered_returned = moment("ΣW_rR_r")
    findings_money = models.IntegerField(default=0)
    findings_limit = models.IntegerField(default=0)
    findings_dealer = models.IntegerField(default=0)
    findings_other = models.IntegerField(default=0)

    class Meta:
        verbose_name_plural = "live figures"
        constraints = [
            models.UniqueConstraint(
                fields=["table", "day", "slot", "shoe", "dealt_by", "configuration_pk", "kind"],
                name="live_figures_once",
            )
        ]
        # The floor: every table's rounds rows of a day, or since a slot.
        indexes = [models.Index(fields=["day", "kind", "table"]), models.Index(fields=["slot", "kind"])]

    def __str__(self) -> str:
        return (
            f"{self.table_id} {self.slot:%Y-%m-%d %H:%M} {self.shoe} {self.dealt_by} {self.kind or 'rounds'}"
        )

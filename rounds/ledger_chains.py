"""The rounds' money movements in the ledger (ledger.chains), registered by RoundsConfig.ready():
each adjustment of an approved re-settlement, each refund of a cancelled round, each line of an
approved void. Their services append them in the transaction that writes them."""

from ledger.chains import Chain

from .models import Adjustment, Refund, VoidLine

ADJUSTMENTS = Chain(
    "adjustment",
    Adjustment,
    ("id", "resettlement_id", "bet_id", "gaming_day", "amount", "created_at"),
    month_field="gaming_day",
)
REFUNDS = Chain(
    "refund",
    Refund,
    ("id", "incident_id", "bet_id", "gaming_day", "amount", "created_at"),
    month_field="gaming_day",
)
VOID_LINES = Chain(
    "void_line",
    VoidLine,
    ("id", "void_id", "bet_id", "reversed_returned", "returned_stake", "created_at"),
    month_field="created_at",
)
CHAINS = (ADJUSTMENTS, REFUNDS, VOID_LINES)

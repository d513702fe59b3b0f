"""Limit changes in the ledger (ledger.chains), registered by LimitsConfig.ready(): the row that
records each change.

- A table limit is one row changed in place; each change is its history row (simple_history's
  HistoricalTableLimit: the values after it, who, when, why).
- A personal limit change is a new PersonalLimit row. Its `withdrawn_at` is set later, when a later
  change overtakes a pending raise: that change is its own entry, so `withdrawn_at` is not hashed.
"""

from ledger.chains import Chain

from .models import PersonalLimit, TableLimit

TABLE_LIMIT_CHANGES = Chain(
    "table_limit",
    TableLimit.history.model,
    (
        "history_id",
        "id",
        "table_id",
        "kind",
        "min_stake",
        "max_stake",
        "history_date",
        "history_type",
        "history_change_reason",
        "history_user_id",
    ),
    month_field="history_date",
)
PERSONAL_LIMIT_CHANGES = Chain(
    "personal_limit",
    PersonalLimit,
    (
        "id",
        "player_id",
        "kind",
        "table_id",
        "game",
        "min_stake",
        "max_stake",
        "effective_from",
        "replaces_id",
        "reason",
        "created_by_id",
        "created_at",
    ),
    month_field="created_at",
)
CHAINS = (TABLE_LIMIT_CHANGES, PERSONAL_LIMIT_CHANGES)

"""Account changes in the ledger (ledger.chains), registered by StaffConfig.ready(): appended when a
change reaches its final state (applied at once, approved, rejected or withdrawn), after which it
never changes, so every field is its content. A pending change is not in the chain yet."""

from ledger.chains import Chain

from .models import FINAL_STATUSES, AccountChange

ACCOUNT_CHANGES = Chain(
    "account_change",
    AccountChange,
    (
        "id",
        "user_id",
        "kind",
        "role",
        "token_id",
        "reason",
        "requested_by_id",
        "requested_at",
        "status",
        "decided_by_id",
        "decided_at",
        "decision_note",
    ),
    month_field="requested_at",
    rows=lambda: AccountChange.objects.filter(status__in=FINAL_STATUSES),
)

"""Approved configuration versions in the ledger (ledger.chains), registered by TablesConfig.ready():
appended when a version is approved (and version 1, approved when its table is made). A version is
never changed once approved, so every field is its content."""

from ledger.chains import Chain

from .models import TableConfiguration

APPROVED_CONFIGURATIONS = Chain(
    "table_configuration",
    TableConfiguration,
    (
        "id",
        "table_id",
        "version",
        "valid_from",
        "rules",
        "reason",
        "created_by_id",
        "created_at",
        "status",
        "requested_from",
        "decided_by_id",
        "decided_at",
        "decision_comment",
        "rtp_fall_reason",
        "needs_compliance",
        "compliance_approved_by_id",
        "compliance_approved_at",
        "compliance_comment",
    ),
    month_field="created_at",
    rows=lambda: TableConfiguration.objects.approved(),
)

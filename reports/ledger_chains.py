"""The report sign-offs in the ledger (ledger.chains), registered by ReportsConfig.ready(): who signed
which run, when, and what they wrote. `sign_off.report_sign` appends each in its transaction."""

from ledger.chains import Chain

from .models import ReportSignOff

SIGN_OFFS = Chain(
    "report_signoff",
    ReportSignOff,
    ("id", "run_id", "signed_by_id", "signed_at", "comment"),
    month_field="signed_at",
)

from celery import shared_task

from core.gaming_day import gaming_day, last_closed_gaming_day

from .models import LedgerVerification
from .services import ledger_sign_heads, verification_run

BEAT = "beat"


@shared_task
def ledger_daily_task() -> dict | None:
    """For Celery beat, after each gaming day closes: sign every chain's head as of the day's end,
    then verify the whole ledger once for the day (its outcome kept as a LedgerVerification; a
    problem logged as an error). Runs again are cheap: heads signed stay, and a day verified by beat
    since it closed is not verified again. None when there was nothing to do."""
    day = last_closed_gaming_day()
    ledger_sign_heads(day)
    if LedgerVerification.objects.filter(by=BEAT, started_at__gte=gaming_day(day).ends_at).exists():
        return None
    record, problems = verification_run(by=BEAT)
    return {"day": day.isoformat(), "verification": record.pk, "problems": len(problems)}

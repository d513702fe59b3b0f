"""Compliance signs a day's run off: the write (`report_sign`), when a run may be signed, and what a
later run of a signed day changed.

A sign-off is never withdrawn nor edited: nothing here or anywhere else does either (the run is
PROTECTed under it). Only the day's current run, succeeded and with its reports (not figures only),
can be signed, once; whoever started the run may sign it. Its PDFs were made when the run ended,
saying "Not signed"; the sign-off queues the signed edition of each (`tasks.signed_documents_task`),
new files beside them. A day with a signed run is run again only with a reason
(`services.report_run_start`), and that run's page shows what changed from the signed run's figures.
"""

from dataclasses import dataclass
from decimal import Decimal

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils import timezone

from blackjack.rules import kind_label
from core.money import money_text
from core.refusals import TransitionRefused
from core.templatetags.pitboss import local_time_text
from ledger.services import ledger_append
from outbox.services import task_send_on_commit

from .models import DailyFigures, ReportRun, ReportSignOff, RunStatus

SIGN = "reports.sign_reportrun"


def sign_refusal(run: ReportRun) -> ValidationError | None:
    """Why the run cannot be signed, naming `run`; None when it can. TransitionRefused (409) for a
    run whose state forbids it, a plain ValidationError (400) for a run of figures only."""
    if run.figures_only:
        return ValidationError({"run": f"Run {run.pk} stored figures only: it has no report to sign."})
    if hasattr(run, "sign_off"):
        signed, at = run.sign_off, local_time_text(run.sign_off.signed_at)
        return TransitionRefused(
            {"run": f"Run {run.pk} was signed by {signed.signed_by} at {at}: a sign-off is given once."}
        )
    if run.status != RunStatus.SUCCEEDED:
        return TransitionRefused(
            {"run": f"Run {run.pk} is {run.get_status_display().lower()}: only a succeeded run is signed."}
        )
    if run.superseded_by_id is not None:
        return TransitionRefused(
            {
                "run": f"Run {run.pk} was superseded by run {run.superseded_by_id}: only the day's "
                "current run is signed."
            }
        )
    return None


@transaction.atomic
def report_sign(*, run: ReportRun, signed_by, comment: str) -> ReportSignOff:
    """Sign the run off with `comment` (not empty) and queue the signed edition of its PDFs.

    Under a lock on the run's row: a newer run's finish, which supersedes it, waits or is waited
    for, and of two sign-offs at once the second finds the first."""
    if not signed_by.has_perm(SIGN):
        raise PermissionDenied("Only compliance signs a day's report off.")
    comment = (comment or "").strip()
    if not comment:
        raise ValidationError({"comment": "Say what you checked: the sign-off is kept with it."})
    run = ReportRun.objects.select_for_update().get(pk=run.pk)
    if refusal := sign_refusal(run):
        raise refusal
    sign_off = ReportSignOff.objects.create(
        run=run, signed_by=signed_by, signed_at=timezone.now(), comment=comment
    )
    ledger_append("report_signoff", [sign_off])
    from .tasks import signed_documents_task  # the tasks call the services

    task_send_on_commit(signed_documents_task, run.pk)
    return sign_off


def signed_run_of(day) -> ReportRun | None:
    """The day's latest signed run (a later run may have superseded it)."""
    return (
        ReportRun.objects.filter(day=day, sign_off__isnull=False)
        .select_related("sign_off__signed_by")
        .order_by("-pk")
        .first()
    )


# What a change shows of each figure DailyFigures holds: its label and how it is written.
COMPARED = (
    ("rounds", "Rounds", "count"),
    ("bets", "Bets", "count"),
    ("players", "Players", "count"),
    ("wagered", "Wagered", "money"),
    ("returned", "Returned", "money"),
    ("gross_gaming_revenue", "GGR", "money"),
    ("observed_rtp", "Observed RTP %", "percent"),
    ("theoretical_rtp", "Theoretical RTP %", "percent"),
    ("ci99_low", "99% interval, low", "percent"),
    ("ci99_high", "99% interval, high", "percent"),
    ("outside_99", "RTP flag", "flag"),
)


def _text(value, form: str) -> str:
    if value is None:
        return "—"
    if form == "count":
        return f"{value:,}"
    if form == "money":
        return money_text(value)
    if form == "percent":
        return f"{value:.4f}"
    return "outside 99%" if value else "inside 99%"


def _difference(before, after, form: str) -> str:
    if form == "flag" or before is None or after is None:
        return ""
    change = after - before
    if form == "count":
        return f"{change:+,}"
    if form == "money":
        return ("+" if change >= 0 else "") + money_text(change)
    return f"{Decimal(change):+.4f}"


@dataclass(frozen=True)
class FigureChange:
    table: str  # a table's code, or "<game> total"
    currency: str
    kind: str
    figure: str
    before: str
    after: str
    difference: str


def figure_changes(signed: ReportRun, run: ReportRun) -> list[FigureChange]:
    """Every figure of `run` that differs from the signed run's, per table (and game total) and bet
    kind; a row only one of them has shows "—" on the other side."""

    def rows_of(of: ReportRun) -> dict[tuple, DailyFigures]:
        return {
            (row.game, row.currency, row.table_code, row.kind): row
            for row in DailyFigures.objects.filter(run=of)
        }

    before, after = rows_of(signed), rows_of(run)
    changes = []
    for key in sorted(before.keys() | after.keys(), key=lambda key: (key[0], key[1], key[2] == "", key)):
        game, currency, code, kind = key
        old, new = before.get(key), after.get(key)
        for field, label, form in COMPARED:
            old_value = None if old is None else getattr(old, field)
            new_value = None if new is None else getattr(new, field)
            if old is not None and new is not None and old_value == new_value:
                continue
            if old is None and new is None:
                continue
            changes.append(
                FigureChange(
                    table=code or f"{game} total",
                    currency=currency,
                    kind=kind_label(kind),
                    figure=label,
                    before=_text(old_value, form),
                    after=_text(new_value, form),
                    difference=_difference(old_value, new_value, form),
                )
            )
    return changes

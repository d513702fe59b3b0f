"""python manage.py report daily [--date YYYY-MM-DD] [--timeout SECONDS] [--no-wait] [--reason TEXT]

Starts the daily job for a closed gaming day (by default the last one), as beat, the portal and
the API do, and waits for its outcome: without a broker the job runs right here; with one, a
worker runs it and this command polls the run. It prints the outcome, the seconds and the PDFs.

Exit codes: 0 succeeded (or started, with --no-wait), 1 the run failed, 2 refused (the field is
named: a day not closed yet, a day already running, a signed day without --reason), 3 no outcome
within --timeout.
"""

import time
from datetime import date

from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError

from core.gaming_day import last_closed_gaming_day
from reports.models import ReportRun, RunStatus, RunTrigger
from reports.pdf import document_file
from reports.services import report_run_start

POLL_SECONDS = 0.5
EXIT_FAILED, EXIT_REFUSED, EXIT_TIMED_OUT = 1, 2, 3


def iso_date(value: str) -> date:
    try:
        return date.fromisoformat(value)
    except ValueError:
        raise CommandError(
            f"date: {value!r} is not a date written YYYY-MM-DD.", returncode=EXIT_REFUSED
        ) from None


class Command(BaseCommand):
    help = "Run the daily RTP and exposure reports for a closed gaming day and print the outcome."

    def add_arguments(self, parser):
        parser.add_argument("report", choices=["daily"], help="The job to run: daily (both daily reports).")
        parser.add_argument(
            "--date",
            dest="day",
            help="The gaming day, YYYY-MM-DD (default: the last closed gaming day).",
        )
        parser.add_argument(
            "--timeout",
            type=float,
            default=600.0,
            help="Seconds to wait for a worker to finish (default 600).",
        )
        parser.add_argument("--no-wait", action="store_true", help="Start the run and return at once.")
        parser.add_argument(
            "--reason", default="", help="Why the day is run again: required once a run of it is signed."
        )

    def handle(
        self, *args, report: str, day: str | None, timeout: float, no_wait: bool, reason: str, **options
    ):
        gaming_day = iso_date(day) if day else last_closed_gaming_day()
        try:
            run = report_run_start(day=gaming_day, trigger=RunTrigger.COMMAND, reason=reason)
        except ValidationError as error:
            message = "; ".join(
                f"{field}: {' '.join(messages)}" for field, messages in error.message_dict.items()
            )
            raise CommandError(f"Refused. {message}", returncode=EXIT_REFUSED) from None
        where = f"{run.time_zone}, cut-off {run.cutoff:%H:%M}"
        self.stdout.write(f"Run {run.pk} for the gaming day {run.day} ({where}): started.")
        if no_wait:
            return
        run = self.wait(run, timeout)
        if run.status == RunStatus.RUNNING:
            raise CommandError(
                f"Run {run.pk} still running after {timeout:g} s; see its outcome in the report archive.",
                returncode=EXIT_TIMED_OUT,
            )
        if run.status == RunStatus.FAILED:
            raise CommandError(
                f"Run {run.pk} failed after {run.seconds:.1f} s: {run.error}", returncode=EXIT_FAILED
            )
        self.stdout.write(
            self.style.SUCCESS(f"Run {run.pk} succeeded in {run.seconds:.1f} s ({run.tables} tables).")
        )
        for document in run.documents.order_by("kind"):
            self.stdout.write(
                f"{document.get_kind_display()}: {document_file(document)} ({document.pages} pages)"
            )

    def wait(self, run: ReportRun, timeout: float) -> ReportRun:
        """Without a broker the job has already run, inside report_run_start; with one, a worker
        records the outcome on the run."""
        deadline = time.monotonic() + timeout
        run.refresh_from_db()
        while run.status == RunStatus.RUNNING and time.monotonic() < deadline:
            time.sleep(POLL_SECONDS)
            run.refresh_from_db()
        return run

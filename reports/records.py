"""What makes a run of the daily job a record (reads only; the writes are in services.py).

- A gaming day's *current* run is its latest succeeded run that no newer succeeded run superseded:
  what the pages and the API show by default. Any other run stays readable (`?run=`).
- A run's figures have a checksum (`figures_digest`) kept on the run when it ends, as each PDF has
  its own: compare them to know that nothing was changed since.
- A run is *stale* once a correction of one of its day's rounds (rounds.RoundCorrection: an approved
  re-settlement, a cancellation's refunds, an approved void) was recorded after the run started: its
  figures may not count it (`corrections_after`).
"""

import hashlib
import json
from dataclasses import dataclass
from datetime import date

from django.db.models import Count, Q

from rounds.choices import CorrectionKind
from rounds.models import RoundCorrection

from .models import DailyExposure, DailyFigures, DailyTableSummary, ReportRun, RunStatus

# The fields a run's figures checksum covers, fixed here so that a column added later never changes
# the checksum of a run made before it.
FIGURE_FIELDS = {
    DailyFigures: (
        *("day", "table_id", "table_code", "game", "currency", "kind", "rounds", "bets", "players"),
        *("wagered", "returned", "gross_gaming_revenue", "observed_rtp", "theoretical_rtp"),
        *("ci95_low", "ci95_high", "ci99_low", "ci99_high", "outside_99", "interval_method", "moments"),
    ),
    DailyTableSummary: (
        *("day", "table_id", "game", "currency", "rounds", "cancelled_rounds", "voided_rounds"),
        *("resettled_rounds", "resettlements", "refunds", "refunded", "voided_reversed"),
        *("voided_stakes_returned", "findings", "limit_findings", "money_findings", "finding_codes"),
        *("configuration_versions", "kinds_outside_99", "flagged"),
    ),
    DailyExposure: (
        *("day", "table_id", "game", "currency", "kind", "bets", "stakes", "returned", "observed_rtp"),
        *("theoretical_rtp", "liability_total", "peak_round_id", "peak_liability", "top_players"),
        *("pattern_hits", "after_max_round_bets", "after_max_round_stakes"),
    ),
}
# The rows of the day's current run, as a filter on a model with a `run`.
CURRENT_ROWS = Q(run__status=RunStatus.SUCCEEDED, run__superseded_by__isnull=True)
# "1 re-settled", "2 cancelled", ... in the order a reader expects them.
CORRECTION_WORDS = {
    CorrectionKind.RESETTLED: "re-settled",
    CorrectionKind.CANCELLED: "cancelled (refunded)",
    CorrectionKind.VOIDED: "voided",
}


def current_runs():
    return ReportRun.objects.filter(status=RunStatus.SUCCEEDED, superseded_by__isnull=True)


def current_run(day: date) -> ReportRun | None:
    return (
        current_runs()
        .filter(day=day)
        .select_related("started_by", "sign_off__signed_by")
        .order_by("-pk")
        .first()
    )


def latest_current_run() -> ReportRun | None:
    return current_runs().select_related("started_by", "sign_off__signed_by").order_by("-day", "-pk").first()


def figures_digest(run: ReportRun) -> str:
    """SHA-256 of every figure the run stored (FIGURE_FIELDS of each row, as JSON, rows in order)."""
    digest = hashlib.sha256()
    for model, fields in FIGURE_FIELDS.items():
        rows = [
            json.dumps(row, default=str, sort_keys=True, separators=(",", ":"))
            for row in model.objects.filter(run=run).values(*fields)
        ]
        digest.update(model.__name__.encode())
        for row in sorted(rows):
            digest.update(row.encode())
    return digest.hexdigest()


@dataclass(frozen=True)
class Staleness:
    """The corrections of the run's day recorded after the run started, by kind."""

    counts: dict[str, int]

    @property
    def total(self) -> int:
        return sum(self.counts.values())

    @property
    def text(self) -> str:
        """ "1 re-settled, 2 voided"; "" when there is none."""
        return ", ".join(
            f"{self.counts[kind]} {word}" for kind, word in CORRECTION_WORDS.items() if self.counts.get(kind)
        )


def corrections_after(run: ReportRun) -> Staleness:
    counts = (
        RoundCorrection.objects.filter(round__gaming_day=run.day, recorded_at__gte=run.started_at)
        .values("kind")
        .annotate(count=Count("round"))
        .order_by("kind")
    )
    return Staleness({row["kind"]: row["count"] for row in counts})


def ordinal(number: int) -> str:
    """1st, 2nd, 3rd, 4th, 11th, 21st."""
    suffix = "th" if 10 <= number % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(number % 10, "th")
    return f"{number}{suffix}"


@dataclass(frozen=True)
class RunStanding:
    """What a page or PDF says of the run whose figures it shows."""

    run: ReportRun
    staleness: Staleness

    @property
    def nth(self) -> str:
        return f"the day's {ordinal(self.run.number)} run"

    @property
    def started_by(self) -> str:
        return self.run.started_by.get_username() if self.run.started_by_id else ""


def run_standing(run: ReportRun) -> RunStanding:
    return RunStanding(run=run, staleness=corrections_after(run))


def run_documents(run: ReportRun) -> list:
    """The run's PDFs, one per report, as the pages link them: the signed edition where there is one."""
    from .models import ReportDocument

    documents = {}
    for document in ReportDocument.objects.filter(run=run).order_by("kind", "signed"):
        documents[document.kind] = document  # the signed edition comes last, and stays
    return list(documents.values())

"""How far a run of the daily job has got: its tables done, and what it does after them.

The job's table tasks each end by saving their table's DailyTableSummary row (reports.daily,
in one transaction with the table's figures), so the run's summary rows are its tables done; the
finish task then writes the totals, the charts and the PDFs, and marks the run ended.
"""

from dataclasses import dataclass

from tables.models import Table

from .models import DailyTableSummary, ReportRun, RunStatus


@dataclass(frozen=True)
class TableProgress:
    code: str
    name: str
    done: bool


@dataclass(frozen=True)
class RunProgress:
    tables: list[TableProgress]
    done: int
    total: int
    stage: str

    @property
    def percent(self) -> int:
        return 100 if not self.total else round(100 * self.done / self.total)


def run_progress(run: ReportRun) -> RunProgress:
    done = set(DailyTableSummary.objects.filter(run=run).values_list("table__code", flat=True))
    tables = [
        TableProgress(code=code, name=name, done=code in done)
        for code, name in Table.objects.order_by("code").values_list("code", "name")
    ]
    total = run.tables or len(tables)
    if run.status == RunStatus.SUCCEEDED and run.figures_only:
        stage = "Succeeded: the figures are stored (a run of figures only: no charts, no PDFs)."
    elif run.status == RunStatus.SUCCEEDED:
        stage = "Succeeded: the figures, the charts and both PDFs are stored."
    elif run.status == RunStatus.FAILED:
        stage = f"Failed: {run.error}"
    elif not run.tables:
        stage = "Waiting for a worker to start the job."
    elif len(done) < total:
        stage = f"Working out each table's figures: {len(done)} of {total} tables done."
    else:
        stage = "Every table done: the totals, the charts and the PDFs are being made."
    return RunProgress(tables=tables, done=min(len(done), total), total=total, stage=stage)

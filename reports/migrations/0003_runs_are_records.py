"""Reports are records: each run keeps its own figures and PDFs (unique per run, no longer per day).

The rows stored so far stay with the run that wrote them. Their runs are numbered per day, and each
succeeded run is marked superseded by the next succeeded run of its day (at that run's end), so that a
day's current run is its latest. The summaries get their new columns as far as they can be told
honestly from what is stored: limit and money findings from their counts by code; the RTP flag from
the run's own figures (a bet kind outside its 99% interval), no longer from any finding; re-settled
rounds and refunds as they were recorded before the run started. Voids did not exist. Runs made
before this change have no checksum of their figures (their PDFs keep theirs).
"""

from collections import defaultdict

import django.db.models.deletion
from django.db import migrations, models


LIMIT_CODES = ("limit_breached", "seat_not_allowed")
MONEY_CODES = ("wrong_wagered", "wrong_returned", "cancelled_not_refunded")


def runs_as_records(apps, schema_editor):
    ReportRun = apps.get_model("reports", "ReportRun")
    DailyFigures = apps.get_model("reports", "DailyFigures")
    DailyTableSummary = apps.get_model("reports", "DailyTableSummary")
    Resettlement = apps.get_model("rounds", "Resettlement")
    Refund = apps.get_model("rounds", "Refund")
    by_day = defaultdict(list)
    for run in ReportRun.objects.order_by("day", "started_at", "pk"):
        by_day[run.day].append(run)
    for runs in by_day.values():
        succeeded = [run for run in runs if run.status == "succeeded"]
        for number, run in enumerate(runs, start=1):
            run.number = number
        for older, newer in zip(succeeded, succeeded[1:]):
            older.superseded_by = newer
            older.superseded_at = newer.finished_at or newer.started_at
        ReportRun.objects.bulk_update(runs, ["number", "superseded_by", "superseded_at"])
    outside = defaultdict(int)
    for run_id, table_id in DailyFigures.objects.filter(outside_99=True, table__isnull=False).values_list(
        "run_id", "table_id"
    ):
        outside[(run_id, table_id)] += 1
    summaries = list(DailyTableSummary.objects.select_related("run"))
    for summary in summaries:
        codes = summary.finding_codes or {}
        summary.limit_findings = sum(codes.get(code, 0) for code in LIMIT_CODES)
        summary.money_findings = sum(codes.get(code, 0) for code in MONEY_CODES)
        summary.kinds_outside_99 = outside[(summary.run_id, summary.table_id)]
        summary.flagged = summary.kinds_outside_99 > 0
        rounds = {"gaming_day": summary.day, "table_id": summary.table_id}
        before = summary.run.started_at
        summary.resettled_rounds = (
            Resettlement.objects.filter(
                status="approved", decided_at__lt=before, **{f"round__{k}": v for k, v in rounds.items()}
            )
            .values("round_id")
            .distinct()
            .count()
        )
        refunds = Refund.objects.filter(
            created_at__lt=before, **{f"bet__round__{k}": v for k, v in rounds.items()}
        )
        summary.refunds = refunds.count()
        summary.refunded = sum((refund.amount for refund in refunds), 0)
    DailyTableSummary.objects.bulk_update(
        summaries,
        [
            "limit_findings",
            "money_findings",
            "kinds_outside_99",
            "flagged",
            "resettled_rounds",
            "refunds",
            "refunded",
        ],
        batch_size=500,
    )


class Migration(migrations.Migration):
    dependencies = [
        ("reports", "0002_daily_figures_moments"),
        ("rounds", "0011_corrections_recorded"),
    ]

    operations = [
        migrations.RemoveConstraint(
            model_name="dailyexposure",
            name="daily_exposure_once",
        ),
        migrations.RemoveConstraint(
            model_name="dailyfigures",
            name="daily_figures_once",
        ),
        migrations.RemoveConstraint(
            model_name="dailytablesummary",
            name="daily_table_summary_once",
        ),
        migrations.RemoveConstraint(
            model_name="reportdocument",
            name="report_document_once",
        ),
        migrations.AddField(
            model_name="dailyfigures",
            name="interval_method",
            field=models.CharField(
                choices=[
                    ("normal", "Normal approximation (delta method on per-round results), never below 0"),
                    ("log", "Log-transformed (delta method on the log of the RTP): skewed, never below 0"),
                ],
                default="normal",
                max_length=8,
            ),
        ),
        migrations.AddField(
            model_name="dailytablesummary",
            name="kinds_outside_99",
            field=models.PositiveIntegerField(default=0),
        ),
        migrations.AddField(
            model_name="dailytablesummary",
            name="limit_findings",
            field=models.PositiveIntegerField(default=0, help_text="limit_breached, seat_not_allowed."),
        ),
        migrations.AddField(
            model_name="dailytablesummary",
            name="money_findings",
            field=models.PositiveIntegerField(
                default=0, help_text="Amounts differing from the engine's: wrong_wagered, wrong_returned, ..."
            ),
        ),
        migrations.AddField(
            model_name="dailytablesummary",
            name="refunded",
            field=models.DecimalField(
                decimal_places=2,
                default=0,
                help_text="What the refunds returned.",
                max_digits=14,
                verbose_name="",
            ),
        ),
        migrations.AddField(
            model_name="dailytablesummary",
            name="refunds",
            field=models.PositiveIntegerField(default=0, help_text="Bets refunded."),
        ),
        migrations.AddField(
            model_name="dailytablesummary",
            name="resettled_rounds",
            field=models.PositiveIntegerField(default=0, help_text="With an approved re-settlement."),
        ),
        migrations.AddField(
            model_name="dailytablesummary",
            name="voided_reversed",
            field=models.DecimalField(
                decimal_places=2,
                default=0,
                help_text="Payouts taken back by approved voids.",
                max_digits=14,
                verbose_name="",
            ),
        ),
        migrations.AddField(
            model_name="dailytablesummary",
            name="voided_rounds",
            field=models.PositiveIntegerField(default=0),
        ),
        migrations.AddField(
            model_name="dailytablesummary",
            name="voided_stakes_returned",
            field=models.DecimalField(
                decimal_places=2,
                default=0,
                help_text="Stakes given back by approved voids.",
                max_digits=14,
                verbose_name="",
            ),
        ),
        migrations.AddField(
            model_name="reportrun",
            name="figures_sha256",
            field=models.CharField(
                blank=True,
                help_text="SHA-256 of the run's stored figures (`records.figures_digest`).",
                max_length=64,
            ),
        ),
        migrations.AddField(
            model_name="reportrun",
            name="number",
            field=models.PositiveIntegerField(
                default=1, help_text="The day's first, second, ... run (numbered by `report_run_start`)."
            ),
        ),
        migrations.AddField(
            model_name="reportrun",
            name="superseded_at",
            field=models.DateTimeField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name="reportrun",
            name="superseded_by",
            field=models.ForeignKey(
                blank=True,
                help_text="The newer succeeded run of the same day that replaced this one as the day's report.",
                null=True,
                on_delete=django.db.models.deletion.PROTECT,
                related_name="supersedes",
                to="reports.reportrun",
            ),
        ),
        migrations.AlterField(
            model_name="dailytablesummary",
            name="cancelled_rounds",
            field=models.PositiveIntegerField(
                help_text="Cancelled by the game server or in an incident (rounds.outcome)."
            ),
        ),
        migrations.AlterField(
            model_name="dailytablesummary",
            name="findings",
            field=models.PositiveIntegerField(help_text="Every finding."),
        ),
        migrations.AlterField(
            model_name="dailytablesummary",
            name="flagged",
            field=models.BooleanField(
                default=False, help_text="RTP: a bet kind's theoretical RTP lies outside its 99% interval."
            ),
        ),
        migrations.AlterField(
            model_name="dailytablesummary",
            name="resettlements",
            field=models.PositiveIntegerField(help_text="Re-settlements proposed, whatever their status."),
        ),
        migrations.RunPython(runs_as_records, migrations.RunPython.noop),
        migrations.AddIndex(
            model_name="dailyfigures",
            index=models.Index(fields=["day", "kind"], name="reports_dai_day_6cecc6_idx"),
        ),
        migrations.AddConstraint(
            model_name="dailyexposure",
            constraint=models.UniqueConstraint(
                fields=("run", "day", "table", "kind"), name="daily_exposure_once_per_run"
            ),
        ),
        migrations.AddConstraint(
            model_name="dailyfigures",
            constraint=models.UniqueConstraint(
                fields=("run", "day", "game", "currency", "table_code", "kind"),
                name="daily_figures_once_per_run",
            ),
        ),
        migrations.AddConstraint(
            model_name="dailytablesummary",
            constraint=models.UniqueConstraint(
                fields=("run", "day", "table"), name="daily_table_summary_once_per_run"
            ),
        ),
        migrations.AddConstraint(
            model_name="reportdocument",
            constraint=models.UniqueConstraint(fields=("run", "kind"), name="report_document_once_per_run"),
        ),
    ]

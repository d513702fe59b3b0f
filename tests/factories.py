"""Small builders for tests that need users, tables and players (through the services)."""

import hashlib
from datetime import date
from decimal import Decimal

from django.contrib.auth import get_user_model
from django.utils import timezone

from accounts.roles import ROLE_SLUGS
from accounts.services import user_create
from limits.services import player_create, table_limit_set
from tables.services import table_create
from tests.second_factor_support import enrolled_if_required

GAME_OF_CODE = {"DLX1": "deluxe", "BND1": "boundless", "CLS1": "classic", "MPB1": "multiplayer"}


def user(role: str = "supervisor", username: str | None = None):
    username = username or f"{role}-user"
    existing = get_user_model().objects.filter(username=username).first()
    made = existing or user_create(username=username, password="pw-" + username, role=ROLE_SLUGS[role])
    return enrolled_if_required(made)  # supervisors and compliance have a second factor


def table(code: str = "DLX1", *, game: str | None = None, currency: str = "EUR", limits=None):
    created = table_create(
        code=code,
        name=f"Table {code}",
        game=game or GAME_OF_CODE.get(code, "deluxe"),
        currency=currency,
        studio="Studio A",
        dealer="Ana",
        created_by=user("supervisor"),
    )
    for kind, (low, high) in (limits or {"main": ("5.00", "500.00")}).items():
        table_limit_set(
            table=created,
            kind=kind,
            min_stake=Decimal(low),
            max_stake=Decimal(high),
            changed_by=user("supervisor"),
            reason="opening limits",
        )
    return created


def configuration_approved(
    table, changes, *, reason="a configuration change", valid_from=None, proposed_by=None
):
    """A configuration change as it comes into force: proposed by one supervisor, its odds worked out,
    approved by a second one ("second-supervisor"); past the RTP guardrail, explained by its proposer
    and approved by a compliance officer ("compliance") first. The approved version."""
    from tables.guardrail import approvals_of
    from tables.odds import configuration_odds_compute
    from tables.services import (
        configuration_approve,
        configuration_compliance_approve,
        configuration_explain_fall,
        configuration_propose,
    )

    proposer = proposed_by or user("supervisor")
    proposal = configuration_propose(
        table=table, changes=changes, proposed_by=proposer, reason=reason, valid_from=valid_from
    )
    configuration_odds_compute(configuration=proposal)
    if approvals_of(proposal).needs_compliance:
        configuration_explain_fall(configuration=proposal, proposer=proposer, reason=f"{reason}: accepted")
        configuration_compliance_approve(configuration=proposal, decided_by=user("compliance"))
    return configuration_approve(configuration=proposal, decided_by=user("supervisor", "second-supervisor"))


def player(external_id: str = "P1001", *, currency: str = "EUR", account_type: str = "real"):
    return player_create(
        external_id=external_id, currency=currency, account_type=account_type, display_name="Pat"
    )


def report_rows(dlx, reports_dir, day=date(2026, 11, 28)) -> dict:
    """One stored row of each report model for `day`, and a PDF file whose checksum matches; their ids."""
    from reports.models import (
        DailyExposure,
        DailyFigures,
        DailyTableSummary,
        ReportChart,
        ReportDocument,
        ReportRun,
    )

    run = ReportRun.objects.create(
        day=day, trigger="command", time_zone="Europe/Malta", cutoff="06:00", status="succeeded"
    )
    counts = {"rounds": 1, "bets": 1, "players": 1}
    money = {"wagered": 10, "returned": 9, "gross_gaming_revenue": 1}
    figures = DailyFigures.objects.create(
        day=day,
        table=dlx,
        table_code="DLX1",
        game="deluxe",
        currency="EUR",
        kind="main",
        run=run,
        **counts,
        **money,
    )
    summary = DailyTableSummary.objects.create(
        day=day,
        table=dlx,
        game="deluxe",
        currency="EUR",
        rounds=1,
        cancelled_rounds=0,
        resettlements=0,
        findings=0,
        configuration_versions="1",
        run=run,
    )
    exposure = DailyExposure.objects.create(
        day=day,
        table=dlx,
        game="deluxe",
        currency="EUR",
        kind="pair",
        bets=1,
        stakes=1,
        returned=0,
        liability_total=30,
        peak_round_id="R1",
        run=run,
    )
    content = b"%PDF-1.7 matrix"
    path = f"{day.isoformat()}/daily_rtp-{day.isoformat()}.pdf"
    (reports_dir / path).parent.mkdir(parents=True, exist_ok=True)
    (reports_dir / path).write_bytes(content)
    document = ReportDocument.objects.create(
        day=day,
        kind="daily_rtp",
        path=path,
        sha256=hashlib.sha256(content).hexdigest(),
        size=len(content),
        generated_at=timezone.now(),
        run=run,
    )
    chart = ReportChart.objects.create(
        run=run,
        subject="trend",
        table=dlx,
        kind="main",
        window_days=30,
        days=2,
        position=0,
        title=f"DLX1 Main: RTP, 30 gaming days to {day.isoformat()}",
        description="Observed RTP of Main at DLX1 on 2 of 30 gaming days.",
        svg='<svg xmlns="http://www.w3.org/2000/svg" width="360pt" height="187.2pt"><text>DLX1</text></svg>',
        width=480,
        height=250,
    )
    return {
        "reportrun": run.pk,
        "dailyfigures": figures.pk,
        "dailytablesummary": summary.pk,
        "dailyexposure": exposure.pk,
        "reportdocument": document.pk,
        "reportchart": chart.pk,
    }

"""The home page's work queues: what waits for the signed-in user, counted, each count a link to the
filtered list that holds it.

Each queue is shown to a user holding the permission that acts on it (a user may hold several
roles, and sees the queues of each):

- supervisor: open incidents (`rounds.change_incident`), paused tables
  (`tables.add_tablestatuschange`), re-settlements (`rounds.decide_resettlement`) and voids
  (`rounds.decide_void`) awaiting a decision, configuration proposals
  (`tables.decide_tableconfiguration`);
- compliance: rounds with findings to review (all but limit breaches) not yet signed off, by table and
  gaming day (`rounds.review_round`); configuration proposals past the RTP guardrail awaiting its
  approval (`tables.approve_rtp_fall`);
- whoever may run the daily job (`reports.run_report`): today's runs and the stale reports;
- compliance: the reports to sign, each day's current run with its PDFs not signed off yet
  (`reports.sign_reportrun`);
- customer service: players with limit breaches in the last 7 days (`limits.add_personallimit`);
- the unresolved alerts that reach the user's role, their table not silenced (supervisors:
  `alerts.add_silence`; compliance: `alerts.approve_threshold`), and for compliance the threshold
  changes awaiting approval;
- compliance: the published RTPs above the game's (`tables.add_publishedrtp`): figures of record of
  versions in force or approved to start later that promise more than the computed maximum;
- administrators: other administrators' account changes awaiting a second one
  (`staff.decide_accountchange`); compliance: break-glass sign-ins not yet reviewed
  (`accounts.review_signinevent`). These two are portal.staff_queues', built for the user.

Each queue is one query, whatever it holds (the guardrail's reads each open proposal's odds: one a
table at most). A queue lists its first `SHOWN` rows; its count is of
all of them.
"""

from datetime import timedelta

from django.db.models import Count, Exists, Max, OuterRef, Window
from django.utils import timezone

from accounts.roles import COMPLIANCE, SUPERVISOR
from alerts.choices import UNRESOLVED, Severity, ThresholdStatus
from alerts.definitions import DEFINITIONS
from alerts.models import Alert, Threshold
from alerts.services import reaching
from core.gaming_day import gaming_day, gaming_day_of
from reports.models import ReportRun
from reports.records import current_runs, ordinal
from rounds.choices import REVIEWED_CLASSES, IncidentStatus, ProposalStatus, codes_of_classes
from rounds.models import Finding, Incident, Resettlement, Round, RoundCorrection, Void
from tables.choices import ConfigurationStatus, TableStatus
from tables.guardrail import approvals_of
from tables.models import Table, TableConfiguration
from tables.published import ENTER, figures_above_the_game

from .queue_items import SHOWN, Item, Queue, url
from .staff_queues import USER_QUEUES

BREACH_DAYS = 7


def open_incidents() -> Queue:
    rows = list(
        Incident.objects.filter(status=IncidentStatus.OPEN)
        .values("pk", "table__code", "kind", "opened_at")
        .order_by("opened_at")
    )
    return Queue(
        key="incidents",
        title="Open incidents",
        count=len(rows),
        url=url("rounds:incident_list", status=IncidentStatus.OPEN),
        noun="open",
        items=[
            Item(
                row["table__code"],
                url("rounds:incident_detail", row["pk"]),
                note=row["kind"].replace("_", " "),
            )
            for row in rows[:SHOWN]
        ],
        rows=len(rows),
    )


def paused_tables() -> Queue:
    codes = list(
        Table.objects.filter(status=TableStatus.PAUSED).order_by("code").values_list("code", flat=True)
    )
    return Queue(
        key="paused",
        title="Paused tables",
        count=len(codes),
        url=url("tables:table_list", status=TableStatus.PAUSED),
        noun="paused",
        items=[Item(code, url("tables:table_detail", code)) for code in codes[:SHOWN]],
        rows=len(codes),
    )


def proposals(model, key: str, title: str, list_name: str, detail_name: str) -> Queue:
    """Re-settlements or voids awaiting a decision, oldest first, each with its proposer."""
    rows = list(
        # The round as the registry keeps it: a proposal whose round's month is archived stays listed.
        model.objects.with_round_key()
        .filter(status=ProposalStatus.PROPOSED)
        .annotate(total=Window(Count("pk")))
        .values("pk", "total", "game_round_id", "round_table_code", "proposed_by__username")
        .order_by("proposed_at", "pk")[:SHOWN]
    )
    count = rows[0]["total"] if rows else 0
    return Queue(
        key=key,
        title=title,
        count=count,
        url=url(list_name, status=ProposalStatus.PROPOSED),
        noun="awaiting approval",
        items=[
            Item(
                f"{row['round_table_code']} · {row['game_round_id']}",
                url(detail_name, row["pk"]),
                note=f"proposed by {row['proposed_by__username']}",
            )
            for row in rows
        ],
        rows=count,
    )


def resettlements() -> Queue:
    return proposals(
        Resettlement,
        "resettlements",
        "Re-settlements",
        "rounds:resettlement_list",
        "rounds:resettlement_detail",
    )


def voids() -> Queue:
    return proposals(Void, "voids", "Voids", "rounds:void_list", "rounds:void_detail")


def configuration_proposals() -> Queue:
    """At most one a table (a constraint); each links to its table's proposal page. There is no list of
    proposals to link the count to."""
    rows = list(
        TableConfiguration.objects.filter(status=ConfigurationStatus.PROPOSED)
        .values("table__code", "version", "created_by__username")
        .order_by("created_at", "pk")
    )
    return Queue(
        key="configurations",
        title="Configuration proposals",
        count=len(rows),
        url=None,
        noun="awaiting approval",
        items=[
            Item(
                f"{row['table__code']} · version {row['version']}",
                url("tables:configuration_proposal", row["table__code"]),
                note=f"proposed by {row['created_by__username']}",
            )
            for row in rows[:SHOWN]
        ],
        rows=len(rows),
    )


def configurations_past_guardrail() -> Queue:
    """Proposals past the RTP guardrail that await a compliance officer's approval (tables.guardrail),
    oldest first: a query for the proposals, then their odds (at most one proposal a table)."""
    rows = [
        (configuration, approvals)
        for configuration in TableConfiguration.objects.filter(
            status=ConfigurationStatus.PROPOSED, compliance_approved_by=None
        )
        .select_related("table", "created_by")
        .order_by("created_at", "pk")
        if "compliance" in (approvals := approvals_of(configuration)).still_needed
    ]
    return Queue(
        key="guardrail",
        title="Past the RTP guardrail",
        count=len(rows),
        url=None,
        noun="awaiting compliance",
        items=[
            Item(
                f"{configuration.table.code} · version {configuration.version}",
                url("tables:configuration_proposal", configuration.table.code),
                note=", ".join(f"{line.label} {line.after} %" for line in approvals.crossings)
                + ("" if configuration.rtp_fall_reason else "; reason not written yet"),
                when=configuration.created_at,
            )
            for configuration, approvals in rows[:SHOWN]
        ],
        rows=len(rows),
    )


def rounds_to_review() -> Queue:
    """Rounds with a finding compliance reviews (every class but limit breaches: those go to customer
    service's queue, by player) not signed off, by table and gaming day, latest day first: the round
    list's own filters (rounds.filtersets.RoundFilterSet: finding_class, reviewed, table, day)."""
    pending = {"finding_class": [value.value for value in REVIEWED_CLASSES], "reviewed": "false"}
    reviewed_finding = Finding.objects.filter(
        round=OuterRef("pk"), gaming_day=OuterRef("gaming_day"), code__in=codes_of_classes(REVIEWED_CLASSES)
    )
    rows = list(
        Round.objects.filter(finding_count__gt=0, reviewed_at__isnull=True)
        .filter(Exists(reviewed_finding))
        .values("table__code", "gaming_day")
        .annotate(count=Count("pk"))
        .order_by("-gaming_day", "table__code")
    )
    return Queue(
        key="review",
        title="Rounds to review",
        count=sum(row["count"] for row in rows),
        url=url("rounds:round_list", **pending),
        noun="with findings to review, not signed off",
        items=[
            Item(
                f"{row['table__code']} · {row['gaming_day']:%Y-%m-%d}",
                url(
                    "rounds:round_list",
                    table=row["table__code"],
                    day=row["gaming_day"].isoformat(),
                    **pending,
                ),
                count=row["count"],
            )
            for row in rows[:SHOWN]
        ],
        rows=len(rows),
    )


def todays_runs() -> Queue:
    """Runs of the daily job started since the current gaming day began, newest first."""
    since = gaming_day(gaming_day_of(timezone.now())).starts_at
    rows = list(
        ReportRun.objects.filter(started_at__gte=since)
        .values("day", "number", "status")
        .order_by("-started_at", "-pk")
    )
    return Queue(
        key="runs",
        title="Today's report runs",
        count=len(rows),
        url=url("reports:run_list"),
        noun="started today",
        items=[
            Item(
                f"{row['day']:%Y-%m-%d} · run {row['number']}",
                url("reports:run_list", day=row["day"].isoformat()),
                note=row["status"],
            )
            for row in rows[:SHOWN]
        ],
        rows=len(rows),
    )


def stale_reports() -> Queue:
    """Days whose current run a later correction made stale (reports.records), latest day first."""
    corrected_since = RoundCorrection.objects.filter(
        round__gaming_day=OuterRef("day"), recorded_at__gte=OuterRef("started_at")
    )
    rows = list(
        current_runs()
        .filter(Exists(corrected_since))
        .annotate(total=Window(Count("pk")))
        .values("day", "number", "total")
        .order_by("-day", "-pk")[:SHOWN]
    )
    count = rows[0]["total"] if rows else 0
    return Queue(
        key="stale",
        title="Stale reports",
        count=count,
        url=None,
        noun="to run again",
        items=[
            Item(
                f"{row['day']:%Y-%m-%d}",
                url("reports:daily_report", day=row["day"].isoformat()),
                note=f"run {row['number']}, corrected since",
            )
            for row in rows
        ],
        rows=count,
    )


def reports_to_sign() -> Queue:
    """Days whose current run (with its reports: not figures only) nobody signed off, latest day first."""
    rows = list(
        current_runs()
        .filter(figures_only=False, sign_off__isnull=True)
        .annotate(total=Window(Count("pk")))
        .values("pk", "day", "number", "total", "finished_at")
        .order_by("-day", "-pk")[:SHOWN]
    )
    count = rows[0]["total"] if rows else 0
    return Queue(
        key="sign",
        title="Reports to sign",
        count=count,
        url=None,
        noun="not signed off",
        items=[
            Item(
                f"{row['day']:%Y-%m-%d}",
                url("reports:run_detail", row["pk"]),
                note=f"run {row['pk']}, the day's {ordinal(row['number'])}",
                when=row["finished_at"],
            )
            for row in rows
        ],
        rows=count,
    )


def limit_breaches() -> Queue:
    """Players whose bets breached their limit in the last `BREACH_DAYS` days, latest breach first."""
    since = timezone.now() - timedelta(days=BREACH_DAYS)
    rows = list(
        Finding.objects.filter(code="limit_breached", round__opened_at__gte=since, bet__isnull=False)
        .values("bet__player__external_id")
        .annotate(count=Count("pk"), last=Max("round__opened_at"))
        .order_by("-last", "bet__player__external_id")
    )
    return Queue(
        key="breaches",
        title="Limit breaches",
        count=len(rows),
        url=None,
        noun=f"players in the last {BREACH_DAYS} days",
        items=[
            Item(
                row["bet__player__external_id"],
                url("limits:player_detail", row["bet__player__external_id"]),
                count=row["count"],
                note="last breach",
                when=row["last"],
            )
            for row in rows[:SHOWN]
        ],
        rows=len(rows),
    )


def alerts_reaching(role: str) -> Queue:
    """Unresolved alerts that reach `role`, their table not silenced (alerts.services.reaching): worst
    first, then the latest."""
    rows = list(
        reaching(Alert.objects.filter(status__in=UNRESOLVED), role)
        .annotate(total=Window(Count("pk")))
        .values("pk", "total", "table__code", "monitor", "subject", "severity", "last_seen")
        .order_by("-severity", "-last_seen", "-pk")[:SHOWN]
    )
    return Queue(
        key=f"alerts-{role.lower()}",
        title="Alerts",
        count=rows[0]["total"] if rows else 0,
        url=url("alerts:alert_list", status=list(UNRESOLVED), reaches=role.lower()),
        noun="unresolved",
        items=[
            Item(
                f"{row['table__code']} · {DEFINITIONS[row['monitor']].label}"
                + (f" · {row['subject']}" if row["subject"] else ""),
                url("alerts:alert_detail", row["pk"]),
                note=Severity(row["severity"]).label.lower(),
                when=row["last_seen"],
            )
            for row in rows
        ],
        rows=rows[0]["total"] if rows else 0,
    )


def thresholds_to_approve() -> Queue:
    rows = list(
        Threshold.objects.filter(status=ThresholdStatus.PENDING)
        .values("pk", "monitor", "game", "table__code", "previous", "value", "proposed_at")
        .order_by("proposed_at", "pk")
    )
    return Queue(
        key="thresholds",
        title="Thresholds to approve",
        count=len(rows),
        url=url("alerts:threshold_list", status=ThresholdStatus.PENDING),
        noun="less sensitive, awaiting approval",
        items=[
            Item(
                f"{row['table__code'] or row['game']} · {DEFINITIONS[row['monitor']].label}",
                url("alerts:threshold_list", status=ThresholdStatus.PENDING),
                note=f"{row['previous']} → {row['value']}",
                when=row["proposed_at"],
            )
            for row in rows[:SHOWN]
        ],
        rows=len(rows),
    )


def published_above() -> Queue:
    """Published figures of record above the computed maximum RTP (tables.published), by table,
    version and kind; each links to its table's published figures at that version."""
    figures = figures_above_the_game()
    return Queue(
        key="published-above",
        title="Published RTP above the game's",
        count=len(figures),
        url=url("tables:published_rtp_list", above="yes"),
        noun="promising more than the game gives",
        items=[
            Item(
                f"{figure.table.code} · version {figure.configuration.version} · {figure.label}",
                url("tables:published_rtp", figure.table.code) + f"?version={figure.configuration.version}",
                note=f"published {figure.published.rtp} %, computed {figure.computed} %",
            )
            for figure in figures[:SHOWN]
        ],
        rows=len(figures),
    )


# Each queue and the permission that shows it, in the order the page shows them.
QUEUES = (
    ("alerts.add_silence", lambda: alerts_reaching(SUPERVISOR)),
    ("alerts.approve_threshold", lambda: alerts_reaching(COMPLIANCE)),
    ("alerts.approve_threshold", thresholds_to_approve),
    (ENTER, published_above),
    ("rounds.change_incident", open_incidents),
    ("tables.add_tablestatuschange", paused_tables),
    ("rounds.decide_resettlement", resettlements),
    ("rounds.decide_void", voids),
    ("tables.decide_tableconfiguration", configuration_proposals),
    ("tables.approve_rtp_fall", configurations_past_guardrail),
    ("rounds.review_round", rounds_to_review),
    ("reports.run_report", todays_runs),
    ("reports.run_report", stale_reports),
    ("reports.sign_reportrun", reports_to_sign),
    ("limits.add_personallimit", limit_breaches),
)


def queues_for(user) -> list[Queue]:
    """The queues `user` may act on, each counted with one query."""
    return [queue() for perm, queue in QUEUES if user.has_perm(perm)] + [
        queue(user) for perm, queue in USER_QUEUES if user.has_perm(perm)
    ]

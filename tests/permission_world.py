"""The permission walk's world (tests/test_permissions.py): one of each object the routes show, the
URL arguments that reach it, and a body for each write that stores something when allowed."""

from datetime import timedelta
from decimal import Decimal

from django.contrib.auth import get_user_model
from django.utils import timezone

from core.gaming_day import gaming_day_of, last_closed_gaming_day
from limits.models import PersonalLimit, TableLimit
from tables.models import ConfigurationOdds, TableConfiguration
from tables.services import table_set_status
from tests.factories import player, report_rows, table, user
from tests.permission_matrix import CS, GS, REPORT_MODELS, ROLES, WRITES, A, C, S


def body_of(name: str, method: str, world: dict) -> dict:
    """A request body the allowed roles' request stores (so that a refusal proves something): the
    same for the others. Empty (the test skips, naming it) where the world holds nothing the write
    could act on yet: a configuration proposal to decide, a server-cancelled round to cancel, a
    wrongly paid round without a proposal, a round free of one for the void page; and the password
    change."""
    note = {"reason": "permission walk"}
    published = {"kind": "main", "rtp": "99.46", "source_document": "Walk", "published_on": "2026-01-15"}
    bodies = {
        "tables:table_create": {"code": "NEW1", "name": "New", "game": "deluxe", "currency": "EUR"}
        | {"studio": "Studio B"},
        "tables:table_update": {"name": "Renamed", "studio": "Studio B", **note},
        "tables:table_status": {"status": "paused", **note},
        "tables:published_rtp": published,
        "limits:table_limit_set": {"kind": "main", "min_stake": "1.00", "max_stake": "100.00", **note},
        "limits:player_create": {"external_id": "P2002", "account_type": "real", "currency": "EUR"}
        | {"status": "active"},
        "limits:player_update": {"display_name": "Pat B", "account_type": "real", "status": "active", **note},
        "rounds:incident_open": {"table": "CLS1", "kind": "other", "note": "walk"},
        "rounds:incident_note_add": {"note-text": "walk"},
        "rounds:incident_resume": {"resume-note": "walk"},
        "rounds:resettlement_approve": {"comment": "walk"},
        "rounds:resettlement_reject": {"comment": "walk"},
        "rounds:void_approve": {"comment": "walk"},
        "rounds:void_reject": {"comment": "walk"},
        "rounds:round_review": {"comment": "walk"},
        "reports:run_start": {"day": world["closed_day"]},
        "reports:run_sign": {"comment": "walk"},
        "api:reportrun-sign": {"comment": "walk"},
        "accounts:preferences": {"time_zone": "Europe/London"},
        "api:table-list": {"code": "NEW1", "name": "New", "game": "deluxe", "currency": "EUR"}
        | {"studio": "Studio B"},
        "api:table-detail": {"name": "Renamed", **note},
        "api:table-status": {"status": "paused", **note},
        "api:publishedrtp-list": {"configuration": world["configuration"], **published},
        "api:tablelimit-list": {"table": "DLX1", "kind": "main", "min_stake": "1.00", "max_stake": "100.00"}
        | note,
        "api:player-list": {"external_id": "P2002", "currency": "EUR"},
        "api:player-detail": {"display_name": "Pat B", **note},
        "api:limit-check": {"player": "P1001", "table": "DLX1", "kind": "main", "amount": "5.00"},
        "api:resettlement-approve": {"comment": "walk"},
        "api:resettlement-reject": {"comment": "walk"},
        "api:void-approve": {"comment": "walk"},
        "api:void-reject": {"comment": "walk"},
        "api:incident-list": {"table": "CLS1", "kind": "other", "note": "walk"},
        "api:incident-notes": {"text": "walk"},
        "api:incident-resume": {"note": "walk"},
        "api:round-list": world["new_round"],
        "limits:personal_limit_set": {"kind": "", "table": "", "game": "", "seen_kind": "", "seen_table": ""}
        | {
            "seen_game": "",
            "seen_setting": world["personal_limit"],
            "max_stake": "5.00",
            "save": "1",
            **note,
        },
        "api:void-list": {"round": world["void_round"], "reason": "walk"},
        "api:player-personal-limits": {"max_stake": "5.00", "seen_setting": world["personal_limit"], **note},
        "api:reportrun-list": {"day": world["closed_day"]},
        "alerts:alert_acknowledge": {"acknowledge-note": "walk"},
        "alerts:alert_claim": {"claim-walk": "1"},  # the form has no field: the claim is the user's
        "alerts:alert_resolve": {
            "resolve-note": "walk",
            "resolve-link": "incident",
            "resolve-ref": world["incident"],
        },
        "alerts:alert_mark_reportable": {"reportable-what_happened": "walk"} | world["affected"],
        "alerts:silence_add": {"silence-table": "DLX1", "silence-minutes": "30", "silence-reason": "walk"},
        "alerts:silence_end": {"end": "walk"},
        "alerts:threshold_propose": {"propose-monitor": "big_win", "propose-game": "deluxe"}
        | {"propose-value": "20000", "propose-reason": "walk"},
        "alerts:threshold_approve": {"note": "walk"},
        "alerts:threshold_reject": {"note": "walk"},
        "notifications:subscription": {"by_email": "on", "tables": ["DLX1"], "severity": "2"},
        "notifications:subscription_test": {"test": "walk"},  # no field: the test is the user's
        "notifications:webhook_add": {"endpoint-name": "Walk", "endpoint-url": "https://walk.example/"}
        | {"endpoint-severity": "1"},
        "notifications:webhook_rotate": {"rotate": "walk"},
        "notifications:webhook_deactivate": {"deactivate": "walk"},
        "notifications:delivery_retry": {"retry": "walk"},
        "staff:user_create": {"username": "walk-new", "role": "Customer service", **note},
        "staff:user_role": {"role-role": "Supervisor", "role-reason": "walk"},
        **{
            f"staff:user_{step}": {f"{step}-reason": "walk"}
            for step in ("deactivate", "reactivate", "second_factor_reset")
        },
        "staff:token_issue": {"token_issue-name": "walk", "token_issue-reason": "walk"},
        "staff:token_rotate": {"token_rotate-grace_hours": "1", "token_rotate-reason": "walk"},
        "staff:token_revoke": {f"revoke_{world['token']}-reason": "walk"},
        "staff:change_approve": {"decision-note": "walk"},
        "staff:change_reject": {"decision-note": "walk"},
        "staff:change_withdraw": {"withdraw-note": "walk"},
        "staff:sign_in_review": {"note": "walk"},
    }
    return bodies.get(name, {}) if method in WRITES else {}


def build_world(reports_dir) -> dict:
    from limits.services import personal_limit_set
    from rounds.models import Resettlement, Round
    from rounds.services import incident_open, void_propose
    from tables.odds import configuration_odds_compute
    from tests.fixtures import round_document

    for role in ROLES:
        user(role)
    get_user_model().objects.create_superuser("walker", password="pw-walker")
    dlx = table("DLX1")
    table("CLS1")
    # Opened once, so its rule sheet is public (sheets.opening), and closed again as the walk expects.
    for status in ("open", "closed"):
        table_set_status(table=dlx, status=status, changed_by=user(S), reason="matrix")
    # Its odds, which the rule sheets need (scheduled on commit, which this transaction never does).
    if not ConfigurationOdds.objects.filter(configuration__table=dlx).exists():
        configuration_odds_compute(configuration=TableConfiguration.objects.get(table=dlx))
    who = player("P1001")
    personal_limit_set(player=who, max_stake=Decimal("10.00"), changed_by=user(CS), reason="asked")
    round_id = _a_round("deluxe-split-double-play-behind")
    incident = incident_open(table=dlx, kind="other", opened_by=user(S), note="matrix")
    # Proposed by another compliance user than the one walking: deciding it would be a change.
    resettlement = Resettlement.objects.create(
        round=Round.objects.get(round_id=round_id), reason="matrix", proposed_by=user(C, "proposer")
    )
    # Another round, voided by another supervisor than the one walking.
    void = void_propose(
        round_=Round.objects.get(round_id=_a_round("deluxe-facilitator-blackjack-insurance")),
        proposed_by=user(S, "void-proposer"),
        reason="matrix",
    )
    return {
        **staff_world(),
        **alert_world(dlx, incident),
        **notification_world(),
        "code": "DLX1",
        "external_id": "P1001",
        "configuration": TableConfiguration.objects.get(table=dlx).pk,
        "table_limit": TableLimit.objects.get(table=dlx, kind="main").pk,
        "personal_limit": PersonalLimit.objects.get().pk,
        "round_id": round_id,
        "new_round": round_document("deluxe-surrender-auto-play"),
        "incident": incident.pk,
        "resettlement": resettlement.pk,
        "void": void.pk,
        "void_round": _a_round("classic-perfect-pairs-21-plus-3-behind"),  # settled, uncorrected
        "closed_day": (last_closed_gaming_day() - timedelta(days=1)).isoformat(),
        **report_rows(dlx, reports_dir),
    }


def alert_world(dlx, incident) -> dict:
    """An alert to act on (raised by the monitors), a silence in force, a change of threshold awaiting
    compliance (proposed by another supervisor), and a reportable fault of another alert."""
    from alerts.faults import fault_mark
    from alerts.services import alert_raise, silence_add
    from alerts.thresholds import threshold_propose

    def raised(monitor: str):
        return alert_raise(
            table=dlx, monitor=monitor, measure=Decimal(15), threshold=Decimal(10), summary="matrix"
        )

    alert = raised("silent_table")
    marked = raised("big_win")
    fault = fault_mark(
        alert=marked,
        by=user(C, "fault-marker"),
        what_happened="matrix",
        affected_from=marked.first_seen - timedelta(hours=1),
        affected_to=marked.last_seen,
    )
    silence = silence_add(table=dlx, by=user(S), minutes=60, reason="matrix")
    threshold = threshold_propose(
        monitor="silent_table", value="30", reason="matrix", by=user(S, "threshold-proposer"), game="deluxe"
    )
    moment = "%Y-%m-%dT%H:%M"
    affected = {
        "reportable-affected_from": (alert.first_seen - timedelta(hours=1)).strftime(moment),
        "reportable-affected_to": (alert.first_seen + timedelta(minutes=1)).strftime(moment),
    }
    return {
        "alert": alert.pk,
        "fault": fault.pk,
        "silence": silence.pk,
        "threshold": threshold.pk,
        "affected": affected,
    }


def notification_world() -> dict:
    """The walkers' email addresses (a test is sent to one), a webhook endpoint of the walking
    supervisor (only its owner changes one: OWNER_ONLY) and a failed delivery to it to retry."""
    from notifications.models import Delivery, WebhookEndpoint

    for role in (S, C):
        get_user_model().objects.filter(pk=user(role).pk).update(email=f"{role}@walk.example")
    endpoint = WebhookEndpoint.objects.create(
        owner=user(S), name="Matrix", url="https://matrix.example/", secret="m" * 64
    )
    failed = Delivery.objects.create(
        channel="webhook", endpoint=endpoint, address=endpoint.url, status="failed", attempts=6
    )
    return {"endpoint": endpoint.pk, "delivery": failed.pk}


def _a_round(name: str) -> str:
    from rounds.ingest import round_ingest
    from tests.fixtures import round_document

    return round_ingest(document=round_document(name)).round.round_id


ALERT_ROUTES = {
    "alerts:alert_": "alert",
    "api:alert-detail": "alert",
    "alerts:fault_": "fault",
    "api:fault-detail": "fault",
    "alerts:silence_end": "silence",
    "alerts:threshold_approve": "threshold",
    "alerts:threshold_reject": "threshold",
}


def staff_world() -> dict:
    """Accounts for the walking administrator to change (none its own): a customer service user, an
    inactive one to reactivate, a supervisor's second factor to reset, a game server with a token; a
    change another administrator asked for (to decide), one the walking administrator asked for (to
    withdraw), and a break-glass sign-in for compliance to review."""
    from accounts.models import SignInEvent
    from accounts.services import token_create
    from staff.services import account_create, deactivate, role_give

    walking, other = user(A), user(A, "admin-proposer")
    target = user(CS, "walk-target")
    enrolled = user(S, "walk-enrolled")  # a second factor to reset
    inactive = user(CS, "walk-inactive")
    deactivate(actor=other, user=inactive, reason="walk")
    machine = user(GS, "walk-server")
    token, _ = token_create(user=machine, name="walk")
    to_decide = role_give(actor=other, user=user(CS, "walk-promoted"), role="Compliance", reason="walk")
    to_withdraw = account_create(
        actor=walking, username="walk-pending", email="", role="Supervisor", reason="walk"
    ).change
    glass = SignInEvent.objects.create(
        at=timezone.now(),
        day=gaming_day_of(timezone.now()),
        kind=SignInEvent.Kind.SUCCESS,
        username=other.username,
        user=other,
        address="192.0.2.7",
        method=SignInEvent.Method.PASSWORD,
        break_glass=True,
        provider_answered=False,
    )
    return {
        "break_glass": glass.pk,
        "staff_target": target.pk,
        "staff_enrolled": enrolled.pk,
        "staff_inactive": inactive.pk,
        "staff_server": machine.pk,
        "token": token.pk,
        "change_to_decide": to_decide.pk,
        "change_to_withdraw": to_withdraw.pk,
    }


STAFF_WITHOUT_ARGUMENTS = {
    *("staff:users", "staff:user_create", "staff:changes"),
    *("staff:sign_ins", "staff:sign_in_days", "staff:token_uses"),
}
STAFF_ARGUMENTS = {
    "staff:sign_in_review": "break_glass",
    "staff:user_reactivate": "staff_inactive",
    "staff:user_second_factor_reset": "staff_enrolled",
    "staff:token_issue": "staff_server",
    "staff:token_rotate": "staff_server",
    "staff:token_revoke": "token",
    "staff:change": "change_to_decide",
    "staff:change_approve": "change_to_decide",
    "staff:change_reject": "change_to_decide",
    "staff:change_withdraw": "change_to_withdraw",
}


def arguments(name: str, world: dict) -> dict:
    if name.startswith("staff:"):
        if name in STAFF_WITHOUT_ARGUMENTS:
            return {}
        return {"pk": world[STAFF_ARGUMENTS.get(name, "staff_target")]}
    if name.startswith("notifications:"):
        if name.startswith("notifications:webhook_") and name != "notifications:webhook_list":
            return {"pk": world["endpoint"]} if name != "notifications:webhook_add" else {}
        return {"pk": world["delivery"]} if name == "notifications:delivery_retry" else {}
    if name.startswith(("alerts:", "api:alert", "api:fault")):
        if name.endswith(("_list", "-list", "_add", "_propose")):
            return {}
        return {"pk": world[next(thing for route, thing in ALERT_ROUTES.items() if name.startswith(route))]}
    if name.startswith("api:") and name.endswith(("-detail", "-download", "-sign")):
        model = name[len("api:") :].rsplit("-", 1)[0]
        if model in REPORT_MODELS:
            return {"pk": world[model]}
    if name == "reports:document_download":
        return {"pk": world["reportdocument"]}
    if name in ("regulator:day_pack", "api:reports-day-pack"):
        from reports.models import ReportRun

        return {"day": ReportRun.objects.get(pk=world["reportrun"]).day}
    if name == "reports:chart":
        return {"pk": world["reportchart"]}
    if name in ("reports:run_detail", "reports:run_sign"):
        return {"pk": world["reportrun"]}
    for thing in ("incident", "resettlement", "void"):
        if name.startswith((f"rounds:{thing}_", f"api:{thing}-")) and not name.endswith(
            ("_list", "-list", "_open", "_propose")
        ):
            return {"pk": world[thing]}
    if name in ("rounds:round_detail", "rounds:round_document", "rounds:round_review"):
        return {"round_id": world["round_id"]}
    if name == "sheets:version_preview":
        return {"code": world["code"], "version": 1}
    if name in ("sheets:sheet_language", "sheets:sheet_language_pdf"):
        return {"code": world["code"], "lang": "fil"}
    if name in ("sheets:sheet", "sheets:sheet_pdf", "api:table-rules", "floor:table_live"):
        return {"code": world["code"]}
    if name in ("floor:table_live_figures", "api:floor-table"):
        return {"code": world["code"]}
    if name == "rounds:play_record":
        return {"external_id": world["external_id"]}
    if name == "tables:published_rtp":
        return {"code": world["code"]}
    if name in ("tables:table_list", "tables:table_create") or not any(
        key in name
        for key in ("detail", "update", "status", "configuration", "_set", "history", "personal-limits")
    ):
        return {}
    if name.endswith("-list"):
        return {}
    if name.startswith("api:tableconfiguration"):
        return {"pk": world["configuration"]}
    if name.startswith("api:tablelimit"):
        return {"pk": world["table_limit"]}
    if name == "api:round-detail":
        return {"round_id": world["round_id"]}
    if name.startswith("api:personallimit"):
        return {"pk": world["personal_limit"]}
    if "player" in name and not name.endswith(("_list", "_create")) or name == "limits:personal_limit_set":
        return {"external_id": world["external_id"]}
    return {"code": world["code"]}

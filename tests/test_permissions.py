"""Every page and endpoint, walked with every method it takes, as anonymous and as each role.

The matrix states, per URL name and per HTTP method the view takes, which roles may use it. For
every route × method × role the walk checks:
- anonymous: the login page (pages) or 401 (API), and nothing stored;
- a role the matrix leaves out: 403, and nothing stored (every row of the project's models, users
  and tokens as before the request);
- a role the matrix names: neither 403 nor 405 nor a server error; 200 for a read.

A write (POST, PUT, PATCH, DELETE) states what it needs: `Needs(permission, roles)`. The permission
is more than viewing, and the roles are exactly those holding it, so no view takes a write on a read
permission (issue 15: a compliance user rejected someone else's re-settlement by POSTing to its
detail page, which needed only view permission).

The methods a route takes are the view's own answer: the `Allow` header of its response to OPTIONS
(Django builds it from the view's `http_method_names` and handlers, DRF from the view's
`allowed_methods`, for a viewset the methods its router bound), asked as a superuser so that no
permission hides one. A URL or a method added without an entry fails
`test_every_url_is_in_the_matrix` or `test_every_method_a_route_takes_is_in_the_matrix`, which say
what to add (a route about a new kind of object also needs one in `build_world` and its URL
arguments in `arguments`). The world (one of each object) is built once for the module; each test
runs in a savepoint rolled back after it.
"""

from datetime import timedelta
from decimal import Decimal
from typing import NamedTuple

import pytest
from django.apps import apps
from django.contrib.auth import get_user_model
from django.db import transaction
from django.test import override_settings
from django.urls import URLPattern, URLResolver, get_resolver, reverse
from rest_framework.test import APIClient

from accounts.roles import ROLE_SLUGS
from core.gaming_day import last_closed_gaming_day
from limits.models import PersonalLimit, TableLimit
from tables.models import ConfigurationOdds, TableConfiguration
from tables.services import table_set_status
from tests.factories import player, report_rows, table, user
from tests.second_factor_support import ENROL
from tests.walk_support import (
    OWN_SECOND_FACTOR_PAGES,
    SIGN_IN_PAGES,
    RoleSessions,
    unenrolled_client,
)

S, C, CS, GS = "supervisor", "compliance", "customer_service", "game_server"
ROLES = (S, C, CS, GS)
EVERYONE = frozenset(ROLES)
READS = "GET HEAD OPTIONS"  # one key for the three: they show the same thing to the same roles
WRITES = ("POST", "PUT", "PATCH", "DELETE")
PAGE_METHODS = {"GET", "HEAD", "OPTIONS", "POST"}  # a browser's forms send GET or POST, nothing else
SIGNED_IN = ()  # no permission: what any signed-in user does to their own account
OWN_ACCOUNT = {"password_change", "accounts:preferences"}  # the pages of one's own account


class Needs(NamedTuple):
    """A write: the permission(s) it needs, and the roles that may use it (exactly their holders)."""

    permission: str | tuple[str, ...]
    roles: frozenset | set


# url name -> {methods: roles}; "GET HEAD OPTIONS" stands for the three.
PAGES = {
    "home": {"GET HEAD": EVERYONE},
    "search": {"GET HEAD": EVERYONE},  # each finds only what the user may view (tests/rounds/test_search.py)
    "password_change": {READS: EVERYONE, "POST": Needs(SIGNED_IN, EVERYONE)},
    "password_change_done": {READS: EVERYONE},
    "accounts:preferences": {READS: EVERYONE, "POST": Needs(SIGNED_IN, EVERYONE)},  # one's own time zone
    "tables:table_list": {READS: {S, C}},
    "tables:table_detail": {READS: {S, C}},
    "tables:table_create": {READS: {S}, "POST": Needs("tables.add_table", {S})},
    "tables:table_update": {READS: {S}, "POST": Needs("tables.change_table", {S})},
    "tables:table_status": {READS: {S}, "POST": Needs("tables.add_tablestatuschange", {S})},
    "tables:configuration_change": {READS: {S}, "POST": Needs("tables.add_tableconfiguration", {S})},
    "tables:configuration_proposal": {READS: {S, C}},
    "tables:configuration_approve": {READS: {S}, "POST": Needs("tables.decide_tableconfiguration", {S})},
    "tables:configuration_reject": {READS: {S}, "POST": Needs("tables.decide_tableconfiguration", {S})},
    "tables:configuration_compliance_approve": {READS: {C}, "POST": Needs("tables.approve_rtp_fall", {C})},
    "tables:configuration_compliance_reject": {READS: {C}, "POST": Needs("tables.approve_rtp_fall", {C})},
    "tables:configuration_fall_reason": {READS: {S}, "POST": Needs("tables.add_tableconfiguration", {S})},
    "tables:published_rtp": {READS: {S, C}, "POST": Needs("tables.add_publishedrtp", {C})},
    "tables:published_rtp_list": {READS: {S, C}},
    "limits:table_limit_list": {READS: {S, C}},
    "limits:table_limit_set": {
        READS: {S},
        "POST": Needs(("limits.add_tablelimit", "limits.change_tablelimit"), {S}),
    },
    "limits:player_list": {READS: {S, C, CS}},
    "limits:player_detail": {READS: {S, C, CS}},
    "limits:personal_limit_list": {READS: {S, C, CS}},
    "limits:player_create": {READS: {CS}, "POST": Needs("limits.add_player", {CS})},
    "limits:player_update": {READS: {CS}, "POST": Needs("limits.change_player", {CS})},
    "limits:personal_limit_set": {READS: {CS}, "POST": Needs("limits.add_personallimit", {CS})},
    "rounds:incident_list": {READS: {S, C}},
    "rounds:incident_detail": {READS: {S, C}},
    "rounds:incident_refunds": {READS: {S, C}},
    "rounds:incident_open": {READS: {S}, "POST": Needs("rounds.add_incident", {S})},
    "rounds:incident_note_add": {READS: {S}, "POST": Needs("rounds.add_incidentnote", {S})},
    "rounds:incident_resume": {READS: {S}, "POST": Needs("rounds.change_incident", {S})},
    "rounds:incident_cancel_round": {READS: {S}, "POST": Needs("rounds.change_incident", {S})},
    "rounds:resettlement_list": {READS: {S, C}},
    "rounds:resettlement_detail": {READS: {S, C}},
    "rounds:resettlement_propose": {READS: {C}, "POST": Needs("rounds.add_resettlement", {C})},
    "rounds:resettlement_approve": {READS: {S}, "POST": Needs("rounds.decide_resettlement", {S})},
    "rounds:resettlement_reject": {READS: {S}, "POST": Needs("rounds.decide_resettlement", {S})},
    "rounds:void_list": {READS: {S, C}},
    "rounds:void_detail": {READS: {S, C}},
    "rounds:void_propose": {READS: {S}, "POST": Needs("rounds.propose_void", {S})},
    "rounds:void_approve": {"POST": Needs("rounds.decide_void", {S})},
    "rounds:void_reject": {"POST": Needs("rounds.decide_void", {S})},
    # Customer service reaches rounds only through players' play records (rounds.access).
    "rounds:round_list": {READS: {S, C}},
    "rounds:round_detail": {READS: {S, C}},
    "rounds:round_document": {READS: {S, C}},
    "rounds:round_review": {"POST": Needs(("rounds.view_round", "rounds.review_round"), {C})},
    "rounds:play_record": {READS: {S, C, CS}},
    "reports:archive": {READS: {S, C}},
    "reports:daily_report": {READS: {S, C}},
    "reports:exposure_report": {READS: {S, C}},
    "reports:run_list": {READS: {S, C}},
    "reports:run_detail": {READS: {S, C}},
    "reports:run_sign": {"POST": Needs(("reports.view_reportrun", "reports.sign_reportrun"), {C})},
    "reports:run_start": {READS: {S, C}, "POST": Needs("reports.run_report", {S, C})},
    "reports:document_download": {READS: {S, C}},
    "reports:chart": {READS: {S, C}},
    "regulator:day_pack": {READS: {S, C}},
    "sheets:version_preview": {READS: {S, C}},
    "floor:floor": {READS: {S, C}},
    "floor:tiles": {READS: {S, C}},
    "floor:table_live": {READS: {S, C}},
    "floor:table_live_figures": {READS: {S, C}},  # a version's sheet as it would read: staff who see versions
    "alerts:alert_list": {READS: {S, C}},
    "alerts:alert_detail": {READS: {S, C}},
    "alerts:alert_acknowledge": {"POST": Needs("alerts.change_alert", {S, C})},
    "alerts:alert_claim": {"POST": Needs("alerts.change_alert", {S, C})},
    "alerts:alert_resolve": {"POST": Needs("alerts.change_alert", {S, C})},
    "alerts:alert_mark_reportable": {"POST": Needs("alerts.add_reportablefault", {C})},
    "alerts:silence_list": {READS: {S, C}},
    "alerts:silence_add": {"POST": Needs("alerts.add_silence", {S})},
    "alerts:silence_end": {"POST": Needs("alerts.change_silence", {S})},
    "alerts:threshold_list": {READS: {S, C}},
    "alerts:threshold_propose": {"POST": Needs("alerts.add_threshold", {S})},
    "alerts:threshold_approve": {"POST": Needs("alerts.approve_threshold", {C})},
    "alerts:threshold_reject": {"POST": Needs("alerts.approve_threshold", {C})},
    "alerts:fault_list": {READS: {S, C}},
    "alerts:fault_detail": {READS: {S, C}},
    "alerts:fault_pdf": {READS: {S, C}},
    # One's own subscription and its test; the webhooks and deliveries of everyone (issue 50).
    "notifications:subscription": {READS: {S, C}, "POST": Needs("notifications.change_subscription", {S, C})},
    "notifications:subscription_test": {"POST": Needs("notifications.change_subscription", {S, C})},
    "notifications:webhook_list": {READS: {S, C}},
    "notifications:webhook_add": {"POST": Needs("notifications.add_webhookendpoint", {S, C})},
    "notifications:webhook_detail": {READS: {S, C}},
    "notifications:webhook_rotate": {"POST": Needs("notifications.change_webhookendpoint", {S, C})},
    "notifications:webhook_deactivate": {"POST": Needs("notifications.change_webhookendpoint", {S, C})},
    "notifications:delivery_list": {READS: {S, C}},
    "notifications:delivery_retry": {"POST": Needs("notifications.change_delivery", {S, C})},
}
ENDPOINTS = {
    "api:table-list": {READS: {S, C}, "POST": Needs("tables.add_table", {S})},
    "api:table-detail": {READS: {S, C}, "PATCH": Needs("tables.change_table", {S})},
    "api:table-status": {"OPTIONS": {S, C}, "POST": Needs("tables.add_tablestatuschange", {S})},
    "api:table-status-changes": {READS: {S, C}},
    "api:table-configurations": {READS: {S, C}, "POST": Needs("tables.add_tableconfiguration", {S})},
    "api:tableconfiguration-list": {READS: {S, C}},
    "api:tableconfiguration-detail": {READS: {S, C}},
    "api:tableconfiguration-approve": {
        "OPTIONS": {S},
        "POST": Needs("tables.decide_tableconfiguration", {S}),
    },
    "api:tableconfiguration-reject": {"OPTIONS": {S}, "POST": Needs("tables.decide_tableconfiguration", {S})},
    "api:tableconfiguration-compliance-approve": {
        "OPTIONS": {C},
        "POST": Needs("tables.approve_rtp_fall", {C}),
    },
    "api:tableconfiguration-compliance-reject": {
        "OPTIONS": {C},
        "POST": Needs("tables.approve_rtp_fall", {C}),
    },
    "api:tableconfiguration-fall-reason": {
        "OPTIONS": {S},
        "POST": Needs("tables.add_tableconfiguration", {S}),
    },
    "api:publishedrtp-list": {READS: {S, C}, "POST": Needs("tables.add_publishedrtp", {C})},
    "api:tablelimit-list": {
        READS: {S, C},
        "POST": Needs(("limits.add_tablelimit", "limits.change_tablelimit"), {S}),
    },
    "api:tablelimit-detail": {READS: {S, C}},
    "api:tablelimit-history": {READS: {S, C}},
    "api:player-list": {READS: {S, C, CS}, "POST": Needs("limits.add_player", {CS})},
    "api:player-detail": {READS: {S, C, CS}, "PATCH": Needs("limits.change_player", {CS})},
    "api:player-personal-limits": {READS: {S, C, CS}, "POST": Needs("limits.add_personallimit", {CS})},
    "api:personallimit-list": {READS: {S, C, CS}},
    "api:personallimit-detail": {READS: {S, C, CS}},
    # A question, not a write: any role may ask it (it needs check_limits, which every role holds).
    "api:limit-check": {"OPTIONS": EVERYONE, "POST": Needs("limits.check_limits", EVERYONE)},
    "api:resettlement-list": {READS: {S, C}, "POST": Needs("rounds.add_resettlement", {C})},
    "api:resettlement-detail": {READS: {S, C}},
    "api:resettlement-approve": {"OPTIONS": {S}, "POST": Needs("rounds.decide_resettlement", {S})},
    "api:resettlement-reject": {"OPTIONS": {S}, "POST": Needs("rounds.decide_resettlement", {S})},
    "api:incident-list": {READS: {S, C}, "POST": Needs("rounds.add_incident", {S})},
    "api:incident-detail": {READS: {S, C}},
    "api:incident-notes": {READS: {S, C}, "POST": Needs("rounds.add_incidentnote", {S})},
    "api:incident-resume": {"OPTIONS": {S}, "POST": Needs("rounds.change_incident", {S})},
    "api:incident-cancel-round": {"OPTIONS": {S}, "POST": Needs("rounds.change_incident", {S})},
    "api:void-list": {READS: {S, C}, "POST": Needs("rounds.propose_void", {S})},
    "api:void-detail": {READS: {S, C}},
    "api:void-approve": {"OPTIONS": {S}, "POST": Needs("rounds.decide_void", {S})},
    "api:void-reject": {"OPTIONS": {S}, "POST": Needs("rounds.decide_void", {S})},
    "api:round-list": {READS: {S, C}, "POST": Needs("rounds.add_round", {GS})},
    "api:round-detail": {READS: {S, C}},
    "api:reportrun-list": {READS: {S, C}, "POST": Needs("reports.run_report", {S, C})},
    "api:reportrun-detail": {READS: {S, C}},
    "api:reportrun-sign": {"OPTIONS": {S, C}, "POST": Needs("reports.sign_reportrun", {C})},
    "api:floor": {READS: {S, C}},
    "api:floor-table": {READS: {S, C}},
    "api:alert-list": {READS: {S, C}},
    "api:alert-detail": {READS: {S, C}},
    "api:fault-list": {READS: {S, C}},
    "api:fault-detail": {READS: {S, C}},
    "api:dailyfigures-list": {READS: {S, C}},
    "api:dailyfigures-detail": {READS: {S, C}},
    "api:dailytablesummary-list": {READS: {S, C}},
    "api:dailytablesummary-detail": {READS: {S, C}},
    "api:dailyexposure-list": {READS: {S, C}},
    "api:dailyexposure-detail": {READS: {S, C}},
    "api:reportdocument-list": {READS: {S, C}},
    "api:reportdocument-detail": {READS: {S, C}},
    "api:reportdocument-download": {READS: {S, C}},
    "api:reports-day-pack": {READS: {S, C}},
    "api:docs": {"GET HEAD": EVERYONE},
    "api:redoc": {"GET HEAD": EVERYONE},
    "api-schema": {READS: EVERYONE},
}
# The players' rule sheets (issue 20): players and game clients read them without signing in, so they
# are the only public pages and the only public endpoint besides signing in and out. Each takes GET,
# HEAD and OPTIONS only (test_the_rule_sheets_are_public_and_read_only).
PUBLIC_SHEETS = {
    "sheets:sheet",
    "sheets:sheet_language",
    "sheets:sheet_pdf",
    "sheets:sheet_language_pdf",
    "api:table-rules",
}
# /healthz (portal/health.py), for monitors: GET and HEAD, tested in tests/test_healthz.py.
# Signing in and one's own second factor (tests/walk_support.py) are for anyone or any signed-in user.
PUBLIC = {"login", "logout", "healthz", *PUBLIC_SHEETS, *SIGN_IN_PAGES}
REPORT_MODELS = ("reportrun", "dailyfigures", "dailytablesummary", "dailyexposure", "reportdocument")
# The rows a refused request must leave as they were: every model of these apps.
STORED_APPS = {
    *("auth", "authtoken", "accounts", "outbox", "tables", "limits", "rounds", "reports", "sheets"),
    "alerts",
    "notifications",
}


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
    }
    return bodies.get(name, {}) if method in WRITES else {}


# Writes whose body stores nothing by design (a question).
QUESTIONS = {"api:limit-check"}
# Writes the service allows the owner of the record only, of the roles holding the permission: the
# world's record is the walking supervisor's, and compliance is refused (403) with nothing stored.
OWNER_ONLY = {"notifications:webhook_rotate": S, "notifications:webhook_deactivate": S}


def url_names(patterns=None, namespace=None):
    for pattern in patterns if patterns is not None else get_resolver().url_patterns:
        if isinstance(pattern, URLResolver):
            if pattern.namespace == "admin":
                continue
            inner = pattern.namespace if not namespace else f"{namespace}:{pattern.namespace}"
            yield from url_names(pattern.url_patterns, pattern.namespace and inner or namespace)
        elif isinstance(pattern, URLPattern) and pattern.name:
            yield f"{namespace}:{pattern.name}" if namespace else pattern.name


def matrix() -> dict[str, dict[str, frozenset | Needs]]:
    """url name -> {METHOD: roles or Needs}, one key per method."""
    return {
        name: {method: rule for methods, rule in entry.items() for method in methods.split()}
        for name, entry in {**PAGES, **ENDPOINTS}.items()
    }


def is_api(name: str) -> bool:
    return name.startswith("api")


def roles_of(rule) -> frozenset:
    return frozenset(rule.roles if isinstance(rule, Needs) else rule)


def test_every_url_is_in_the_matrix():
    names = set(url_names()) - PUBLIC - OWN_SECOND_FACTOR_PAGES
    missing = sorted(names - set(matrix()))
    gone = sorted(set(matrix()) - names)
    assert not missing and not gone, (
        f"Add to PAGES or ENDPOINTS, with the roles each method is for: {missing}; "
        f"remove (no such URL): {gone}"
    )


@pytest.fixture(scope="module")
def world(django_db_setup, django_db_blocker, tmp_path_factory):
    """One of each object the routes show, built once, in a transaction rolled back at the end."""
    reports_dir = tmp_path_factory.mktemp("reports")
    with django_db_blocker.unblock(), override_settings(PITBOSS_REPORTS_DIR=reports_dir):
        with transaction.atomic():
            built = build_world(reports_dir)
            sessions_open()
            yield built
            sessions_close()
            transaction.set_rollback(True)


def sessions_open() -> None:
    """Each role signs in through the pages once, with a code where it needs one (client_as); in a
    module's `world`, after build_world (tests/test_json_depth.py's too)."""
    global SESSIONS
    walker = get_user_model().objects.get(username="walker")
    SESSIONS = RoleSessions({**{role: user(role) for role in ROLES}, "walker": walker})
    SESSIONS.sign_in_all()


def sessions_close() -> None:
    global SESSIONS
    SESSIONS = None


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


def arguments(name: str, world: dict) -> dict:
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


def stored() -> dict:
    """Every row of the project's models, users and tokens, in order."""
    return {
        model._meta.label: list(model._default_manager.order_by("pk").values_list())
        for model in apps.get_models()
        if model._meta.app_label in STORED_APPS
    }


def send(client: APIClient, method: str, url: str, body: dict, api: bool):
    """A write's body as JSON to the API, as a browser's form (multipart) to a page."""
    if method in WRITES:
        return getattr(client, method.lower())(url, body, format="json" if api else "multipart")
    return getattr(client, method.lower())(url)


SESSIONS: RoleSessions | None = None  # the roles' sessions, signed in by `world`


def client_as(role: str | None) -> APIClient:
    """Anonymous, or in the role's session: signed in through the pages, with a code (walk_support)."""
    return SESSIONS.client(role) if role else APIClient()


def allowed_methods(response) -> set[str] | None:
    header = response.get("Allow")
    return {method.strip().upper() for method in header.split(",")} if header else None


@pytest.mark.django_db
def test_every_method_a_route_takes_is_in_the_matrix(world):
    """The view's Allow header, asked as a superuser, is exactly the methods its entry lists."""
    walker = APIClient(raise_request_exception=False)
    walker.cookies = SESSIONS.client("walker").cookies  # signed in through the pages too
    problems = []
    for name, entry in sorted(matrix().items()):
        response = walker.options(reverse(name, kwargs=arguments(name, world)))
        taken = allowed_methods(response)
        if taken is None:
            problems.append(
                f"{name}: answers OPTIONS {response.status_code} without an Allow header (a server error, "
                "or a function view, which takes every method: declare them, require_http_methods)"
            )
            continue
        if taken != set(entry):
            problems.append(
                f"{name}: takes {', '.join(sorted(taken))}; the matrix lists {', '.join(sorted(entry))}"
            )
        if not is_api(name) and taken - PAGE_METHODS:
            problems.append(f"{name}: a page takes {', '.join(sorted(taken - PAGE_METHODS))}")
    assert not problems, "\n".join(problems)


@pytest.mark.django_db
def test_a_write_needs_more_than_viewing_and_is_for_exactly_its_holders(world):
    problems = []
    for name, entry in sorted(matrix().items()):
        for method, rule in entry.items():
            if method not in WRITES:
                continue
            if not isinstance(rule, Needs):
                problems.append(f"{name} {method}: state the permission it needs, Needs('app.perm', roles)")
                continue
            perms = (rule.permission,) if isinstance(rule.permission, str) else rule.permission
            if perms == SIGNED_IN and name not in OWN_ACCOUNT:
                problems.append(f"{name} {method}: only changing one's own account needs no permission")
            if perms and all(perm.split(".")[1].startswith("view_") for perm in perms):
                problems.append(f"{name} {method}: a write on a view permission ({', '.join(perms)})")
            holders = {role for role in ROLES if all(user(role).has_perm(perm) for perm in perms)}
            if holders != set(rule.roles):
                problems.append(
                    f"{name} {method}: for {sorted(rule.roles)}, but {sorted(holders)} hold {perms}"
                )
    assert not problems, "\n".join(problems)


def cases():
    for name, entry in matrix().items():
        for method in entry:
            for role in (None, *ROLES):
                yield pytest.param(name, method, role, id=f"{name}-{method}-{role or 'anonymous'}")


@pytest.mark.django_db
@pytest.mark.parametrize(("name", "method", "role"), list(cases()))
def test_each_role_gets_what_the_matrix_says(name, method, role, world):
    allowed = roles_of(matrix()[name][method])
    if name in OWNER_ONLY and method in WRITES:
        allowed = {OWNER_ONLY[name]}
    client = client_as(role)
    url = reverse(name, kwargs=arguments(name, world))
    before = stored()
    response = send(client, method, url, body_of(name, method, world), is_api(name))
    status = response.status_code
    if role is None:
        if is_api(name):
            assert status == 401, response.content[:300]
        else:
            assert status == 302 and response["Location"].startswith(reverse("login")), status
    elif role in allowed:
        assert status not in (403, 405) and status < 500, (status, response.content[:300])
        if method not in WRITES:
            assert status == 200, (status, response.content[:300])
        return
    else:
        assert status == 403, (status, response.content[:300])
    assert stored() == before, f"{role or 'anonymous'} was refused {method} {name}, yet something changed"


def bodies_to_prove():
    for name, entry in matrix().items():
        for method, rule in entry.items():
            if method in WRITES and name not in QUESTIONS:
                role = OWNER_ONLY.get(name) or sorted(roles_of(rule))[0]
                yield pytest.param(name, method, role, id=f"{name}-{method}")


@pytest.mark.django_db
@pytest.mark.parametrize(("name", "method", "role"), list(bodies_to_prove()))
def test_a_write_body_stores_something_when_allowed(name, method, role, world):
    """So that 'refused and nothing changed' in the walk means something was refused."""
    body = body_of(name, method, world)
    if not body:
        pytest.skip("no body given (see body_of); the walk still checks its refusals")
    client = client_as(role)  # signing in changes the user's last login: before the snapshot
    before = stored()
    response = send(client, method, reverse(name, kwargs=arguments(name, world)), body, is_api(name))
    assert stored() != before, (
        f"body_of({name!r}, {method!r}) stores nothing for {role} ({response.status_code}: "
        f"{response.content[:300]!r}): give a body that does"
    )


@pytest.mark.django_db
@pytest.mark.parametrize("role", [C, S])
@pytest.mark.parametrize("data", [{"comment": "Rejected by a reader"}, {"comment": "No", "action": "reject"}])
def test_a_post_to_a_resettlement_page_decides_nothing(role, data, world):
    """The approve/reject form sends `comment` to the step's URL; to the plain page it is refused,
    for compliance (who may only view) and for a supervisor alike: decisions have their own URLs."""
    from rounds.models import Resettlement

    client = client_as(role)
    before = stored()
    url = reverse("rounds:resettlement_detail", kwargs={"pk": world["resettlement"]})
    response = client.post(url, data, format="multipart")
    assert response.status_code in (403, 405)
    assert stored() == before
    assert Resettlement.objects.get(pk=world["resettlement"]).status == "proposed"


@pytest.mark.django_db
@pytest.mark.parametrize("name", sorted(PUBLIC_SHEETS))
def test_the_rule_sheets_are_public_and_read_only(name, world):
    """Anonymous: the sheet (200); every write refused (405) and nothing stored; GET, HEAD and OPTIONS
    are all the route takes."""
    url = reverse(name, kwargs=arguments(name, world))
    anonymous = client_as(None)
    response = anonymous.get(url)
    assert response.status_code == 200, (response.status_code, response.content[:300])
    assert allowed_methods(anonymous.options(url)) == {"GET", "HEAD", "OPTIONS"}
    before = stored()
    for method in WRITES:
        assert send(anonymous, method, url, {}, is_api(name)).status_code == 405, method
    assert stored() == before


@pytest.mark.django_db
@pytest.mark.parametrize("role", [S, C])
def test_a_role_that_needs_a_second_factor_reaches_nothing_before_enrolling(role, world):
    """Signed in with the password alone (no authenticator yet): every page the role may read sends
    to enrolment, every endpoint refuses (403), and nothing is stored."""
    client = unenrolled_client(ROLE_SLUGS[role], f"{role}-unenrolled")
    before = stored()
    for name, entry in sorted(matrix().items()):
        if "GET" not in entry or role not in roles_of(entry["GET"]):
            continue
        response = client.get(reverse(name, kwargs=arguments(name, world)))
        if is_api(name):
            assert response.status_code == 403, (name, response.status_code)
        else:
            assert response.status_code == 302 and response["Location"] == ENROL, (name, response.status_code)
    assert stored() == before

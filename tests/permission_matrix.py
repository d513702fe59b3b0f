"""The permission walk's matrix (tests/test_permissions.py): per URL name and HTTP method, the roles
that may use it, and for a write the permission it needs (`Needs`)."""

from typing import NamedTuple

from tests.walk_support import SIGN_IN_PAGES

S, C, CS, GS, A = "supervisor", "compliance", "customer_service", "game_server", "administrator"
ROLES = (S, C, CS, GS, A)
EVERYONE = frozenset(ROLES)
# The roles that play a part in the game: every one but the administrator, who manages accounts.
AT_THE_TABLES = frozenset({S, C, CS, GS})
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
    # The administrators' pages (issue 54): accounts, roles, second factors, tokens; compliance reads
    # the record of every change.
    "staff:users": {READS: {A}},
    "staff:user_create": {READS: {A}, "POST": Needs("staff.add_accountchange", {A})},
    "staff:user": {READS: {A}},
    "staff:user_role": {"POST": Needs("staff.add_accountchange", {A})},
    "staff:user_deactivate": {"POST": Needs("staff.add_accountchange", {A})},
    "staff:user_reactivate": {"POST": Needs("staff.add_accountchange", {A})},
    "staff:user_second_factor_reset": {"POST": Needs("staff.add_accountchange", {A})},
    "staff:token_issue": {"POST": Needs("staff.add_accountchange", {A})},
    "staff:token_rotate": {"POST": Needs("staff.add_accountchange", {A})},
    "staff:token_revoke": {"POST": Needs("staff.add_accountchange", {A})},
    "staff:changes": {READS: {A, C}},
    "staff:change": {READS: {A, C}},
    "staff:change_approve": {"POST": Needs(("staff.view_accountchange", "staff.decide_accountchange"), {A})},
    "staff:change_reject": {"POST": Needs(("staff.view_accountchange", "staff.decide_accountchange"), {A})},
    "staff:change_withdraw": {"POST": Needs(("staff.view_accountchange", "staff.add_accountchange"), {A})},
    # The sign-in record: administrators and compliance; compliance reviews a break-glass sign-in.
    "staff:sign_ins": {READS: {A, C}},
    "staff:sign_in_days": {READS: {A, C}},
    "staff:token_uses": {READS: {A, C}},
    "staff:sign_in_review": {
        READS: {C},
        "POST": Needs(("accounts.view_signinevent", "accounts.review_signinevent"), {C}),
    },
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
    # A question, not a write: any role at the tables may ask it (it needs check_limits, which each holds).
    "api:limit-check": {"OPTIONS": AT_THE_TABLES, "POST": Needs("limits.check_limits", AT_THE_TABLES)},
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
# /healthz (portal/health.py), for monitors: GET and HEAD, tested in tests/test_healthz.py. /metrics
# (portal/metrics.py), for Prometheus: GET and HEAD from PITBOSS_METRICS_ADDRESSES, tested in
# tests/metrics/.
# Signing in and one's own second factor (tests/walk_support.py) are for anyone or any signed-in user.
PUBLIC = {"login", "logout", "healthz", "metrics", *PUBLIC_SHEETS, *SIGN_IN_PAGES}
REPORT_MODELS = ("reportrun", "dailyfigures", "dailytablesummary", "dailyexposure", "reportdocument")
# The rows a refused request must leave as they were: every model of these apps.
STORED_APPS = {
    *("auth", "authtoken", "accounts", "outbox", "tables", "limits", "rounds", "reports", "sheets"),
    "alerts",
    "notifications",
    "staff",
}


# Writes whose body stores nothing by design (a question).
QUESTIONS = {"api:limit-check"}
# Writes the service allows the owner of the record only, of the roles holding the permission: the
# world's record is the walking supervisor's, and compliance is refused (403) with nothing stored.
OWNER_ONLY = {"notifications:webhook_rotate": S, "notifications:webhook_deactivate": S}

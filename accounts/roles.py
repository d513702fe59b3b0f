"""The roles as groups, and what each may do.

Supervisor: tables, table limits, incidents, silences and monitor thresholds; reads rounds and
players. Compliance: reads everything, reviews rounds, reports, approves a less sensitive threshold,
marks a game fault reportable, approves a configuration change past the RTP guardrail, enters the
operator's published RTPs and signs a day's report run off; changes nothing else of tables, nor
limits. Both own alerts (acknowledge, claim, resolve). Customer service:
players, personal limits, play records (a round only through a player's: rounds.access); nothing of
tables. Game server: an account for machines
that check limits and send rounds. Administrator (issue 54): the staff's accounts, their one role,
second factors and API tokens, and the sign-in record (staff/); holds no other role, sees no round,
table, player or report, moves no money and decides nothing but another administrator's account
change.
"""

from django.contrib.auth.models import Group, Permission

from accounts.backends import role_names

SUPERVISOR = "Supervisor"
COMPLIANCE = "Compliance"
CUSTOMER_SERVICE = "Customer service"
GAME_SERVER = "Game server"
ADMINISTRATOR = "Administrator"
ROLES = (SUPERVISOR, COMPLIANCE, CUSTOMER_SERVICE, GAME_SERVER, ADMINISTRATOR)
ROLE_SLUGS = {
    "supervisor": SUPERVISOR,
    "compliance": COMPLIANCE,
    "customer_service": CUSTOMER_SERVICE,
    "game_server": GAME_SERVER,
    "administrator": ADMINISTRATOR,
}
# Giving a user one of these roles (or one back, by reactivating them), and resetting a second factor,
# takes a second administrator's approval (staff.services).
ROLES_GRANTED_BY_TWO = (SUPERVISOR, COMPLIANCE, ADMINISTRATOR)

_VIEW_ALL = [
    "tables.view_table",
    "tables.view_tableconfiguration",
    "tables.view_tablestatuschange",
    "tables.view_publishedrtp",
    "limits.view_tablelimit",
    "limits.view_player",
    "limits.view_personallimit",
    "limits.check_limits",
    "rounds.view_round",
    "rounds.view_shoe",
    "rounds.view_bet",
    "rounds.view_finding",
    "rounds.view_resettlement",
    "rounds.view_adjustment",
    "rounds.view_incident",
    "rounds.view_incidentnote",
    "rounds.view_refund",
    "rounds.view_void",
    "rounds.view_voidline",
    "rounds.view_roundcorrection",
    "live.view_livefigures",  # the floor and each table's live page
    "alerts.view_alert",
    "alerts.view_silence",
    "alerts.view_threshold",
    "alerts.view_reportablefault",
    "alerts.change_alert",  # acknowledge, claim, resolve
    # Their own subscription, webhook endpoints, the deliveries and their retry.
    "notifications.view_subscription",
    "notifications.change_subscription",
    "notifications.view_webhookendpoint",
    "notifications.add_webhookendpoint",
    "notifications.change_webhookendpoint",
    "notifications.view_delivery",
    "notifications.change_delivery",
]
# The daily reports: their figures, runs and PDFs (compliance and supervisors).
_REPORTS = [
    "reports.view_reportrun",
    "reports.view_dailyfigures",
    "reports.view_dailytablesummary",
    "reports.view_dailyexposure",
    "reports.view_reportdocument",
    "reports.run_report",
]

ROLE_PERMISSIONS = {
    SUPERVISOR: _VIEW_ALL
    + _REPORTS
    + [
        "tables.add_table",
        "tables.change_table",
        "tables.add_tableconfiguration",
        "tables.decide_tableconfiguration",
        "tables.add_tablestatuschange",
        "limits.add_tablelimit",
        "limits.change_tablelimit",
        "rounds.add_incident",
        "rounds.change_incident",
        "rounds.add_incidentnote",
        "rounds.decide_resettlement",
        "rounds.propose_void",
        "rounds.decide_void",
        "alerts.add_silence",
        "alerts.change_silence",  # end a silence early
        "alerts.add_threshold",
    ],
    COMPLIANCE: _VIEW_ALL
    + _REPORTS
    + [
        "rounds.review_round",
        "rounds.add_resettlement",
        "alerts.approve_threshold",
        "alerts.add_reportablefault",
        "tables.approve_rtp_fall",  # a configuration change past the RTP guardrail
        "tables.add_publishedrtp",
        "reports.sign_reportrun",  # a day's report run signed off (reports.sign_off)
        # The administrators' record: every account change, every sign-in; break-glass sign-ins reviewed.
        "staff.view_accountchange",
        "accounts.view_signinevent",
        "accounts.review_signinevent",
    ],
    CUSTOMER_SERVICE: [
        "limits.view_player",
        "limits.add_player",
        "limits.change_player",
        "limits.view_personallimit",
        "limits.add_personallimit",
        "limits.check_limits",
        # Rounds only through players: their play records (rounds.access), no round page.
        "rounds.view_bet",
        "rounds.view_adjustment",
        "rounds.view_refund",
        "rounds.view_voidline",
    ],
    GAME_SERVER: ["limits.check_limits", "rounds.add_round"],
    ADMINISTRATOR: [
        "staff.view_accountchange",
        "staff.add_accountchange",  # create, give a role, deactivate, reset a second factor, tokens
        "staff.decide_accountchange",  # approve or reject another administrator's change
        "accounts.view_signinevent",
    ],
}


def roles_sync() -> None:
    """Create the role groups and give each exactly its permissions (idempotent)."""
    codenames = {name.split(".")[1] for names in ROLE_PERMISSIONS.values() for name in names}
    found = {
        f"{permission.content_type.app_label}.{permission.codename}": permission
        for permission in Permission.objects.filter(codename__in=codenames).select_related("content_type")
    }
    for role, names in ROLE_PERMISSIONS.items():
        group, _ = Group.objects.get_or_create(name=role)
        # A permission of an app not migrated yet is missing: the next post_migrate adds it.
        group.permissions.set([found[name] for name in names if name in found])


def user_role(user) -> str | None:
    names = set(role_names(user))  # read with the user's permissions, once a request
    return next((role for role in ROLES if role in names), None)

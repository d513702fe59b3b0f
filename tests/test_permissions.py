"""Every page and endpoint, walked as anonymous and as each role: login, 403 or 200 as the roles say.

A URL added without an entry here fails `test_every_url_is_in_the_matrix`, so no page or
endpoint can appear without its permissions being decided and tested.
"""

from decimal import Decimal

import pytest
from django.urls import URLPattern, URLResolver, get_resolver, reverse
from rest_framework.test import APIClient

from limits.models import PersonalLimit, TableLimit
from tables.models import TableConfiguration
from tests.factories import player, report_rows, table, user

S, C, CS, GS = "supervisor", "compliance", "customer_service", "game_server"
ROLES = (S, C, CS, GS)
EVERYONE = set(ROLES)

# url name -> (method, roles that may use it)
PAGES = {
    "home": ("get", EVERYONE),
    "password_change": ("get", EVERYONE),
    "password_change_done": ("get", EVERYONE),
    "tables:table_list": ("get", {S, C}),
    "tables:table_detail": ("get", {S, C}),
    "tables:table_create": ("get", {S}),
    "tables:table_update": ("get", {S}),
    "tables:table_status": ("get", {S}),
    "tables:configuration_change": ("get", {S}),
    "limits:table_limit_list": ("get", {S, C}),
    "limits:table_limit_set": ("get", {S}),
    "limits:player_list": ("get", {S, C, CS}),
    "limits:player_detail": ("get", {S, C, CS}),
    "limits:personal_limit_list": ("get", {S, C, CS}),
    "limits:player_create": ("get", {CS}),
    "limits:player_update": ("get", {CS}),
    "limits:personal_limit_set": ("get", {CS}),
    "rounds:incident_list": ("get", {S, C}),
    "rounds:incident_detail": ("get", {S, C}),
    "rounds:incident_open": ("get", {S}),
    "rounds:incident_note_add": ("get", {S}),
    "rounds:incident_resume": ("get", {S}),
    "rounds:incident_cancel_round": ("get", {S}),
    "rounds:resettlement_list": ("get", {S, C}),
    "rounds:resettlement_detail": ("get", {S, C}),
    "rounds:resettlement_propose": ("get", {C}),
    "rounds:resettlement_approve": ("get", {S}),
    "rounds:resettlement_reject": ("get", {S}),
    "rounds:round_list": ("get", {S, C, CS}),
    "rounds:round_detail": ("get", {S, C, CS}),
    "rounds:round_document": ("get", {S, C, CS}),
    # The world's round has a finding (no configuration in force), so an empty sign-off is a 400.
    "rounds:round_review": ("post", {C}),
    "rounds:play_record": ("get", {S, C, CS}),
    "reports:archive": ("get", {S, C}),
    "reports:daily_report": ("get", {S, C}),
    "reports:exposure_report": ("get", {S, C}),
    "reports:run_list": ("get", {S, C}),
    "reports:run_start": ("get", {S, C}),
    "reports:document_download": ("get", {S, C}),
}
ENDPOINTS = {
    "api:table-list": ("get", {S, C}),
    "api:table-detail": ("get", {S, C}),
    "api:table-status": ("post", {S}),
    "api:table-status-changes": ("get", {S, C}),
    "api:table-configurations": ("get", {S, C}),
    "api:tableconfiguration-list": ("get", {S, C}),
    "api:tableconfiguration-detail": ("get", {S, C}),
    "api:tablelimit-list": ("get", {S, C}),
    "api:tablelimit-detail": ("get", {S, C}),
    "api:tablelimit-history": ("get", {S, C}),
    "api:player-list": ("get", {S, C, CS}),
    "api:player-detail": ("get", {S, C, CS}),
    "api:player-personal-limits": ("get", {S, C, CS}),
    "api:personallimit-list": ("get", {S, C, CS}),
    "api:personallimit-detail": ("get", {S, C, CS}),
    "api:limit-check": ("post", EVERYONE),
    "api:resettlement-list": ("get", {S, C}),
    "api:resettlement-detail": ("get", {S, C}),
    "api:resettlement-approve": ("post", {S}),
    "api:resettlement-reject": ("post", {S}),
    "api:incident-list": ("get", {S, C}),
    "api:incident-detail": ("get", {S, C}),
    "api:incident-notes": ("get", {S, C}),
    "api:incident-resume": ("post", {S}),
    "api:incident-cancel-round": ("post", {S}),
    # POST /api/rounds/ (game servers only) is walked in tests/rounds/test_api_rounds.py.
    "api:round-list": ("get", {S, C, CS}),
    "api:round-detail": ("get", {S, C, CS}),
    "api:reportrun-list": ("get", {S, C}),
    "api:reportrun-detail": ("get", {S, C}),
    "api:dailyfigures-list": ("get", {S, C}),
    "api:dailyfigures-detail": ("get", {S, C}),
    "api:dailytablesummary-list": ("get", {S, C}),
    "api:dailytablesummary-detail": ("get", {S, C}),
    "api:dailyexposure-list": ("get", {S, C}),
    "api:dailyexposure-detail": ("get", {S, C}),
    "api:reportdocument-list": ("get", {S, C}),
    "api:reportdocument-detail": ("get", {S, C}),
    "api:reportdocument-download": ("get", {S, C}),
    "api:docs": ("get", EVERYONE),
    "api:redoc": ("get", EVERYONE),
    "api-schema": ("get", EVERYONE),
}
PUBLIC = {"login", "logout"}
REPORT_MODELS = ("reportrun", "dailyfigures", "dailytablesummary", "dailyexposure", "reportdocument")


def url_names(patterns=None, namespace=None):
    for pattern in patterns if patterns is not None else get_resolver().url_patterns:
        if isinstance(pattern, URLResolver):
            if pattern.namespace == "admin":
                continue
            inner = pattern.namespace if not namespace else f"{namespace}:{pattern.namespace}"
            yield from url_names(pattern.url_patterns, pattern.namespace and inner or namespace)
        elif isinstance(pattern, URLPattern) and pattern.name:
            yield f"{namespace}:{pattern.name}" if namespace else pattern.name


def test_every_url_is_in_the_matrix():
    assert set(url_names()) - PUBLIC == set(PAGES) | set(ENDPOINTS)


@pytest.fixture
def world(db, settings, tmp_path):
    settings.PITBOSS_REPORTS_DIR = tmp_path
    dlx = table("DLX1")
    who = player("P1001")
    from limits.services import personal_limit_set

    personal_limit_set(player=who, max_stake=Decimal("10.00"), changed_by=user(CS), reason="asked")
    return {
        "code": "DLX1",
        "external_id": "P1001",
        "configuration": TableConfiguration.objects.get(table=dlx).pk,
        "table_limit": TableLimit.objects.get(table=dlx, kind="main").pk,
        "personal_limit": PersonalLimit.objects.get().pk,
        "round_id": _a_round(),
        **_an_incident_and_a_resettlement(dlx),
        **report_rows(dlx, tmp_path),
    }


def _an_incident_and_a_resettlement(dlx) -> dict:
    from rounds.models import Resettlement, Round
    from rounds.services import incident_open

    incident = incident_open(table=dlx, kind="other", opened_by=user(S), note="matrix")
    resettlement = Resettlement.objects.create(
        round=Round.objects.get(), reason="matrix", proposed_by=user(C)
    )
    return {"incident": incident.pk, "resettlement": resettlement.pk}


def _a_round() -> str:
    from rounds.ingest import round_ingest
    from tests.fixtures import round_document

    return round_ingest(document=round_document("deluxe-split-double-play-behind")).round.round_id


def arguments(name: str, world: dict) -> dict:
    if name.startswith("api:") and name.endswith(("-detail", "-download")):
        model = name[len("api:") :].rsplit("-", 1)[0]
        if model in REPORT_MODELS:
            return {"pk": world[model]}
    if name == "reports:document_download":
        return {"pk": world["reportdocument"]}
    for thing in ("incident", "resettlement"):
        if name.startswith((f"rounds:{thing}_", f"api:{thing}-")) and not name.endswith(
            ("_list", "-list", "_open", "_propose")
        ):
            return {"pk": world[thing]}
    if name in ("rounds:round_detail", "rounds:round_document", "rounds:round_review"):
        return {"round_id": world["round_id"]}
    if name == "rounds:play_record":
        return {"external_id": world["external_id"]}
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


def cases():
    return list(_cases())


def _cases():
    for name, (method, allowed) in {**PAGES, **ENDPOINTS}.items():
        for role in (None, *ROLES):
            yield pytest.param(name, method, allowed, role, id=f"{name}-{role or 'anonymous'}")


@pytest.mark.django_db
@pytest.mark.parametrize(("name", "method", "allowed", "role"), cases())
def test_each_role_gets_what_the_roles_say(name, method, allowed, role, world):
    client = APIClient()
    if role:
        client.force_login(user(role))
    url = reverse(name, kwargs=arguments(name, world))
    response = getattr(client, method)(url, {}, format="json") if method == "post" else client.get(url)
    api = name.startswith("api")
    if role is None:
        if api:
            assert response.status_code == 401
        else:
            assert response.status_code == 302 and response["Location"].startswith(reverse("login"))
    elif role in allowed:
        assert response.status_code == (400 if method == "post" else 200), response.content[:300]
    else:
        assert response.status_code == 403

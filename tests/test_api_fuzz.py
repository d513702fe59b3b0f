"""schemathesis over the API schema: every operation, as anonymous and as each role.

The schema is the one /api/schema/ serves (generated here by drf-spectacular, as the view does;
`test_the_fuzzed_schema_is_the_one_served` holds them equal). Each operation is one test per role:
schemathesis generates MAX_EXAMPLES requests (its fuzzing phase, valid and invalid input,
derandomized) and sends them through the WSGI application, in-process, against the test
database, inside the test's transaction: nothing a POST or PATCH writes outlives the test.

The world the requests meet is built once for the module and rolled back after it: seed_demo's
tables, limits, players and users (one per role, each with an API token), the fixture rounds of
tests/fixtures/ (the cancelled one opens an incident), a wrongly paid round with a proposed
re-settlement, and a day of report rows with its PDF. Path parameters are made-up values or, as
often, ones that exist, so that operations are exercised beyond a 404.

Anonymous requests carry no credentials, or made-up ones (schemathesis fills in the token header
and session cookie the schema documents), and must all be refused, but on a public operation (a
table's rule sheet), which answers anyone alike.

Checked on every response: no 5xx; the status code, content type and body as the schema documents
them; and every 4xx a JSON object with a message: {"detail": "..."} or {"field": ["...", ...]}.
"""

import json
from datetime import date, timedelta
from decimal import Decimal
from io import StringIO

import pytest
import schemathesis
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.signals import request_finished, request_started
from django.db import close_old_connections, transaction
from django.test import override_settings
from drf_spectacular.generators import SchemaGenerator
from drf_spectacular.renderers import OpenApiJsonRenderer
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from schemathesis.config import SchemathesisConfig

from accounts.services import token_create
from alerts.choices import Monitor
from alerts.faults import fault_mark
from alerts.services import alert_raise
from config.wsgi import application
from limits.models import PersonalLimit, TableLimit
from reports.models import ReportRun
from rounds.ingest import round_ingest
from rounds.models import Incident, Round
from rounds.services import resettlement_propose, void_propose
from tables.models import Table, TableConfiguration
from tables.published import published_rtp_enter
from tables.selectors import configuration_in_force
from tests.api_support import client_as
from tests.factories import report_rows
from tests.fixtures import round_document, round_documents

MAX_EXAMPLES = 10  # generated requests per operation and role
# Each role's seed_demo user; anonymous sends no credentials.
USERS = {
    "anonymous": None,
    "supervisor": "supervisor",
    "compliance": "compliance",
    "customer_service": "customer-service",
    "game_server": "game-server",
}
FIXTURE_ROUND_IDS = [document["round_id"] for document in round_documents()]
# Path parameter values that exist, filled in by `world`: EXISTING[kind] (see `_kind`).
EXISTING: dict[str, list] = {}


def generated_schema() -> dict:
    """The schema /api/schema/ serves, as JSON."""
    return json.loads(OpenApiJsonRenderer().render(SchemaGenerator().get_schema(request=None, public=True)))


def public_operations(schema: dict) -> set[tuple[str, str]]:
    """(METHOD, path) of the operations anyone may call (security `[{}]`: a rule sheet)."""
    return {
        (method.upper(), path)
        for path, operations in schema["paths"].items()
        for method, operation in operations.items()
        if isinstance(operation, dict) and operation.get("security") == [{}]
    }


PUBLIC_OPERATIONS = public_operations(generated_schema())
schema = schemathesis.openapi.from_dict(
    generated_schema(),
    config=SchemathesisConfig.from_dict(
        {
            # Fuzzing only: the coverage phase's hundreds of boundary cases an operation are too slow
            # for `make test` (five roles, fifty operations).
            "phases": {"coverage": {"enabled": False}},
            # Request bodies name tables, players and rounds: as often as not, ones that exist.
            "dictionaries": {
                "tables": {"values": ["DLX1", "BND1", "CLS1", "MPB1"]},
                "players": {"values": ["P1001", "P2002", "T9001"]},
                "rounds": {"values": FIXTURE_ROUND_IDS},
            },
            "parameters": {
                "body.table": {"dictionary": "tables", "probability": 0.5},
                "body.player": {"dictionary": "players", "probability": 0.5},
                "body.round": {"dictionary": "rounds", "probability": 0.5},
            },
            "checks": {
                # Schema-valid input may still be refused (an unknown table, approving your own
                # proposal), and DRF ignores some schema-invalid query values (page_size=x: the
                # default page), so these two do not hold and are not asked.
                "positive_data_acceptance": {"enabled": False},
                "negative_data_rejection": {"enabled": False},
            },
        }
    ),
)
schema.app = application  # requests go to the WSGI application, in-process (as from_wsgi sets it)


@schema.hook
def before_generate_path_parameters(context, strategy):
    """Made-up path parameters, or ones that exist in the world."""
    path = context.operation.path
    existing = st.fixed_dictionaries(
        {
            parameter.name: _existing(_kind(path, parameter.name))
            for parameter in context.operation.path_parameters
        }
    )
    return st.one_of(strategy, existing)


def _kind(path: str, name: str) -> str:
    """`code`, `external_id` and `round_id` say what they name; an `id` is one of the collection
    before it ("/api/incidents/{id}/notes": "/api/incidents")."""
    return path.split("/{")[0] if name == "id" else name


def _existing(kind: str):
    # Deferred: strategies are made when the module is collected, the world when its tests run.
    return st.deferred(lambda: st.sampled_from(EXISTING[kind]))


def an_error_says_what_went_wrong(ctx, response, case):
    """Every 4xx is a JSON object: {"detail": "..."} or {"field": ["...", ...], ...}."""
    if not 400 <= response.status_code < 500:
        return None
    content_type = response.headers.get("content-type", [""])[0]
    assert content_type.startswith("application/json"), f"{response.status_code} as {content_type!r}"
    body = response.json()
    assert isinstance(body, dict) and body, f"{response.status_code} without a message: {body!r}"
    for field, messages in body.items():
        if field == "detail":
            assert isinstance(messages, str) and messages, f"an empty detail: {body!r}"
        else:
            assert isinstance(messages, list) and messages, f"{field!r} without messages: {body!r}"
            assert all(isinstance(m, str) and m for m in messages), f"{field!r}: not strings: {body!r}"
    return None


@pytest.fixture(scope="module")
def world(django_db_setup, django_db_blocker, tmp_path_factory):
    """The module's data, in a transaction rolled back after its last test; each test's own
    transaction (the `db` fixture) is a savepoint inside it. Yields each role's token."""
    reports_dir = tmp_path_factory.mktemp("reports")
    fast_hashing = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    with (
        django_db_blocker.unblock(),
        override_settings(PITBOSS_REPORTS_DIR=reports_dir, PASSWORD_HASHERS=fast_hashing),
        transaction.atomic(),
    ):
        call_command("seed_demo", stdout=StringIO())
        for document in round_documents():
            round_ingest(document=document)
        resettlement = resettlement_propose(
            round_=_wrongly_paid(), proposed_by=_user("compliance"), reason="Paid 5.00 short"
        )
        settled = Round.objects.filter(status="completed", bet_count__gt=0).exclude(
            resettlements__isnull=False
        )
        void = void_propose(
            round_=settled.order_by("id").first(),
            proposed_by=_user("supervisor"),
            reason="Card reader failed",
        )
        reports = report_rows(Table.objects.get(code="DLX1"), reports_dir)
        published_rtp_enter(  # a figure of record above the game's, for the list to show
            configuration=configuration_in_force(Table.objects.get(code="DLX1")),
            kind="main",
            rtp=Decimal("99.99"),
            source_document="Game rules, edition 3",
            published_on=date(2026, 1, 15),
            entered_by=_user("compliance"),
        )
        alert = alert_raise(
            table=Table.objects.get(code="DLX1"),
            monitor=Monitor.BIG_WIN,
            measure=Decimal(12000),
            threshold=Decimal(10000),
            summary="A win above the amount",
        )
        fault = fault_mark(
            alert=alert,
            by=_user("compliance"),
            what_happened="A shoe short of cards",
            affected_from=alert.first_seen - timedelta(hours=1),
            affected_to=alert.first_seen,
        )
        EXISTING.update(
            {
                "code": list(Table.objects.values_list("code", flat=True)),
                "external_id": ["P1001", "P2002", "T9001"],
                "round_id": list(Round.objects.values_list("round_id", flat=True)),
                "/api/incidents": list(Incident.objects.values_list("pk", flat=True)),
                "/api/resettlements": [resettlement.pk],
                "/api/voids": [void.pk],
                "/api/table-configurations": list(TableConfiguration.objects.values_list("pk", flat=True)),
                "/api/table-limits": list(TableLimit.objects.values_list("pk", flat=True)),
                "/api/personal-limits": list(PersonalLimit.objects.values_list("pk", flat=True)),
                "/api/reports/runs": [reports["reportrun"]],
                "/api/reports/daily-figures": [reports["dailyfigures"]],
                "/api/reports/table-summaries": [reports["dailytablesummary"]],
                "/api/reports/exposure": [reports["dailyexposure"]],
                "/api/reports/documents": [reports["reportdocument"]],
                "day": [ReportRun.objects.get(pk=reports["reportrun"]).day.isoformat()],
                "/api/alerts": [alert.pk],
                "/api/alerts/faults": [fault.pk],
            }
        )
        yield {
            role: token_create(user=_user(username))[1]
            for role, username in USERS.items()
            if username is not None
        }
        transaction.set_rollback(True)
    EXISTING.clear()


def _user(username: str):
    return get_user_model().objects.get(username=username)


def _wrongly_paid() -> Round:
    """The Deluxe split/double/behind fixture round, under new ids, its first bet paid 5.00 short."""
    document = round_document("deluxe-split-double-play-behind")
    document["round_id"] += "-W"
    document["shoe"] += "-W"
    for bet in document["bets"]:
        bet["bet_id"] += "-W"
    document["bets"][0]["returned"] = str(Decimal(document["bets"][0]["returned"]) - 5)
    return round_ingest(document=document).round


@pytest.fixture(scope="module")
def connection_kept():
    """Requests reach the application directly, not through Django's test client, so do what it
    does: keep the test's database connection (and its transaction) open across requests."""
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    yield
    request_started.connect(close_old_connections)
    request_finished.connect(close_old_connections)


@schema.parametrize()
@pytest.mark.parametrize("role", list(USERS))
@settings(
    max_examples=MAX_EXAMPLES,
    derandomize=True,
    database=None,
    deadline=None,
    # The world and the test's transaction are fixtures shared by a test's examples, on purpose.
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
def test_api(case, role, world, db, connection_kept):
    headers = {"Authorization": f"Token {world[role]}"} if role in world else {}
    response = case.call_and_validate(headers=headers, additional_checks=[an_error_says_what_went_wrong])
    if (case.operation.method.upper(), case.operation.path) in PUBLIC_OPERATIONS:
        assert response.status_code in (200, 304, 400, 404), response.text  # the same answer to anyone
    elif role == "anonymous":  # a 404 only for a URL that matches nothing, before any view
        assert response.status_code in (401, 404), response.text


@pytest.mark.django_db
def test_the_fuzzed_schema_is_the_one_served():
    served = client_as("compliance").get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    assert served.json() == generated_schema()

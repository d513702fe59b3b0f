"""A correction that names a round no one stored is refused the same way wherever it is asked for:
the re-settlement, void and incident pages and their API. The refusal names the `round` field with
one message, and nothing is stored. (A round whose month is archived is refused with how to restore
it: tests/archive/test_recall_corrections.py.)"""

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from rounds.models import Incident, Refund, Resettlement, Void
from tests.rounds.corrections_support import demo, demo_user, wrongly_paid  # noqa: F401

pytestmark = pytest.mark.usefixtures("demo")

UNKNOWN = "R-NOT-STORED"
REFUSAL = f"No round {UNKNOWN!r} is stored."


def client_as_demo(username: str, *, api: bool = False):
    """A client signed in as one of seed_demo's users: an API client, or a browser's."""
    if api:
        client = APIClient()
        client.force_authenticate(demo_user(username))
        return client
    client = Client()
    client.force_login(demo_user(username))
    return client


def stored() -> dict[str, int]:
    return {model.__name__: model.objects.count() for model in (Resettlement, Void, Incident, Refund)}


def open_incident() -> Incident:
    response = client_as_demo("supervisor", api=True).post(
        "/api/incidents/", {"table": "CLS1", "kind": "network_failure", "note": "froze"}, format="json"
    )
    assert response.status_code == 201, response.json()
    return Incident.objects.get(pk=response.json()["id"])


@pytest.mark.parametrize(
    ("role", "path", "body"),
    [
        ("compliance", "/api/resettlements/", {"round": UNKNOWN, "reason": "paid short"}),
        ("supervisor", "/api/voids/", {"round": UNKNOWN, "reason": "shuffler"}),
        ("supervisor", "/api/incidents/", {"table": "CLS1", "kind": "other", "note": "n", "round": UNKNOWN}),
        (
            "supervisor",
            "/api/incidents/{incident}/cancel-round",
            {"round": f" {UNKNOWN} ", "reason": "network"},
        ),
    ],
)
def test_the_api_refuses_an_unknown_round_naming_the_field(role, path, body):
    if "{incident}" in path:
        path = path.format(incident=open_incident().pk)
    before = stored()
    response = client_as_demo(role, api=True).post(path, body, format="json")
    assert response.status_code == 400, response.content
    assert response.json() == {"round": [REFUSAL]}
    assert stored() == before


@pytest.mark.parametrize(
    ("role", "path", "body"),
    [
        ("compliance", "/rounds/resettlements/new/", {"round": UNKNOWN, "reason": "paid short"}),
        ("supervisor", "/rounds/voids/new/", {"round": f" {UNKNOWN} ", "reason": "shuffler"}),
        (
            "supervisor",
            "/rounds/incidents/new/",
            {"table": "CLS1", "kind": "other", "round": UNKNOWN, "note": "n"},
        ),
    ],
)
def test_the_pages_refuse_an_unknown_round_beside_its_field(role, path, body):
    before = stored()
    response = client_as_demo(role).post(path, body)
    assert response.context["form"].errors == {"round": [REFUSAL]}
    assert stored() == before


@pytest.mark.parametrize(
    ("role", "path", "body"),
    [
        ("compliance", "/rounds/resettlements/new/", {"reason": "paid short"}),
        ("supervisor", "/rounds/voids/new/", {"reason": "shuffler"}),
    ],
)
@pytest.mark.parametrize("method", ["get", "post"])
def test_a_proposal_form_reads_the_round_it_names_once(role, path, body, method):
    """The page shows the round (GET) and proposes on it (POST): one read of it a request."""
    round_id = wrongly_paid().round_id
    client = client_as_demo(role)
    with CaptureQueriesContext(connection) as queries:
        getattr(client, method)(path, {"round": round_id, **body})
    # A round is found by its id through the registry (RoundQuerySet.by_round_id).
    reads = [q["sql"] for q in queries if 'FROM "rounds_roundkey"' in q["sql"] and '"round_id" =' in q["sql"]]
    assert len(reads) == 1, reads

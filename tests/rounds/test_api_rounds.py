"""POST /api/rounds/ (game servers) and GET /api/rounds/, /api/rounds/<round_id>/ (compliance,
supervisors): answers, batches, bad input, permissions per role."""

import copy
import io

import pytest
from django.core.management import call_command
from rest_framework.test import APIClient

from rounds.models import Bet, Finding, Incident, Round, Shoe
from tests.api_support import assert_denied, client_as
from tests.fixtures import ROUND_NAMES, round_document

ROUND_MODELS = (Round, Shoe, Bet, Finding, Incident)
URL = "/api/rounds/"

pytestmark = pytest.mark.django_db


def example(name: str = "deluxe-split-double-play-behind") -> dict:
    return round_document(name)


def nothing_stored() -> bool:
    return all(model.objects.count() == 0 for model in ROUND_MODELS)


@pytest.fixture
def demo(db):
    call_command("seed_demo", stdout=io.StringIO())


@pytest.fixture
def game_server(demo):
    return client_as("game_server")


def test_a_new_round_is_201_with_its_summary(game_server):
    document = example()
    response = game_server.post(URL, document, format="json")
    assert response.status_code == 201, response.content
    body = response.json()
    assert body["round_id"] == document["round_id"]
    assert body["status"] == "completed" and body["finding_count"] == 0
    assert body["computed_wagered"] == body["wagered"] == "96.25"  # tests/fixtures/README.md
    assert body["computed_returned"] == body["returned"] == "233.12"
    assert body["url"].endswith(f"/api/rounds/{document['round_id']}/")
    assert response["Location"] == body["url"]


def test_an_identical_resend_is_200_and_stores_nothing_more(game_server):
    document = example()
    assert game_server.post(URL, document, format="json").status_code == 201
    before = [model.objects.count() for model in ROUND_MODELS]
    response = game_server.post(URL, document, format="json")
    assert response.status_code == 200
    assert response.json()["round_id"] == document["round_id"]
    assert [model.objects.count() for model in ROUND_MODELS] == before


def test_a_changed_document_under_the_same_id_is_409_and_changes_nothing(game_server):
    document = example()
    game_server.post(URL, document, format="json")
    before = [model.objects.count() for model in ROUND_MODELS]
    changed = copy.deepcopy(document)
    changed["bets"][0]["returned"] = "1.00"
    response = game_server.post(URL, changed, format="json")
    assert response.status_code == 409
    assert "already stored" in response.json()["round_id"][0]
    assert [model.objects.count() for model in ROUND_MODELS] == before
    assert Round.objects.get().document == document


def _spoil(path, value):
    def spoil(document):
        *parents, last = path
        target = document
        for key in parents:
            target = target[key]
        if value is KeyError:
            del target[last]
        else:
            target[last] = value

    return spoil


@pytest.mark.parametrize(
    ("spoil", "field"),
    [
        (_spoil(["closed_at"], KeyError), "closed_at"),
        (_spoil(["spots", 1, "hands", 0, "cards", 1], "1X"), "spots[1].hands[0].cards[1]"),
        (_spoil(["bets", 2, "stake"], "-10.00"), "bets[2].stake"),
        (_spoil(["bets", 2, "wagered"], 10.5), "bets[2].wagered"),
        (_spoil(["table"], "XYZ9"), "table"),
    ],
)
def test_a_document_that_is_not_a_round_is_400_naming_the_field(game_server, spoil, field):
    document = example()
    spoil(document)
    response = game_server.post(URL, document, format="json")
    assert response.status_code == 400, response.content
    assert list(response.json()) == [field]
    assert nothing_stored()


def test_bad_json_is_400(game_server):
    response = game_server.post(URL, '{"format": 1, "round_id": ', content_type="application/json")
    assert response.status_code == 400
    assert "JSON" in response.json()["detail"]
    assert nothing_stored()


def test_a_batch_with_one_bad_document_is_refused_whole_naming_it(game_server):
    documents = [
        example("boundless-shared-deal-split-double"),
        example(),
        example("multiplayer-facilitator-blackjack-no-hole-card"),
        example(),
    ]
    documents[3]["round_id"] = "DLX1-S0412-099"
    documents[3]["bets"][2]["stake"] = "-5.00"
    response = game_server.post(URL, {"rounds": documents}, format="json")
    assert response.status_code == 400
    assert list(response.json()) == ["rounds[3].bets[2].stake"]
    assert nothing_stored()


def test_a_batch_answers_each_round_in_order(game_server):
    stored = example()
    game_server.post(URL, stored, format="json")
    changed = copy.deepcopy(stored)
    changed["closed_at"] = "2026-11-28T23:00:00Z"
    batch = [
        example("boundless-shared-deal-split-double"),
        stored,
        changed,
        example("multiplayer-facilitator-blackjack-no-hole-card"),
    ]
    response = game_server.post(URL, {"rounds": batch}, format="json")
    assert response.status_code == 200, response.content
    body = response.json()
    assert [result["status"] for result in body["results"]] == [201, 200, 409, 201]
    assert (body["stored"], body["already_stored"], body["conflicts"]) == (2, 1, 1)
    assert body["results"][0]["round"]["round_id"] == "BND1-S0233-008"
    assert "round_id" in body["results"][2]["errors"]
    assert Round.objects.count() == 3


@pytest.mark.parametrize("rounds", [[], "DLX1", None])
def test_a_batch_must_be_a_list_of_rounds(game_server, rounds):
    response = game_server.post(URL, {"rounds": rounds}, format="json")
    assert response.status_code == 400 and list(response.json()) == ["rounds"]


def test_a_game_server_token_ingests(demo):
    out = io.StringIO()
    call_command("create_user", "gs1", "--role", "game_server", stdout=out)
    token = next(line.split()[-1] for line in out.getvalue().splitlines() if "token" in line)
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    assert client.post(URL, example(), format="json").status_code == 201
    assert client.get(URL).status_code == 403


# --- reading ---------------------------------------------------------------------------------


@pytest.fixture
def stored(game_server):
    """Every fixture round, and the Deluxe split round again as the next round of its shoe with its
    first bet paid nothing."""
    for name in ROUND_NAMES:
        assert game_server.post(URL, round_document(name), format="json").status_code == 201
    document = example()
    document["round_id"] = "DLX1-S0412-026"
    document["number"] = 26  # after the fixtures' rounds 23-25 of shoe DLX1-S0412
    for bet in document["bets"]:
        bet["bet_id"] += "-8"
    document["bets"][0]["returned"] = "0.00"
    assert game_server.post(URL, document, format="json").status_code == 201


def test_the_list_is_newest_first_behind_a_cursor_with_no_count(stored):
    client = client_as("compliance")
    seen = []
    url = f"{URL}?page_size=3"
    while url:
        body = client.get(url).json()
        assert "count" not in body
        seen += [row["round_id"] for row in body["results"]]
        url = body["next"]
    ids = list(Round.objects.order_by("-id").values_list("round_id", flat=True))
    assert seen == ids and len(seen) == len(ROUND_NAMES) + 1


def test_the_list_takes_the_rounds_page_filters(stored):
    client = client_as("supervisor")
    rows = client.get(URL, {"table": "DLX1"}).json()["results"]
    deluxe = sum(1 for name in ROUND_NAMES if round_document(name)["table"] == "DLX1")
    assert {row["table"] for row in rows} == {"DLX1"} and len(rows) == deluxe + 1
    rows = client.get(URL, {"has_findings": "true"}).json()["results"]
    assert [row["round_id"] for row in rows] == ["DLX1-S0412-026"]
    rows = client.get(URL, {"status": "cancelled"}).json()["results"]
    assert [row["round_id"] for row in rows] == ["CLS1-S0088-018"]


def test_a_round_shows_spots_hands_bets_side_by_side_and_findings(stored):
    body = client_as("compliance").get(f"{URL}DLX1-S0412-026/").json()
    document = example()
    assert [spot["spot"] for spot in body["spots"]] == [spot["spot"] for spot in document["spots"]]
    assert body["spots"][0]["hands"][0]["cards"] == document["spots"][0]["hands"][0]["cards"]
    first = body["bets"][0]
    assert first["reported"]["returned"] == "0.00"
    assert first["computed"]["returned"] == document["bets"][0]["returned"]
    assert first["difference"] == document["bets"][0]["returned"]
    assert [(f["code"], f["bet"]) for f in body["findings"]] == [("wrong_returned", first["bet_id"])]
    assert body["configuration_version"] == 1


def test_an_unknown_round_is_404(stored):
    assert client_as("compliance").get(f"{URL}NOPE/").status_code == 404


# --- permissions -----------------------------------------------------------------------------

READERS = {"supervisor", "compliance"}  # customer service: through players' play records alone


@pytest.mark.parametrize("role", [None, "supervisor", "compliance", "customer_service", "game_server"])
def test_only_readers_read_rounds(stored, role):
    client = client_as(role)
    for url in (URL, f"{URL}DLX1-S0412-023/"):
        response = client.get(url)
        if role in READERS:
            assert response.status_code == 200
        else:
            assert_denied(response, role)


@pytest.mark.parametrize("role", [None, "supervisor", "compliance", "customer_service"])
def test_only_game_servers_ingest(demo, role):
    response = client_as(role).post(URL, example(), format="json")
    assert_denied(response, role)
    assert nothing_stored()

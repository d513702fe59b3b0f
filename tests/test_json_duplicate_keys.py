"""A JSON object that names a key twice is a 400 naming the key where it is, on every JSON body
(issue 44). The standard library's reader keeps the last of the two: `"returned": "0.00",
"returned": "500.00"` read as 500.00, a round stored with an amount the game server's own check may
have read as the other, and `"max_stake"` twice was a limit nobody could say was meant.

The answer names the object's place the way a round's other errors do (`bets[1].returned`,
`rounds[1].round_id`, `changes.seats`), so a game server sending thousands of bets knows which one.
The walk over every API route is tests/test_json_depth.py's (the same world, roles and statuses).
"""

import io
import json

import pytest
from django.core.management import call_command
from django.urls import reverse

from limits.models import TableLimit
from rounds.models import Bet, Round
from tests.api_support import client_as, make_table
from tests.fixtures import round_document
from tests.permission_matrix import ROLES
from tests.permission_world import arguments
from tests.rounds.bad_documents import SEATED
from tests.test_json_depth import BODY_METHODS, api_route_names, expected_statuses, world  # noqa: F401
from tests.test_permissions import client_as as client_with_session
from tests.test_permissions import stored

SENTINEL = "__the_first_of_two__"


def with_key_twice(document: dict, path: list, first: object) -> str:
    """`document` as JSON text with the key at `path` written twice: `first`, then its own value."""
    holder = document
    for step in path[:-1]:
        holder = holder[step]
    key, kept = path[-1], holder[path[-1]]
    holder[key] = SENTINEL
    text = json.dumps(document)
    once = f"{json.dumps(key)}: {json.dumps(SENTINEL)}"
    assert text.count(once) == 1
    return text.replace(
        once, f"{json.dumps(key)}: {json.dumps(first)}, {json.dumps(key)}: {json.dumps(kept)}"
    )


def post_round(client, body: str):
    return client.generic("POST", "/api/rounds/", body, content_type="application/json")


@pytest.fixture
def game_server(db):
    call_command("seed_demo", stdout=io.StringIO())
    return client_as("game_server")


@pytest.mark.parametrize(
    ("path", "first", "named"),
    [
        (["bets", 1, "returned"], "0.00", "bets[1].returned"),
        (["round_id"], "DLX1-OTHER-1", "round_id"),
        (["table"], "BND1", "table"),
        (["format"], 2, "format"),
        (["spots", 0, "hands", 0, "cards"], ["AS", "KD"], "spots[0].hands[0].cards"),
    ],
)
def test_a_round_with_a_key_twice_is_refused_naming_it_and_stores_nothing(game_server, path, first, named):
    body = with_key_twice(round_document(SEATED), path, first)
    response = post_round(game_server, body)
    assert response.status_code == 400, response.content[:300]
    answer = response.json()
    assert list(answer) == [named], answer
    assert f"'{path[-1]}' appears twice" in answer[named][0]
    assert not Round.objects.exists() and not Bet.objects.exists()


def test_a_batch_names_the_round_that_holds_the_key_twice(game_server):
    second = round_document(SEATED)
    second["round_id"] += "-2"
    batch = {"rounds": [round_document(SEATED), second]}
    body = with_key_twice(batch, ["rounds", 1, "bets", 2, "stake"], "1.00")
    response = post_round(game_server, body)
    assert response.status_code == 400
    assert list(response.json()) == ["rounds[1].bets[2].stake"], response.json()
    assert not Round.objects.exists()


def test_a_key_written_twice_in_two_spellings_is_the_same_key(game_server):
    """`"returned"` and `"r\\u0065turned"` are one key once read."""
    body = with_key_twice(round_document(SEATED), ["bets", 0, "returned"], "0.00")
    body = body.replace('"returned": "0.00"', '"r\\u0065turned": "0.00"', 1)
    response = post_round(game_server, body)
    assert response.status_code == 400
    assert list(response.json()) == ["bets[0].returned"]


def test_the_same_round_without_the_key_twice_is_stored(game_server):
    """The refusals above are for the key, not for the documents around it."""
    response = post_round(game_server, json.dumps(round_document(SEATED)))
    assert response.status_code == 201, response.json()


@pytest.mark.django_db
def test_a_table_limit_with_its_maximum_twice_is_refused_and_nothing_is_set():
    make_table()
    supervisor = client_as("supervisor")
    body = (
        '{"table": "DLX1", "kind": "pair", "min_stake": "1.00", "max_stake": "100.00", '
        '"max_stake": "1000000.00", "reason": "opening"}'
    )
    response = supervisor.generic("POST", "/api/table-limits/", body, content_type="application/json")
    assert response.status_code == 400
    assert list(response.json()) == ["max_stake"], response.json()
    assert "'max_stake' appears twice" in response.json()["max_stake"][0]
    assert not TableLimit.objects.filter(kind="pair").exists()


@pytest.mark.django_db
def test_a_key_twice_in_a_nested_object_is_named_by_its_place():
    make_table()
    supervisor = client_as("supervisor")
    body = '{"changes": {"seats": 5, "seats": 6}, "reason": "fewer", "seen_version": 1}'
    response = supervisor.generic(
        "POST", "/api/tables/DLX1/configurations/", body, content_type="application/json"
    )
    assert response.status_code == 400
    assert list(response.json()) == ["changes.seats"], response.json()


@pytest.mark.django_db
def test_detail_twice_is_named_in_the_message():
    """`detail` is the message of every error answer, a string (core.api.ERROR_SCHEMA)."""
    make_table()
    body = '{"detail": 1, "detail": 2}'
    response = client_as("supervisor").generic(
        "POST", "/api/table-limits/", body, content_type="application/json"
    )
    assert response.status_code == 400
    assert (
        isinstance(response.json()["detail"], str) and "'detail' appears twice" in response.json()["detail"]
    )


@pytest.mark.django_db
@pytest.mark.parametrize("name", api_route_names())
def test_a_key_twice_is_refused_on_every_route_for_every_role(name, world):  # noqa: F811
    url = reverse(name, kwargs=arguments(name, world))
    clients = {role: client_with_session(role) for role in (None, *ROLES)}
    problems = []
    before = stored()
    for role, client in clients.items():
        for method in BODY_METHODS:
            response = client.generic(
                method, url, '{"reason": "a", "reason": "b"}', content_type="application/json"
            )
            who = f"{method} {url} as {role or 'anonymous'}"
            status = response.status_code
            if status not in expected_statuses(name, method, role):
                problems.append(f"{who}: {status} {response.content[:200]!r}")
            elif status == 400 and "'reason' appears twice" not in response.json().get("reason", [""])[0]:
                problems.append(f"{who}: 400 without naming the key: {response.json()}")
    if stored() != before:
        problems.append(f"{url}: bodies with a key twice were refused, yet something was stored")
    assert not problems, "\n".join(problems)


def test_ingest_and_replay_refuse_a_file_with_a_key_twice(tmp_path, capsys, db):
    call_command("seed_demo", stdout=io.StringIO())
    path = tmp_path / "twice.json"
    path.write_text(with_key_twice(round_document(SEATED), ["bets", 1, "returned"], "0.00"))
    rounds = Round.objects.count()  # the walk's world may hold some
    with pytest.raises(SystemExit):
        call_command("ingest", str(path))
    assert (
        "twice.json: refused: bad JSON: bets[1].returned: the key 'returned' appears twice"
        in capsys.readouterr().err
    )
    assert Round.objects.count() == rounds
    with pytest.raises(SystemExit):
        call_command("replay", str(path), "--game", "deluxe")
    assert "twice.json: not a round document: bad JSON: bets[1].returned" in capsys.readouterr().err

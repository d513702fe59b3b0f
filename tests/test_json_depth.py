"""A JSON body nested deeper than the API reads is a 400 naming the problem, on every endpoint, before
the standard library's recursive reader can fail (issue 16: 1,500 nested brackets, 3 KB, gave a
RecursionError 500 on every JSON endpoint, to any role).

The walk sends the deep bodies to every API route, with POST, PUT and PATCH, as anonymous and as each
role, and expects what the permission matrix of tests/test_permissions.py says: 401 for anonymous, 403
for a role the route's method is not for, 403 or 405 for a method the route does not take, and 400
naming the nesting where the role may write; a public route (a rule sheet) takes no write: 405;
never a 5xx, and nothing stored. The routes the walk expects a 400 from are exactly the operations
of the OpenAPI schema that take a JSON body.

`json_nested_deeper_than` is also checked against the depth of what the JSON reader reads, for
generated documents (strings full of brackets, quotes and backslashes included).
"""

import json

import pytest
from django.db import transaction
from django.test import override_settings
from django.urls import reverse
from drf_spectacular.generators import SchemaGenerator
from hypothesis import given
from hypothesis import strategies as st

from core.parsers import MAX_JSON_DEPTH, json_nested_deeper_than
from tests.api_support import client_as as api_client_as
from tests.permission_matrix import PUBLIC, ROLES
from tests.permission_world import arguments, build_world
from tests.test_permissions import (
    client_as,
    is_api,
    matrix,
    roles_of,
    sessions_close,
    sessions_open,
    stored,
    url_names,
)

# The bodies the probe sent: 1,500 levels of arrays (3 KB), and of objects.
DEEP_ARRAY = "[" * 1500 + "]" * 1500
DEEP_OBJECT = '{"a":' * 1500 + "1" + "}" * 1500
# Unclosed: the reader recurses all the way down before it finds the body ends.
DEEP_UNCLOSED = "[" * 1500
DEEP_BODIES = {"arrays": DEEP_ARRAY, "objects": DEEP_OBJECT, "unclosed": DEEP_UNCLOSED}
BODY_METHODS = ("POST", "PUT", "PATCH")


def api_route_names() -> list[str]:
    return sorted(name for name in url_names() if is_api(name))


@pytest.fixture(scope="module")
def world(django_db_setup, django_db_blocker, tmp_path_factory):
    """test_permissions' world: one of each object the routes act on, rolled back at the end."""
    reports_dir = tmp_path_factory.mktemp("reports")
    with django_db_blocker.unblock(), override_settings(PITBOSS_REPORTS_DIR=reports_dir):
        with transaction.atomic():
            built = build_world(reports_dir)
            sessions_open()
            yield built
            sessions_close()
            transaction.set_rollback(True)


def expected_statuses(name: str, method: str, role: str | None) -> set[int]:
    if name in PUBLIC:  # a public route reads no body: every write is a 405, to anyone
        return {405}
    entry = matrix()[name]
    if role is None:
        return {401}
    if method not in entry:
        return {403, 405}
    return {400} if role in roles_of(entry[method]) else {403}


@pytest.mark.django_db
@pytest.mark.parametrize("name", api_route_names())
def test_a_deep_body_is_refused_on_every_route_for_every_role(name, world):
    url = reverse(name, kwargs=arguments(name, world))
    # Signed in first: signing in changes the user's last login.
    clients = {role: client_as(role) for role in (None, *ROLES)}
    problems = []
    before = stored()
    for role, client in clients.items():
        for method in BODY_METHODS:
            for shape, body in DEEP_BODIES.items():
                response = client.generic(method, url, body, content_type="application/json")
                who = f"{method} {url} as {role or 'anonymous'}, {shape}"
                status = response.status_code
                if status not in expected_statuses(name, method, role):
                    problems.append(f"{who}: {status} {response.content[:200]!r}")
                elif status == 400 and "nested more than" not in response.json()["detail"]:
                    problems.append(f"{who}: 400 without naming the nesting: {response.json()}")
    if stored() != before:
        problems.append(f"{url}: deep bodies were refused, yet something was stored")
    assert not problems, "\n".join(problems)


def json_body_operations() -> set[tuple[str, str]]:
    """(path template, METHOD) of every operation in the OpenAPI schema that takes a JSON body."""
    schema = SchemaGenerator().get_schema(request=None, public=True)
    return {
        (path, method.upper())
        for path, operations in schema["paths"].items()
        for method, operation in operations.items()
        if "application/json" in operation.get("requestBody", {}).get("content", {})
    }


@pytest.mark.django_db
def test_the_walk_expects_a_400_from_every_operation_that_takes_json(world):
    walked = {
        (reverse(name, kwargs=arguments(name, world)), method)
        for name in api_route_names()
        for method in BODY_METHODS
        if any(400 in expected_statuses(name, method, role) for role in ROLES)
    }
    schema = set()
    for template, method in json_body_operations():
        schema.add((template.format(**arguments_for_template(template, world)), method))
    assert walked == schema


def arguments_for_template(template: str, world: dict) -> dict:
    """The walk's URL arguments for a schema path ("/api/tables/{code}/"): those of the route that
    reverses to it."""
    for name in api_route_names():
        kwargs = arguments(name, world)
        path = reverse(name, kwargs=kwargs)
        named = {("id" if key == "pk" else key): value for key, value in kwargs.items()}
        try:
            if template.format(**named) == path:
                return named
        except KeyError:  # the template names a parameter this route does not have
            continue
    raise AssertionError(f"no route reverses to {template}")


def nested(depth: int) -> str:
    return "[" * depth + '"P1001"' + "]" * depth


@pytest.mark.django_db
def test_the_limit_is_the_depth_and_not_less(world):
    """A body nested exactly MAX_JSON_DEPTH deep is read (and refused by the view for its content);
    one level more is refused for its depth."""
    client = api_client_as("supervisor")
    body = {"table": "DLX1", "kind": "main", "amount": "5.00"}
    at_limit = json.dumps(body)[:-1] + ', "player": ' + nested(MAX_JSON_DEPTH - 1) + "}"
    response = client.generic("POST", "/api/limits/check", at_limit, content_type="application/json")
    assert response.status_code == 400
    assert "player" in response.json(), response.json()
    deeper = json.dumps(body)[:-1] + ', "player": ' + nested(MAX_JSON_DEPTH) + "}"
    response = client.generic("POST", "/api/limits/check", deeper, content_type="application/json")
    assert response.status_code == 400
    assert f"nested more than {MAX_JSON_DEPTH} levels deep" in response.json()["detail"]


@pytest.mark.django_db
def test_brackets_in_strings_are_text(world):
    """A note of 1,500 brackets, and escaped quotes around them, is text, not nesting."""
    client = api_client_as("supervisor")
    note = '"[{ ' * 1500 + "\\"
    body = json.dumps({"table": "CLS1", "kind": "other", "note": note})
    response = client.generic("POST", "/api/incidents/", body, content_type="application/json")
    assert response.status_code == 201, response.content[:300]
    assert response.json()["notes"][0]["text"] == note


def depth(value) -> int:
    if isinstance(value, list):
        return 1 + max(map(depth, value), default=0)
    if isinstance(value, dict):
        return 1 + max(map(depth, value.values()), default=0)
    return 0


tricky_text = st.text(alphabet='[]{}"\\ a\u00e9\u20ac', max_size=6)
json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | tricky_text,
    lambda children: st.lists(children, max_size=3) | st.dictionaries(tricky_text, children, max_size=3),
    max_leaves=30,
)


@given(value=json_values, limit=st.integers(min_value=0, max_value=6), ascii=st.booleans())
def test_the_scan_agrees_with_the_reader(value, limit, ascii):
    body = json.dumps(value, ensure_ascii=ascii).encode()
    assert json_nested_deeper_than(body, limit) == (depth(json.loads(body)) > limit)


@given(value=json_values, cut=st.integers(min_value=0), limit=st.integers(min_value=0, max_value=6))
def test_a_cut_off_body_is_refused_only_when_its_start_is_too_deep(value, cut, limit):
    """A body cut anywhere: refused exactly when its opened arrays and objects go deeper than the
    limit, which the reader would recurse into before finding the end."""
    text = json.dumps(value)
    body = text[: cut % (len(text) + 1)]
    opened = deepest_opening(body)
    assert json_nested_deeper_than(body.encode(), limit) == (opened > limit)


def deepest_opening(text: str) -> int:
    """The most arrays and objects open at once in a prefix of json.dumps output (a reference, one
    character at a time)."""
    level = deepest = 0
    in_string = escaped = False
    for char in text:
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            level += 1
            deepest = max(deepest, level)
        elif char in "]}":
            level -= 1
    return deepest


@pytest.mark.django_db
def test_a_deep_body_in_another_charset_is_refused(world):
    client = api_client_as("supervisor")
    for charset in ("utf-16", "latin-1"):
        response = client.generic(
            "POST",
            "/api/incidents/",
            DEEP_ARRAY.encode(charset),
            content_type=f"application/json; charset={charset}",
        )
        assert response.status_code == 400, (charset, response.content[:200])
        assert "nested more than" in response.json()["detail"]
    body = json.dumps({"table": "CLS1", "kind": "other", "note": "[" * 100 + "\u20ac"}, ensure_ascii=False)
    response = client.generic(
        "POST", "/api/incidents/", body.encode("utf-16"), content_type="application/json; charset=utf-16"
    )
    assert response.status_code == 201, response.content[:200]

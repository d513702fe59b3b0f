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
arguments in `arguments`). The matrix is tests/permission_matrix.py, the world
tests/permission_world.py. The world (one of each object) is built once for the module; each test
runs in a savepoint rolled back after it.
"""

import pytest
from django.apps import apps
from django.contrib.auth import get_user_model
from django.db import transaction
from django.test import override_settings
from django.urls import URLPattern, URLResolver, get_resolver, reverse
from rest_framework.test import APIClient

from accounts.roles import ROLE_SLUGS
from tests.factories import user
from tests.permission_matrix import (
    ENDPOINTS,
    OWN_ACCOUNT,
    OWNER_ONLY,
    PAGE_METHODS,
    PAGES,
    PUBLIC,
    PUBLIC_SHEETS,
    QUESTIONS,
    ROLES,
    SIGNED_IN,
    STORED_APPS,
    WRITES,
    A,
    C,
    Needs,
    S,
)
from tests.permission_world import arguments, body_of, build_world
from tests.second_factor_support import ENROL
from tests.walk_support import OWN_SECOND_FACTOR_PAGES, RoleSessions, unenrolled_client


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
@pytest.mark.parametrize("role", [S, C, A])
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

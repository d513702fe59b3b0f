"""Every page, as each role, with query strings hypothesis makes up: never a server error.

The pages are the URL conf's: every route a browser can GET, outside the admin and the API (which
tests/test_api_fuzz.py fuzzes), so a new page is covered without an entry here. The query names a
page reads are its filterset's fields, read from the view (`filterset_class`), or those of the forms
FORMS names for it, and on a list page `page`, `per_page`, `sort` (its table's columns), `_export`
and the keyset cursors `before` and `after`, and any name its view's module reads itself
(`request.GET.get("x")`); the names other pages read (`common`) come along too.

Each query string starts with a name the page reads and an edge value for it (9999-12-31,
0001-01-01, 2**63, a moment at +23:59, NaN, a format the lists do not offer), then up to four more
pairs, each value one the field takes (a choice, an existing table code or round id), an edge one,
or junk (NUL, a lone surrogate, invalid UTF-8, SQL and HTML metacharacters, 5,000 characters); now
and then an unknown key, a repeated one, a key without '='. It reaches the view as from a WSGI
server: bytes read as Latin-1, percent-encoded or not. Each page and role has its own examples,
the same on every run (a seed of their names).

Checked on every response: no 5xx (the client raises the view's exception, and hypothesis shows it
with the request); to a role the page refuses without a query, 403 whatever the query.

The data (seed_demo's tables, limits, players and users, the fixture rounds, a re-settlement, a
void, a configuration proposal, a day of report rows) is built once for the module, in a
transaction rolled back after it; each request runs in a savepoint, so a database error in one
(PostgreSQL refuses a statement, and the transaction with it) cannot hide behind the next.
"""

import inspect
import re
import zlib
from datetime import UTC, date, datetime, timedelta, timezone
from decimal import Decimal
from io import StringIO
from typing import NamedTuple
from urllib.parse import quote, quote_plus

import pytest
from django import forms
from django.conf import settings as django_settings
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.db import transaction
from django.test import Client, override_settings
from django.urls import URLPattern, reverse
from django_filters import FilterSet
from django_filters.views import FilterMixin
from hypothesis import HealthCheck, given, note, seed, settings
from hypothesis import strategies as st
from rest_framework.views import APIView

from accounts.roles import ROLE_SLUGS
from limits.forms import PersonalLimitScopeForm
from rounds.filtersets import BetFilterSet
from rounds.forms import PlayRecordPeriodForm
from tests.permission_matrix import PUBLIC
from tests.routes_support import routes, view_class_of

LIST_EXAMPLES = 30  # query strings per list or report page and role that may see it
READER_EXAMPLES = 12  # per other page that reads the query, and role that may see it
OTHER_EXAMPLES = 5  # per other page and role that may see it
REFUSED_EXAMPLES = 3  # per page and role it refuses: the permission is checked before the query
ROLES = tuple(ROLE_SLUGS)
# The pages that read a form from the query that is not their view's filterset.
FORMS = {
    "rounds:play_record": (BetFilterSet, PlayRecordPeriodForm),
    "limits:personal_limit_set": (PersonalLimitScopeForm,),
}
# Pages that must be among the list and report pages found: the walk cannot lose them unseen.
KNOWN_LISTS = {
    "tables:table_list",
    "tables:published_rtp_list",
    "limits:player_list",
    "limits:personal_limit_list",
    "limits:table_limit_list",
    "rounds:round_list",
    "rounds:play_record",
    "rounds:incident_list",
    "rounds:incident_refunds",
    "rounds:resettlement_list",
    "rounds:void_list",
    "reports:archive",
    "reports:daily_report",
    "reports:exposure_report",
    "reports:run_list",
    "alerts:alert_list",
    "alerts:silence_list",
    "alerts:threshold_list",
    "alerts:fault_list",
    "notifications:webhook_list",
    "notifications:delivery_list",
    "staff:users",
    "staff:changes",
    "staff:sign_ins",
    "staff:sign_in_days",
    "staff:token_uses",
}
# A route's pk names a row of its view's model; where the view names none, here.
PK_MODELS = {
    "staff:user": "auth.User",
    "staff:change": "staff.AccountChange",  # the demo's account awaiting a second administrator
    "staff:sign_in_review": "accounts.SignInEvent",
    "reports:document_download": "reports.ReportDocument",
    "rounds:incident_refunds": "rounds.Incident",
}

# --- the pages ------------------------------------------------------------------------------------


def takes_get(pattern: URLPattern) -> bool:
    view = view_class_of(pattern)
    if view is None:
        return True  # a function view: it answers GET or says 405
    if issubclass(view, APIView):
        return False
    return "get" in view.http_method_names and hasattr(view, "get")


def pages() -> dict[str, URLPattern]:
    return {name: pattern for name, pattern in routes() if takes_get(pattern)}


def forms_of(name: str, pattern: URLPattern) -> tuple:
    view = view_class_of(pattern)
    if view is not None and issubclass(view, FilterMixin) and view.filterset_class is not None:
        return (view.filterset_class, *FORMS.get(name, ()))
    return FORMS.get(name, ())


def is_list(name: str, pattern: URLPattern) -> bool:
    """A list or report page: one that filters with a filterset."""
    return any(issubclass(form_class, FilterSet) for form_class in forms_of(name, pattern))


def cases():
    for name in sorted(pages()):
        for role in ROLES + (("anonymous",) if name in PUBLIC else ()):
            yield pytest.param(name, role, id=f"{name}-{role}")


def test_the_walk_finds_every_list_and_report_page():
    found = {name for name, pattern in pages().items() if is_list(name, pattern)}
    assert KNOWN_LISTS <= found, f"not found as list pages: {sorted(KNOWN_LISTS - found)}"
    assert not set(FORMS) - set(pages()), f"FORMS names no page: {sorted(set(FORMS) - set(pages()))}"


# --- the data -------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def world(django_db_setup, django_db_blocker, tmp_path_factory):
    """The module's data, rolled back after its last test. Yields the values that exist, by kind."""
    reports_dir = tmp_path_factory.mktemp("reports")
    fast_hashing = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    with (
        django_db_blocker.unblock(),
        override_settings(PITBOSS_REPORTS_DIR=reports_dir, PASSWORD_HASHERS=fast_hashing),
        transaction.atomic(),
    ):
        yield build_world(reports_dir)
        transaction.set_rollback(True)


def build_world(reports_dir) -> dict:
    from limits.models import Player
    from reports.models import ReportRun
    from rounds.ingest import round_ingest
    from rounds.models import Bet, Round
    from rounds.services import resettlement_propose, void_propose
    from tables.models import Table, TableConfiguration
    from tables.services import configuration_propose
    from tests.factories import report_rows
    from tests.fixtures import round_document, round_documents

    call_command("seed_demo", stdout=StringIO())
    for document in round_documents():
        round_ingest(document=document)
    users = get_user_model().objects
    wrong = round_document("deluxe-split-double-play-behind")
    wrong["round_id"] += "-W"
    wrong["shoe"] += "-W"
    for bet in wrong["bets"]:
        bet["bet_id"] += "-W"
    wrong["bets"][0]["returned"] = str(Decimal(wrong["bets"][0]["returned"]) - 5)
    resettlement_propose(
        round_=round_ingest(document=wrong).round,
        proposed_by=users.get(username="compliance"),
        reason="Paid 5.00 short",
    )
    settled = Round.objects.filter(status="completed", bet_count__gt=0, resettlements__isnull=True)
    void_propose(
        round_=settled.order_by("id").first(), proposed_by=users.get(username="supervisor"), reason="x"
    )
    configuration_propose(
        table=Table.objects.get(code="CLS1"),
        changes={"seats": 6},
        proposed_by=users.get(username="supervisor"),
        reason="Fewer seats",
    )
    report_rows(Table.objects.get(code="DLX1"), reports_dir)
    published_of(users)
    alerts_of(Table.objects.get(code="DLX1"), users)
    notifications_of(Table.objects.get(code="DLX1"), users)
    break_glass_of(users.get(username="administrator"))
    rounds = Round.objects.order_by("id")
    bets = Bet.objects.select_related("round").order_by("id")
    return {
        "text": [
            *Table.objects.values_list("code", flat=True),
            *rounds.values_list("round_id", flat=True),
            *rounds.values_list("shoe__code", flat=True),
            *Player.objects.values_list("external_id", flat=True),
        ],
        "number": [
            *(str(pk) for pk in rounds.values_list("pk", flat=True)),
            *(str(pk) for pk in ReportRun.objects.values_list("pk", flat=True)),
            *(str(v) for v in TableConfiguration.objects.values_list("version", flat=True)),
        ],
        "date": [day.isoformat() for day in rounds.values_list("gaming_day", flat=True)] + ["2026-11-28"],
        "cursor": [str(pk) for pk in rounds.values_list("pk", flat=True)]
        + [f"{bet.round.opened_at.isoformat()}_{bet.pk}" for bet in bets],
    }


def published_of(users) -> None:
    """A published RTP of each table's version in force: DLX1's above the game's, CLS1's at or below."""
    from tables.models import Table
    from tables.published import published_rtp_enter
    from tables.selectors import configuration_in_force

    for code, rtp in (("DLX1", "99.99"), ("CLS1", "95.00")):
        published_rtp_enter(
            configuration=configuration_in_force(Table.objects.get(code=code)),
            kind="main",
            rtp=Decimal(rtp),
            source_document="Game rules, edition 3",
            source_url="https://operator.example/rules",
            published_on=date(2026, 1, 15),
            entered_by=users.get(username="compliance"),
        )


def alerts_of(dlx, users) -> None:
    """An alert resolved and marked reportable, an open one, a silence, a change awaiting compliance."""
    from alerts.faults import fault_mark
    from alerts.services import alert_raise, alert_resolve, silence_add
    from alerts.thresholds import threshold_propose

    supervisor, compliance = users.get(username="supervisor"), users.get(username="compliance")
    marked = alert_raise(
        table=dlx, monitor="big_win", measure=Decimal(12000), threshold=Decimal(10000), summary="A big win."
    )
    alert_resolve(alert=marked, by=compliance, note="Checked.")
    fault_mark(
        alert=marked,
        by=compliance,
        what_happened="A short shoe.",
        affected_from=marked.first_seen - timedelta(hours=1),
        affected_to=marked.last_seen,
    )
    drift = {"monitor": "rtp_drift", "subject": "pair", "summary": "Drift."}
    alert_raise(table=dlx, measure=Decimal(7), threshold=Decimal(5), **drift)
    silence_add(table=dlx, by=supervisor, minutes=30, reason="Maintenance")
    threshold_propose(monitor="big_win", value="20000", reason="Higher", by=supervisor, game="deluxe")


def notifications_of(dlx, users) -> None:
    """A supervisor's subscription, a webhook endpoint of DLX1's alerts, a failed delivery to it of an
    alert's raising and a test's email, sent."""
    from alerts.models import AlertEvent
    from notifications.models import Delivery, Subscription, WebhookEndpoint

    supervisor = users.get(username="supervisor")
    Subscription.objects.create(user=supervisor, monitors=["silent_table"], email="sup@casino.example")
    endpoint = WebhookEndpoint.objects.create(
        owner=supervisor, name="Ops pager", url="https://hooks.example/ops", secret="s" * 64
    )
    endpoint.tables.set([dlx])
    Delivery.objects.create(
        event=AlertEvent.objects.order_by("id").first(),
        channel="webhook",
        endpoint=endpoint,
        address=endpoint.url,
        status="failed",
        attempts=6,
        last_error="HTTP 503",
    )
    Delivery.objects.create(channel="email", user=supervisor, address="sup@casino.example", status="sent")


def break_glass_of(administrator) -> None:
    """A break-glass sign-in for compliance to review (accounts.sign_in_record)."""
    from accounts.models import SignInEvent

    SignInEvent.objects.create(
        at=datetime.now(UTC),
        day=date.today(),
        kind=SignInEvent.Kind.SUCCESS,
        username=administrator.username,
        user=administrator,
        address="192.0.2.9",
        method=SignInEvent.Method.PASSWORD,
        break_glass=True,
        provider_answered=False,
    )


def url_of(name: str, pattern: URLPattern) -> str:
    from django.apps import apps

    from rounds.models import Round

    kwargs = {}
    if name.startswith("openid_connect_"):  # single sign-on's provider, named in an outer pattern
        kwargs["provider_id"] = django_settings.PITBOSS_OIDC_PROVIDER_ID
    for key in pattern.pattern.regex.groupindex:
        if key == "code":
            kwargs[key] = "CLS1"  # the table with a configuration proposal
        elif key == "external_id":
            kwargs[key] = "P1001"
        elif key == "round_id":
            kwargs[key] = Round.objects.filter(bet_count__gt=0).order_by("id").values_list("round_id")[0][0]
        elif key == "day":  # a day's pack: the day of the world's report run
            kwargs[key] = apps.get_model("reports.ReportRun").objects.latest("pk").day
        elif key == "lang":
            kwargs[key] = "fil"  # the one language a rule sheet's URL names
        elif key == "version":
            versions = apps.get_model("tables.TableConfiguration").objects.filter(table__code="CLS1")
            kwargs[key] = versions.latest("version").version  # its proposal's
        elif key == "pk":
            view = view_class_of(pattern)
            model = apps.get_model(PK_MODELS[name]) if name in PK_MODELS else getattr(view, "model", None)
            assert model is not None, f"{name}: say in PK_MODELS which model its pk names"
            kwargs[key] = model.objects.order_by("pk").values_list("pk", flat=True)[0]
        else:
            raise AssertionError(f"{name}: no value for the URL argument {key!r}; add one in url_of")
    return reverse(name, kwargs=kwargs)


# --- the values -----------------------------------------------------------------------------------

LONG = "x" * 5000
JUNK = [
    *("", " ", "  \t\n", "\x00", "a\x00b", "\ud800", "\udfff", "x\udc80y", "\u202e", "\ufeff", "é", "𝟘"),
    *("٣", "１２", "NaN", "nan", "-NaN", "inf", "-Infinity", "1e999", "-1e999", "1e-999", "0", "-0"),
    *("-1", "0.5", "1.5", "1,5", "1_000", "0x10", "+1", "2**63", "true", "null", "None", "[]", "{}"),
    *(str(2**63 - 1), str(2**63), str(-(2**63) - 1), str(2**64), "9" * 400, LONG),
    *("'", '"', "' OR '1'='1", "1; DROP TABLE rounds_round; --", "%", "_", "%_%", "\\", "*", "?"),
    *("<script>alert(1)</script>", "&amp;", "&", "=", "#", "+", "../..", "DLX1\x00", " DLX1 "),
]
EDGE_DATES = [
    *("9999-12-31", "0001-01-01", "0001-01-29", "0000-00-00", "10000-01-01", "-0001-01-01"),
    *("2024-02-29", "2026-02-29", "2026-13-01", "2026-00-10", "20261128", "11/28/2026", "28.11.2026"),
    *("2026-11-28T00:00", "2026-W48-6", "2026-332", "9999-12-31 ", "\x009999-12-31"),
]
# Moments at the calendar's ends and on an ordinary day, at offsets Python takes and PostgreSQL
# (up to 15:59) may not; and malformed ones.
MOMENT_DAYS = ["0001-01-01T00:00:00", "9999-12-31T23:59:59", "9999-12-31T23:59:59.999999", "2026-11-28T12:00"]
OFFSETS = ["Z", "+00:00", "+01:00", "-01:00", "+15:59", "+16:00", "-16:00", "+23:59", "-23:59"]
BAD_MOMENTS = ["2026-11-28 12:00", "2026-11-28T12:00:00+99:00", "2026-11-28T24:00", "2026-11-28"]
EDGE_NUMBERS = [
    *("-1", "0", "-0", "1e3", "1.5", str(2**31), str(2**62), str(2**63 - 1), str(2**63), str(2**64)),
    *(str(-(2**63)), str(-(2**63) - 1), str(10**20), "9" * 30, "-9-9", "NaN", "Infinity", "0x1"),
    *("²", "①", "١", "１", "٣٤", "𝟘"),  # digits to str.isdigit(), not all of them to int()
]
BOOLEANS = ["true", "false", "True", "FALSE", "1", "0", "2", "unknown", "yes", "on", "null"]
EXPORTS = ["csv", "CSV", "json", "xlsx", "xls", "ods", "latex", "tsv", "yaml", "pdf", "1"]


def weighted(*choices: tuple[int, st.SearchStrategy]) -> st.SearchStrategy:
    """One of the strategies, by weight (st.one_of flattens and deduplicates its branches, so a
    strategy repeated there counts once)."""
    return st.sampled_from([strategy for weight, strategy in choices for _ in range(weight)]).flatmap(
        lambda strategy: strategy
    )


junk = st.one_of(
    st.sampled_from(JUNK),
    st.text(max_size=30),
    st.text(st.characters(codec=None, categories=["Cs", "Cc", "Zs", "Sm", "Po"]), max_size=10),
)


class Values(NamedTuple):
    """A query name's values: ones its field takes, and edge ones (where server errors hide)."""

    valid: st.SearchStrategy
    edge: st.SearchStrategy

    def mixed(self) -> st.SearchStrategy:
        return weighted((1, self.valid), (2, self.edge), (1, junk))


offsets = st.integers(-(24 * 60 - 1), 24 * 60 - 1).map(lambda m: timezone(timedelta(minutes=m)))
edge_moments = weighted(
    (3, st.tuples(st.sampled_from(MOMENT_DAYS), st.sampled_from(OFFSETS)).map("".join)),
    (1, st.sampled_from(BAD_MOMENTS)),
)
moments = Values(
    st.datetimes(timezones=st.one_of(st.none(), st.just(UTC), offsets)).map(datetime.isoformat),
    edge_moments,
)
edge_numbers = weighted(
    (2, st.sampled_from(EDGE_NUMBERS)), (1, st.integers().map(str)), (1, st.floats().map(str))
)
numbers = Values(st.integers(-2, 60).map(str), edge_numbers)


def existing(world: dict, kind: str):
    return st.sampled_from(world[kind])


def dates(world: dict) -> Values:
    return Values(
        st.one_of(existing(world, "date"), st.dates().map(date.isoformat)), st.sampled_from(EDGE_DATES)
    )


def cursors(world: dict) -> Values:
    """Keyset cursors: `<id>` (the round list) or `<moment>_<id>` (the play record)."""
    ids = st.one_of(existing(world, "number"), st.sampled_from(EDGE_NUMBERS), st.integers().map(str))
    return Values(
        existing(world, "cursor"), weighted((3, st.tuples(edge_moments, ids).map("_".join)), (1, ids))
    )


def choices(values: list[str]) -> Values:
    return Values(st.sampled_from(values or [""]), st.sampled_from(JUNK))


def field_values(field: forms.Field, world: dict) -> Values:
    """Values for a form field of a filterset or a form, by its type."""
    if isinstance(field, forms.DateTimeField):
        return moments
    if isinstance(field, forms.DateField):
        return dates(world)
    if isinstance(field, forms.IntegerField | forms.DecimalField | forms.FloatField):
        return Values(existing(world, "number"), edge_numbers)
    if isinstance(field, forms.NullBooleanField | forms.BooleanField):
        return choices(BOOLEANS)
    if isinstance(field, forms.ModelChoiceField | forms.CharField):
        return Values(existing(world, "text"), st.sampled_from(JUNK))
    if isinstance(field, forms.ChoiceField):
        return choices([str(value) for value, _ in field.choices if not isinstance(value, list | tuple)])
    return Values(junk, junk)


def common(world: dict) -> dict[str, Values]:
    """Query names some page reads, each with its values."""
    text = Values(existing(world, "text"), st.sampled_from(JUNK))
    return {
        "page": numbers,
        "per_page": numbers,
        "sort": choices(["id", "-id", "opened_at", "-opened_at", "table", "-status", "-", "--id"]),
        "_export": choices(EXPORTS),
        "before": cursors(world),
        "after": cursors(world),
        "cursor": cursors(world),
        "day": dates(world),
        "first": dates(world),
        "last": dates(world),
        "run": Values(existing(world, "number"), edge_numbers),
        "version": Values(existing(world, "number"), edge_numbers),
        "lines": numbers,
        "spots": numbers,
        "findings": choices(BOOLEANS),
        "kind": choices(["main", "pair", "behind", "insurance", "other", "daily_rtp"]),
        "round": text,
        "table": text,
        "player": text,
        "q": text,
        "status": choices(["open", "completed", "proposed", "approved", "succeeded"]),
        "next": choices(["/rounds/", "//evil.example", "https://evil.example/", "javascript:1"]),
    }


LIST_NAMES = ("page", "per_page", "sort", "_export", "before", "after")  # every list page reads these


# What a view's module reads from the query itself: request.GET.get("x"), params.get("x").
READS = re.compile(r"""(?:GET|params)\.get(?:list)?\(\s*["']([^"']+)["']""")


def names_read(pattern: URLPattern) -> set[str]:
    view = view_class_of(pattern) or pattern.callback
    return set(READS.findall(inspect.getsource(inspect.getmodule(view))))


def query_names(name: str, pattern: URLPattern, world: dict) -> tuple[dict, dict]:
    """The names the page reads, each with its values (its forms' fields; on a list, LIST_NAMES,
    sorting by its table's columns; those its view's module reads), and the other names of
    `common`."""
    names = common(world)
    view = view_class_of(pattern)
    table_class = getattr(view, "table_class", None)
    if table_class is not None:
        columns = [column.name for column in table_class([]).columns]
        names["sort"] = choices(columns + [f"-{column}" for column in columns] + ["-", "x"])
    text = Values(existing(world, "text"), st.sampled_from(JUNK))
    own = {key: names.get(key, text) for key in names_read(pattern)}
    if is_list(name, pattern):
        own.update({key: names[key] for key in LIST_NAMES})
    for form_class in forms_of(name, pattern):
        fields = form_class().form.fields if issubclass(form_class, FilterSet) else form_class.base_fields
        own.update({field_name: field_values(field, world) for field_name, field in fields.items()})
    return own, {key: values for key, values in names.items() if key not in own}


def encoded(text: str):
    """`text` in a query string as a client might send it: percent-encoded UTF-8 (a lone surrogate
    as the bytes it would have), '+' for spaces, or raw bytes (what WSGI reads as Latin-1)."""
    raw = text.encode("utf-8", "surrogatepass")
    escaped = quote(raw, safe="")
    return st.sampled_from([escaped, escaped, escaped, quote_plus(raw, safe="%"), raw.decode("latin-1")])


@st.composite
def query_strings(draw, own: dict[str, Values], others: dict[str, Values]):
    """A name the page reads with an edge value, then up to 4 more pairs: mostly the page's names,
    some other pages', now and then an unknown key; any value; a name may come more than once."""
    first = draw(st.sampled_from(sorted(own or others)))
    pairs = [(first, draw((own.get(first) or others[first]).edge))]
    for _ in range(draw(st.integers(0, 4))):
        pick = draw(st.integers(0, 9))
        if pick == 9:
            pairs.append((draw(junk), draw(junk)))
            continue
        names = own if own and (pick < 6 or not others) else others
        key = draw(st.sampled_from(sorted(names)))
        pairs.append((key, draw(names[key].mixed())))
    draw(st.randoms()).shuffle(pairs)
    parts = []
    for key, value in pairs:
        part = draw(encoded(key))
        if draw(st.sampled_from([True] * 19 + [False])):  # now and then a key without '='
            part += "=" + draw(encoded(value))
        parts.append(part)
    return draw(st.sampled_from(["&", "&", "&&", ";"])).join(parts)


# --- the test -------------------------------------------------------------------------------------


@pytest.mark.django_db
@pytest.mark.parametrize(("name", "role"), list(cases()))
def test_no_query_string_makes_a_page_fail(name, role, world):
    pattern = pages()[name]
    url = url_of(name, pattern)
    client = Client(raise_request_exception=True)
    if role != "anonymous":  # anonymous: the public pages (sign-in, the rule sheets)
        client.force_login(get_user_model().objects.get(username=role.replace("_", "-")))  # seed_demo's
    refused = client.get(url).status_code == 403
    own, others = query_names(name, pattern, world)
    if refused:
        examples = REFUSED_EXAMPLES
    else:
        examples = LIST_EXAMPLES if is_list(name, pattern) else READER_EXAMPLES if own else OTHER_EXAMPLES

    @settings(
        max_examples=examples,
        database=None,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )
    @given(query=query_strings(own, others))
    # Reproducible like derandomize=True, which would give every case the same seed (one function).
    @seed(zlib.crc32(f"{name} {role}".encode()))
    def page_answers(query):
        note(f"GET {url}?{query}")
        with transaction.atomic():
            response = client.get(url, QUERY_STRING=query)
        assert response.status_code < 500, (response.status_code, response.content[:300])
        if refused:
            assert response.status_code == 403, response.status_code

    page_answers()

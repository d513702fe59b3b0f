"""Every list's rows, rendered in one pass by config/table_rows.py, are django-tables2's own HTML."""

import itertools
import re
from decimal import Decimal

import django_tables2 as tables
import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.template import Context, Template
from django.test import RequestFactory
from django.urls import reverse

from config.listing import BadgeColumn, MoneyColumn, UtcDateTimeColumn
from limits.models import Player
from limits.services import personal_limit_set
from rounds.models import Round
from rounds.review import round_review
from rounds.services import incident_open, resettlement_propose
from tables.models import Table
from tests.fixtures import round_document
from tests.rounds.corrections_support import ingest, renamed, wrongly_paid

pytestmark = pytest.mark.django_db

LISTS = [
    ("tables:table_list", ()),
    ("limits:player_list", ()),
    ("limits:table_limit_list", ()),
    ("limits:personal_limit_list", ()),
    ("rounds:round_list", ()),
    ("rounds:round_list", ({"has_findings": "true"})),
    ("rounds:play_record", ("P7101",)),  # the seated player of wrongly_paid's split round
    ("rounds:incident_list", ()),
    ("rounds:resettlement_list", ()),
    ("reports:archive", ()),
    ("reports:run_list", ()),
]


def rendered(table, request, template_name: str) -> str:
    """The table through `{% render_table %}` with the given template, whitespace between tags dropped."""
    table._counter = itertools.count()  # even/odd rows count from the first, as for a new rendering
    page = Template("{% load django_tables2 %}{% render_table table template_name %}")
    html = page.render(Context({"table": table, "request": request, "template_name": template_name}))
    return re.sub(r"\s+", " ", re.sub(r">\s+<", "><", html)).strip()


def assert_rows_as_django_tables2(table, request):
    ours = rendered(table, request, "includes/table.html")
    assert ours == rendered(table, request, "django_tables2/table.html")
    return ours


@pytest.fixture
def history():
    call_command("seed_demo", verbosity=0)
    users = get_user_model().objects
    for name in (
        "deluxe-surrender-auto-play",
        "boundless-shared-deal-split-double",
        "classic-perfect-pairs-21-plus-3-behind",
    ):
        ingest(round_document(name))
    ingest(renamed(round_document("classic-network-failure-refunds"), "-X"))
    wrong = wrongly_paid()
    resettlement_propose(round_=wrong, proposed_by=users.get(username="compliance"), reason="Short paid.")
    round_review(round_=wrong, reviewed_by=users.get(username="compliance"), comment="Seen.")
    incident_open(
        table=Table.objects.get(code="DLX1"),
        kind="other",
        opened_by=users.get(username="supervisor"),
        note="x",
    )
    personal_limit_set(
        player=Player.objects.get(external_id="P1001"),
        changed_by=users.get(username="customer-service"),
        reason="Asked for it.",
        max_stake=Decimal("50.00"),
    )


@pytest.mark.parametrize("name,args", LISTS)
def test_every_list_shows_the_rows_django_tables2_would(client, history, name, args):
    client.force_login(get_user_model().objects.get(username="supervisor"))
    query = args if isinstance(args, dict) else {}
    response = client.get(reverse(name, args=() if query else args), query)
    assert response.status_code == 200
    html = assert_rows_as_django_tables2(response.context["table"], response.wsgi_request)
    assert html.count("<tr") > 1 or name in ("reports:archive", "reports:run_list")


class Everything(tables.Table):
    """A column of every kind the project uses, and the corners of django-tables2's cell rules."""

    round_id = tables.Column(linkify=True, attrs={"td": {"class": "code"}})
    table = tables.Column(accessor="table__code", linkify=("tables:table_detail", [tables.A("table__code")]))
    status = BadgeColumn()
    cancel_reason = tables.Column()  # choices, mostly blank: the default
    opened_at = UtcDateTimeColumn()
    wagered = MoneyColumn(currency="table__currency")
    players = tables.Column(localize=True)
    bet_count = tables.Column(localize=False)
    reviewed_by = tables.Column(default="nobody")
    missing = tables.Column(accessor="table__no_such_thing")
    method = tables.Column(accessor="get_absolute_url")
    computed = tables.Column(empty_values=(), attrs={"td": {"data-value": lambda value: value}})
    wants_more = tables.Column(empty_values=())

    class Meta:
        row_attrs = {"data-id": lambda record: record.pk}

    def render_computed(self, record, bound_row):
        return f"{record.finding_count} & {bound_row.get_even_odd_css_class()}"

    def render_wants_more(self, value, something_else):
        return "never shown"


def test_cells_follow_django_tables2_for_each_kind_of_column(history):
    request = RequestFactory().get("/")
    rounds = Round.objects.select_related("table", "reviewed_by").order_by("id")
    assert_rows_as_django_tables2(Everything(rounds), request)
    assert_rows_as_django_tables2(Everything(list(rounds)[:3]), request)


def test_rows_of_dictionaries(history):
    class Totals(tables.Table):
        code = tables.Column()
        kind = tables.Column(accessor="detail__kind")
        amount = MoneyColumn()

    rows = [
        {"code": "<b>", "detail": {"kind": "main"}, "amount": Decimal("1.5"), "currency": "EUR"},
        {"code": ""},
    ]
    assert_rows_as_django_tables2(Totals(rows), RequestFactory().get("/"))

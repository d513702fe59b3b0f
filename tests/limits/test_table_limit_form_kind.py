"""The table-limit form shows the chosen kind's current limit: the page filled for ?kind=<kind> (a
plain link per kind, and static/js/reload-on-change.js reloading the page when the kind changes)."""

from decimal import Decimal

import pytest
from django.contrib.staticfiles import finders
from django.urls import reverse

from limits.models import TableLimit
from tests.limits.test_pages import login, make_table

pytestmark = pytest.mark.django_db


@pytest.fixture
def table():
    table = make_table()  # Deluxe: main, behind, insurance and pair offered; main 5.00 to 500.00 EUR
    TableLimit.objects.create(table=table, kind="pair", min_stake=Decimal("1.00"), max_stake=Decimal("25.00"))
    TableLimit.objects.create(  # a kind the table no longer offers keeps its limit
        table=table, kind="perfect_pairs", min_stake=Decimal("2.00"), max_stake=Decimal("40.00")
    )
    return table


def form_page(client, **params):
    login(client, "supervisor")
    response = client.get(reverse("limits:table_limit_set", args=["DLX1"]), params)
    assert response.status_code == 200
    return response


def shown(response) -> dict:
    form = response.context["form"]
    return {name: str(form[name].value() or "") for name in ("kind", "min_stake", "max_stake")}


def test_the_form_opens_on_main_with_mains_limit(client, table):
    assert shown(form_page(client)) == {"kind": "main", "min_stake": "5.00", "max_stake": "500.00"}


def test_the_kind_in_the_query_fills_the_form_with_that_kinds_limit(client, table):
    pair = {"kind": "pair", "min_stake": "1.00", "max_stake": "25.00"}
    assert shown(form_page(client, kind="pair")) == pair


def test_a_kind_without_a_limit_opens_empty(client, table):
    assert shown(form_page(client, kind="behind")) == {"kind": "behind", "min_stake": "", "max_stake": ""}


def test_a_kind_the_table_does_not_offer_opens_the_first_offered_kind(client, table):
    """Not the select on Main with Perfect Pairs' values."""
    assert shown(form_page(client, kind="perfect_pairs")) == {
        "kind": "main",
        "min_stake": "5.00",
        "max_stake": "500.00",
    }


def test_each_other_kind_offered_links_to_its_values_without_a_script(client, table):
    html = form_page(client, kind="pair").content.decode()
    url = reverse("limits:table_limit_set", args=["DLX1"])
    for kind in ("main", "behind"):
        assert f'href="{url}?kind={kind}"' in html
    assert f'href="{url}?kind=pair"' not in html  # the kind shown
    assert f'href="{url}?kind=perfect_pairs"' not in html  # not offered


def test_changing_the_kind_reloads_the_form_through_a_served_script(client, table):
    html = form_page(client).content.decode()
    assert 'data-reload-query="kind"' in html
    assert "/static/js/reload-on-change.js" in html
    script = finders.find("js/reload-on-change.js")
    assert script is not None
    with open(script) as source:
        text = source.read()
    assert "data-reload-query" in text and "searchParams.set" in text

"""The table page's limits: its limits panel and its limit changes, supplied by the limits app (tables
never imports limits: limits registers them as panels of the table page)."""

from decimal import Decimal

import pytest
from django.urls import reverse
from django.utils.html import strip_tags

from limits.models import TableLimit
from tests.limits.test_pages import login, make_table

pytestmark = pytest.mark.django_db


def section(html: str, heading: str) -> str:
    """The text of the panel under `<h2>heading</h2>`, up to the next panel."""
    return " ".join(strip_tags(html.split(f"<h2>{heading}</h2>", 1)[1].split("</section>", 1)[0]).split())


def table_page(client, role: str) -> str:
    login(client, role)
    response = client.get(reverse("tables:table_detail", args=["DLX1"]))
    assert response.status_code == 200
    return response.content.decode()


@pytest.fixture
def table():
    table = make_table()  # Deluxe: main, behind, insurance and pair offered; main 5.00 to 500.00 EUR
    TableLimit.objects.create(  # a kind the table no longer offers keeps its limit
        table=table, kind="perfect_pairs", min_stake=Decimal("1.00"), max_stake=Decimal("50.00")
    )
    return table


def test_the_limits_panel_lists_each_kind_offered_or_limited(client, table):
    text = section(table_page(client, "supervisor"), "Table limits")
    assert "Main 5.00 EUR 500.00 EUR Change" in text
    assert "Play behind not set — players cannot bet Set" in text
    assert "Pair not set — players cannot bet Set" in text
    assert "Perfect Pairs (not offered now) 1.00 EUR 50.00 EUR" in text
    assert "Insurance" not in text.split("Insurance follows")[0]  # insurance follows from the main bet
    assert "Insurance follows from the main bet: half its range." in text


def test_the_limits_panel_links_each_offered_kind_to_its_form_for_a_supervisor_only(client, table):
    html = table_page(client, "supervisor")
    set_url = reverse("limits:table_limit_set", args=["DLX1"])
    assert f'href="{set_url}?kind=main"' in html and f'href="{set_url}?kind=pair"' in html
    assert f'href="{set_url}?kind=perfect_pairs"' not in html
    html = table_page(client, "compliance")
    assert set_url not in html
    assert "Main 5.00 EUR 500.00 EUR" in section(html, "Table limits")


def test_the_limit_changes_sit_beside_the_table_changes(client, table):
    html = table_page(client, "compliance")
    assert html.index("<h2>Table changes</h2>") < html.index("<h2>Limit changes</h2>")
    assert "created: 5.00 EUR – 500.00 EUR" in section(html, "Limit changes")


def test_the_table_page_takes_a_fixed_number_of_queries(client, table, django_assert_max_num_queries):
    login(client, "compliance")
    with django_assert_max_num_queries(13):
        client.get(reverse("tables:table_detail", args=["DLX1"]))

"""The table-limit form shows the chosen kind's current limit: a supervisor opens the form on Main,
chooses Pair in the kind select, and sees Pair's minimum and maximum, not Main's."""

from decimal import Decimal

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command

from limits.models import TableLimit
from limits.services import table_limit_set
from tables.models import Table
from tests.browser.conftest import log_in, screenshot

pytestmark = pytest.mark.browser

URL = "/limits/table-limits/DLX1/set/"


@pytest.fixture
def supervisor_page(page, transactional_db):
    call_command("seed_demo", verbosity=0)
    table_limit_set(  # Pair's range, unlike Main's
        table=Table.objects.get(code="DLX1"),
        kind="pair",
        min_stake=Decimal("2.00"),
        max_stake=Decimal("30.00"),
        changed_by=get_user_model().objects.get(username="supervisor"),
        reason="browser test",
    )
    log_in(page, "supervisor", "supervisor-demo")
    return page


def stakes(page) -> tuple[str, str]:
    return tuple(page.locator(f"input[name={name}]").input_value() for name in ("min_stake", "max_stake"))


def test_choosing_pair_shows_pairs_current_limit(supervisor_page):
    page = supervisor_page
    main = TableLimit.objects.get(table__code="DLX1", kind="main")
    page.goto(URL)
    assert page.locator("select[name=kind]").input_value() == "main"
    assert stakes(page) == (f"{main.min_stake:.2f}", f"{main.max_stake:.2f}")
    page.select_option("select[name=kind]", "pair")
    page.wait_for_url("**?kind=pair")
    page.wait_for_load_state()
    assert page.locator("select[name=kind]").input_value() == "pair"
    assert stakes(page) == ("2.00", "30.00")
    screenshot(page, "table-limit-form-pair")
    # And back to Main: Main's values again.
    page.select_option("select[name=kind]", "main")
    page.wait_for_url("**?kind=main")
    page.wait_for_load_state()
    assert stakes(page) == (f"{main.min_stake:.2f}", f"{main.max_stake:.2f}")

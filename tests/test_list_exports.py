"""Every list's CSV export is data: no cell of it carries the markup its page draws (links, badges,
times, amounts with their currency)."""

import csv
import io
from decimal import Decimal

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.urls import reverse

from limits.models import Player
from limits.services import personal_limit_set
from rounds.review import round_review
from rounds.services import incident_open, resettlement_propose
from tables.models import Table
from tests.rounds.corrections_support import wrongly_paid

pytestmark = pytest.mark.django_db

LISTS = [
    "tables:table_list",
    "limits:player_list",
    "limits:table_limit_list",
    "limits:personal_limit_list",
    "rounds:round_list",
    "rounds:incident_list",
    "rounds:resettlement_list",
    "reports:archive",
    "reports:run_list",
]


@pytest.fixture
def history():
    """A reviewed round with findings and a proposed re-settlement, an incident, a personal limit."""
    call_command("seed_demo", verbosity=0)
    users = get_user_model().objects
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
    return wrong


@pytest.mark.parametrize("name", LISTS)
def test_each_lists_export_is_plain_data(client, history, name):
    client.force_login(get_user_model().objects.get(username="supervisor"))
    page = client.get(reverse(name))
    assert page.status_code == 200 and "<a " in page.content.decode()  # the page links its rows
    response = client.get(reverse(name), {"_export": "csv"})
    assert response["Content-Type"].startswith("text/csv")
    rows = list(csv.reader(io.StringIO(response.content.decode())))
    assert len(rows) > 1 or name in ("reports:archive", "reports:run_list")
    assert not [cell for row in rows for cell in row if "<" in cell or "&lt;" in cell or "&amp;" in cell]


def test_the_round_lists_export_gives_counts_and_moments_for_badges_and_times(client, history):
    client.force_login(get_user_model().objects.get(username="compliance"))
    response = client.get(reverse("rounds:round_list"), {"_export": "csv", "has_findings": "true"})
    row = next(
        row
        for row in csv.DictReader(io.StringIO(response.content.decode()))
        if row["Round"] == history.round_id
    )
    history.refresh_from_db()
    assert row["Findings"] == str(history.finding_count) and history.finding_count > 0
    assert row["Review"] == history.reviewed_at.isoformat()
    assert row["Outcome"] == "Completed"
    assert row["Opened (UTC)"] == history.opened_at.isoformat()

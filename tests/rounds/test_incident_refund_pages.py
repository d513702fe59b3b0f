"""An incident with hundreds of refunds (a cancelled Boundless round) shows them a page at a time,
with the count and the total of them all, and exports them whole."""

import csv
import io
import itertools
import re
from datetime import UTC, datetime
from decimal import Decimal

import pytest
from django.test import Client

from blackjack.rules import preset
from blackjack.simulate import simulate
from rounds import services
from rounds.models import Incident, Refund
from tests.rounds.corrections_support import demo, demo_user, ingest  # noqa: F401

pytestmark = pytest.mark.usefixtures("demo")
PLAYERS = 130


@pytest.fixture
def refunded_incident():
    (document,) = itertools.islice(
        simulate(
            preset("boundless"),
            table="BND1",
            shoes=1,
            players=PLAYERS,
            seed=7,
            start=datetime(2026, 11, 28, 14, 0, tzinfo=UTC),
            cancel_rate=1.0,
        ),
        1,
    )
    round_ = ingest(document)
    incident = Incident.objects.get(table__code="BND1", status="open")
    services.incident_cancel_round(
        incident=incident, round_=round_, cancelled_by=demo_user("supervisor"), reason="Stream lost"
    )
    return incident


def refund_rows(page: str) -> list[str]:
    body = page.split('id="refunds"', 1)[1].split("</table>", 1)[0]
    return re.findall(r'<td class="code nowrap">([^<]+)</td>', body)  # the bet ids (the round ids are links)


def test_the_refunds_are_shown_fifty_a_page_with_the_count_and_total_of_all(
    refunded_incident, django_assert_max_num_queries
):
    refunds = Refund.objects.filter(incident=refunded_incident).select_related("bet").order_by("bet__bet_id")
    total = sum(refund.amount for refund in refunds)
    assert refunds.count() > 100
    client = Client()
    client.force_login(demo_user("supervisor"))
    url = f"/rounds/incidents/{refunded_incident.pk}/"
    with django_assert_max_num_queries(20):
        first = client.get(url).content.decode()
    assert f"{refunds.count()} bets" in first and f"{total:,.2f}" in first
    seen = []
    pages = (refunds.count() + 49) // 50
    for number in range(1, pages + 1):
        page = client.get(f"{url}?refunds-page={number}").content.decode()
        rows = refund_rows(page)
        assert len(rows) == (50 if number < pages else refunds.count() - 50 * (pages - 1))
        seen += rows
    assert sorted(seen) == sorted(refund.bet.bet_id for refund in refunds)  # each once
    assert "?refunds-page=2" in first.replace("&amp;", "&")


def test_the_refunds_export_every_row(refunded_incident):
    client = Client()
    client.force_login(demo_user("compliance"))
    response = client.get(f"/rounds/incidents/{refunded_incident.pk}/refunds/?_export=csv")
    assert response.status_code == 200
    rows = list(csv.DictReader(io.StringIO(b"".join(response.streaming_content).decode())))
    refunds = Refund.objects.filter(incident=refunded_incident).select_related("bet")
    assert {row["Bet"] for row in rows} == {refund.bet.bet_id for refund in refunds}
    assert sum(Decimal(row["Refunded"]) for row in rows) == sum(refund.amount for refund in refunds)
    assert {row["Currency"] for row in rows} == {"EUR"}

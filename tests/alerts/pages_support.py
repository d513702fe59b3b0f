"""What the alerts' page tests share: two tables, a few alerts raised as the monitors raise them, users
signed in by role, and reading pages and exports."""

import csv
import io
from datetime import timedelta
from decimal import Decimal

import pytest
from django.utils import timezone

from alerts.services import alert_raise
from tests.factories import table, user

S, C, CS = "supervisor", "compliance", "customer_service"


@pytest.fixture
def tables():
    return {code: table(code) for code in ("DLX1", "CLS1")}


def raised(code: str, monitor: str = "silent_table", *, subject: str = "", measure="15", at=None, **values):
    from tables.models import Table

    return alert_raise(
        table=Table.objects.get(code=code),
        monitor=monitor,
        subject=subject,
        measure=Decimal(measure),
        threshold=Decimal(10),
        summary=values.pop("summary", f"{monitor} at {code}"),
        at=at,
        **values,
    )


@pytest.fixture
def alerts(tables):
    """An RTP drift alert at DLX1 (21+3, seen twice), a dealer's at CLS1 (critical), a silent DLX1."""
    drift = raised(
        "DLX1",
        "rtp_drift",
        subject="twenty_one_plus_three",
        at=timezone.now() - timedelta(days=2),
        figures={"round": "DLX1-R-7", "direction": "above", "rounds": 1204},
        summary="21+3 returns drifting above theory.",
    )
    raised("DLX1", "rtp_drift", subject="twenty_one_plus_three", figures={"round": "DLX1-R-9"})
    dealer = raised(
        "CLS1", "dealer_findings", subject="D-BEN", measure="25", summary="Dealer D-BEN: 5 findings."
    )
    silent = raised("DLX1", "silent_table", summary="Open, and no round for 15 minutes.")
    return {"drift": drift, "dealer": dealer, "silent": silent}


def signed_in(client, role: str, username: str | None = None):
    client.force_login(user(role, username))
    return client


def html_of(response) -> str:
    return response.content.decode()


def listed(response) -> list[str]:
    """The alert numbers of a list page's rows, in order."""
    rows = html_of(response).split("<tbody")[1].split("</tbody>")[0]
    return [part.split('"')[0].rstrip("/").rsplit("/", 1)[-1] for part in rows.split('href="/alerts/')[1:]]


def csv_rows(response) -> list[list[str]]:
    return list(csv.reader(io.StringIO(response.getvalue().decode())))

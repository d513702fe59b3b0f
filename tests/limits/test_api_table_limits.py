"""Table limits through the API: set (create or change) with a reason, history, bad input."""

import pytest

from limits.models import TableLimit
from tests.api_support import client_as, make_table

GOOD = {"table": "DLX1", "kind": "pair", "min_stake": "1.00", "max_stake": "100.00", "reason": "opening"}


@pytest.fixture
def supervisor():
    return client_as("supervisor")


def state():
    return list(TableLimit.objects.values_list("table__code", "kind", "min_stake", "max_stake")), (
        TableLimit.history.count()
    )


@pytest.mark.django_db
def test_it_sets_a_new_limit_then_changes_it_and_keeps_the_history(supervisor):
    make_table()
    response = supervisor.post("/api/table-limits/", GOOD)
    assert response.status_code == 201
    body = response.json()
    assert (body["min_stake"], body["max_stake"], body["currency"]) == ("1.00", "100.00", "EUR")
    response = supervisor.post("/api/table-limits/", {**GOOD, "max_stake": "250", "reason": "high rollers"})
    assert response.status_code == 200
    assert response.json()["max_stake"] == "250.00"
    assert TableLimit.objects.filter(kind="pair").count() == 1
    history = supervisor.get(f"/api/table-limits/{body['id']}/history/").json()
    assert [(h["change"], h["min_stake"], h["max_stake"], h["reason"], h["changed_by"]) for h in history] == [
        ("changed", "1.00", "250.00", "high rollers", "api-supervisor"),
        ("created", "1.00", "100.00", "opening", "api-supervisor"),
    ]
    assert all(h["changed_at"] for h in history)


@pytest.mark.django_db
def test_it_lists_with_the_pages_filters(supervisor):
    make_table("DLX1", limits={"main": ("5", "500"), "pair": ("1", "50")})
    make_table("CLS1", game="classic", limits={"main": ("10", "1000")})
    results = supervisor.get("/api/table-limits/?kind=main&ordering=-max_stake").json()["results"]
    assert [(r["table"], r["max_stake"]) for r in results] == [("CLS1", "1000.00"), ("DLX1", "500.00")]
    assert [r["kind"] for r in supervisor.get("/api/table-limits/?table=DLX1").json()["results"]] == [
        "main",
        "pair",
    ]
    assert supervisor.get("/api/table-limits/?game=classic").json()["count"] == 1


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"min_stake": "200.00"}, "min_stake"),  # above the maximum
        ({"min_stake": "-1.00"}, "min_stake"),
        ({"min_stake": "0"}, "min_stake"),
        ({"max_stake": "0.00", "min_stake": "0.00"}, "min_stake"),
        ({"max_stake": "100.005"}, "max_stake"),
        ({"max_stake": 100.005}, "max_stake"),  # a JSON number with 3 decimals
        ({"max_stake": "lots"}, "max_stake"),
        ({"max_stake": True}, "max_stake"),
        ({"currency": "GBP"}, "currency"),
        ({"kind": "insurance"}, "kind"),  # follows from the main bet's
        ({"kind": "lucky_trio"}, "kind"),  # not offered at a Deluxe table
        ({"kind": "roulette"}, "kind"),
        ({"table": "NOPE"}, "table"),
        ({"reason": ""}, "reason"),
        ({"reason": None}, "reason"),
    ],
)
def test_it_refuses_bad_input_and_changes_nothing(supervisor, change, field):
    make_table()
    before = state()
    response = supervisor.post("/api/table-limits/", {**GOOD, **change})
    assert response.status_code == 400
    assert field in response.json(), response.json()
    assert state() == before


@pytest.mark.django_db
def test_a_json_number_is_refused_as_in_a_round_document(supervisor):
    """Money is never a float: an amount is a decimal string (tests/limits/test_amount_input.py)."""
    make_table()
    response = supervisor.post("/api/table-limits/", {**GOOD, "min_stake": 0.1, "max_stake": 99.99})
    assert response.status_code == 400
    assert set(response.json()) == {"min_stake", "max_stake"}
    assert not TableLimit.objects.filter(kind="pair").exists()


@pytest.mark.django_db
def test_an_unknown_limit_is_404(supervisor):
    assert supervisor.get("/api/table-limits/999/").status_code == 404
    assert supervisor.get("/api/table-limits/999/history/").status_code == 404

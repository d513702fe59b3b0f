"""A table's reason longer than the 100 characters its history record keeps is a 400 naming the
field (it was a server error on PostgreSQL, found by probing what tests/test_api_fuzz.py found
elsewhere)."""

import pytest

from tests.api_support import client_as, make_table

TOO_LONG = "Ensure this field has no more than 100 characters."
NEW = {"code": "NEW1", "name": "New", "game": "deluxe", "currency": "EUR", "studio": "Studio A"}


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("method", "url", "body"),
    [("post", "/api/tables/", NEW), ("patch", "/api/tables/DLX1/", {"name": "Renamed"})],
)
def test_a_reason_longer_than_its_history_keeps_is_refused(method, url, body):
    make_table()
    supervisor = client_as("supervisor")
    response = getattr(supervisor, method)(url, {**body, "reason": "x" * 101}, format="json")
    assert response.status_code == 400
    assert response.json() == {"reason": [TOO_LONG]}
    assert getattr(supervisor, method)(url, {**body, "reason": "x" * 100}, format="json").status_code < 300

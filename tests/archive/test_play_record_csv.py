"""The play record's CSVs once a month is archived (PostgreSQL): the database's bets as before, and
every archived bet of the period through `?_export=csv&bets=archived`, read back a month at a time.
Together they hold, row for row and value for value, what its one CSV held before the drop."""

import pytest

from tests.archive.recall_support import PERIOD, csv_rows

pytestmark = [pytest.mark.postgres, pytest.mark.django_db]


def test_the_two_csvs_hold_every_row_the_play_record_exported_before_the_drop(archived):
    _, before, compliance, player, _ = archived
    url = f"/rounds/players/{player.external_id}/"

    in_database = csv_rows(compliance.get(url, {"_export": "csv"}))
    archived_csv = compliance.get(url, {**PERIOD, "_export": "csv", "bets": "archived"})
    in_archive = csv_rows(archived_csv)

    header, *rows_before = before.play_record_csv
    assert in_database[0] == in_archive[0] == header
    assert in_archive[1:], "the period's archived bets are exported"
    assert sorted(in_database[1:] + in_archive[1:]) == sorted(rows_before)
    # Newest first, as the play record lists them.
    assert in_archive[1:] == [row for row in rows_before if row not in in_database[1:]]
    disposition = archived_csv["Content-Disposition"]
    assert f"play-record-{player.external_id}-archived-2026-03-01-2026-04-30.csv" in disposition


def test_the_page_offers_the_archived_bets_of_its_period_as_a_csv(archived):
    _, _, compliance, player, _ = archived

    html = compliance.get(f"/rounds/players/{player.external_id}/", PERIOD).content.decode()

    assert "first=2026-03-01&amp;last=2026-04-30&amp;_export=csv&amp;bets=archived" in html
    assert "Export all" in html


def test_a_period_refused_gives_the_page_with_its_error_not_a_csv(archived):
    _, _, compliance, player, _ = archived
    query = {"first": "2026-04-30", "last": "2026-03-01", "_export": "csv", "bets": "archived"}

    response = compliance.get(f"/rounds/players/{player.external_id}/", query)

    assert response.status_code == 400
    assert response["Content-Type"].startswith("text/html")
    assert "The period starts after it ends." in response.content.decode()

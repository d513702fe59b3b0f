"""A round of a month past the hot window that was never archived and has no partitions is refused
(409, naming `opened_at`): it would land in the default partition and keep the month from being
archived (archive.drop refuses a month with rows there). The refusal names the command that makes the
month's partitions by hand, `history_partition --month YYYY-MM`; with them made, the round is taken,
into the month's own partition. The command refuses a month the archive holds."""

import io
from datetime import date

import pytest
from django.core.management import CommandError, call_command

from tests.api_support import client_as
from tests.archive.support import partitions_there
from tests.archive.test_ingest_refusal import URL, document_at, march_dropped, stored_counts  # noqa: F401

pytestmark = [pytest.mark.postgres, pytest.mark.django_db]
MAY_2015 = date(2015, 5, 1)


def test_a_round_of_an_unpartitioned_month_past_the_hot_window_is_refused_until_its_partitions_are_made(
    march_dropped,  # noqa: F811
):
    assert not any(partitions_there(MAY_2015).values())
    game_server = client_as("game_server")
    document = document_at("-MAY15", date(2015, 5, 20), hours=3)
    before = stored_counts()

    response = game_server.post(URL, document, format="json")

    assert response.status_code == 409, response.content
    message = response.json()["opened_at"][0]
    assert f"Round {document['round_id']} opened on gaming day 2015-05-20, in 2015-05" in message
    assert "never archived and has no partitions" in message and "default partition" in message
    assert "nothing was stored" in message
    assert "(python manage.py history_partition --month 2015-05)" in message
    assert stored_counts() == before

    out = io.StringIO()
    call_command("history_partition", "--month", "2015-05", stdout=out)
    assert "2015-05: partitions there" in out.getvalue()
    assert all(partitions_there(MAY_2015).values())

    response = game_server.post(URL, document, format="json")
    assert response.status_code == 201, response.content
    assert stored_counts()["Round"] == before["Round"] + 1
    assert stored_counts()["default partition"] == 0  # in May 2015's partition


def test_the_partition_command_refuses_a_month_the_archive_holds_and_a_month_that_is_not_one(
    march_dropped,  # noqa: F811
):
    with pytest.raises(CommandError, match="2026-03 of CLS1 is archived or being archived; nothing was made"):
        call_command("history_partition", "--month", "2026-03", stdout=io.StringIO())
    assert not any(partitions_there(date(2026, 3, 1)).values())
    with pytest.raises(CommandError, match="'2015-13' is not a month"):
        call_command("history_partition", "--month", "2015-13", stdout=io.StringIO())

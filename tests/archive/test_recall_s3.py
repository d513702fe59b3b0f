"""An archived round recalled from an S3-compatible bucket (moto's server, as tests/archive/test_s3.py):
pyarrow reads the row groups whose statistics can hold the round through the archive's filesystem, and
DuckDB queries them. The page, the API and the play record show what they showed before the drop."""

import pytest
from django.core.cache import cache
from django.test import Client

from archive.drop import month_drop
from archive.models import ArchiveStatus
from archive.services import month_export, month_verify
from rounds.models import Bet
from tests.api_support import client_as
from tests.archive.recall_support import PERIOD, page_of, region
from tests.archive.support import MARCH, rounds_of
from tests.archive.test_s3 import BUCKET, s3_endpoint  # noqa: F401 (a fixture)
from tests.rounds.corrections_support import demo_user

pytestmark = [pytest.mark.postgres, pytest.mark.django_db]


def test_an_archived_round_is_recalled_from_an_s3_bucket(history, s3_endpoint, settings):  # noqa: F811
    settings.PITBOSS_ARCHIVE_URL = f"s3://{BUCKET}/history"
    settings.PITBOSS_ARCHIVE_S3_ENDPOINT = s3_endpoint
    wrong, cancelled = history.march[1], history.march[3]
    compliance = Client()
    compliance.force_login(demo_user("compliance"))
    api = client_as("compliance")
    player = Bet.objects.filter(round=wrong).select_related("player").first().player
    pages = {r.round_id: page_of(compliance, r.round_id) for r in (wrong, cancelled)}
    answer = api.get(f"/api/rounds/{wrong.round_id}/").json()
    totals = compliance.get(f"/rounds/players/{player.external_id}/", PERIOD).context["totals"]
    for table in (history.dlx1, history.cls1):
        assert month_export(table, MARCH).status == ArchiveStatus.EXPORTED
        assert month_verify(table, MARCH).status == ArchiveStatus.VERIFIED
    month_drop(MARCH)
    assert rounds_of(MARCH) == 0
    cache.clear()

    for round_ in (wrong, cancelled):
        html, hot = page_of(compliance, round_.round_id), pages[round_.round_id]
        assert "From the archive (month 2026-03, exported " in html
        start, end = '<section class="panel deal">', '<section class="panel" id="corrections">'
        assert region(html, start, end) == region(hot, start, end)
    archived = api.get(f"/api/rounds/{wrong.round_id}/").json()
    assert archived.pop("archived") is True and archived.pop("archive")["restore"].endswith("DLX1 2026-03")
    assert (answer.pop("archived"), answer.pop("archive")) == (False, None)
    assert archived == answer
    record = compliance.get(f"/rounds/players/{player.external_id}/", PERIOD)
    assert record.context["totals"] == totals
    assert {bet.round.round_id for bet in record.context["archive"].bets} >= {wrong.round_id}

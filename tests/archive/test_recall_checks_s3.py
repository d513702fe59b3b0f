"""test_recall_checks.py on an S3 bucket (moto's server, as tests/archive/test_s3.py): a bets file
tampered with (a bet's `returned` changed, a row deleted), overwritten with garbage, or deleted in the
bucket is refused by the round page, the API and the play record (409, or 503 when missing), one log
line each; a store that does not answer is missing too. S3's LastModified is to the second, so each
damage is checked as by a fresh process (verdicts_forget): the kept verdicts' stamps are
test_recall_checks.py's."""

import logging

import pytest
from django.test import Client

from archive.checks import verdict_of, verdicts_forget
from rounds.models import Bet
from tests.api_support import client_as
from tests.archive.damage_support import DAMAGES, TAMPERED, assert_refused, deleted, dlx1_march, put_back
from tests.archive.recall_support import PERIOD, page_of
from tests.archive.support import march_archived
from tests.archive.test_s3 import BUCKET, free_port, s3_endpoint  # noqa: F401 (a fixture)
from tests.rounds.corrections_support import demo_user

pytestmark = [pytest.mark.postgres, pytest.mark.django_db]


def test_a_damaged_or_missing_file_in_a_bucket_is_refused_by_every_reader(
    history,
    s3_endpoint,  # noqa: F811
    settings,
    caplog,
):
    settings.PITBOSS_ARCHIVE_URL = f"s3://{BUCKET}/history"
    settings.PITBOSS_ARCHIVE_S3_ENDPOINT = s3_endpoint
    bet = Bet.objects.filter(round=history.march[1]).select_related("player").order_by("id").first()
    march_archived(history)
    verdicts_forget()
    month = dlx1_march(history, bet)
    compliance = Client()
    compliance.force_login(demo_user("compliance"))
    api = client_as("compliance")
    assert str(TAMPERED) not in page_of(compliance, month.round_id)
    assert verdict_of(month.location, month.bets_path).problem is None  # its LastModified and size kept

    caplog.set_level(logging.WARNING)
    caplog.clear()
    for name, damage in DAMAGES.items():
        damage(month)
        verdicts_forget()
        assert_refused(compliance, api, month, caplog, status=409)
        put_back(month)
        verdicts_forget()
        assert page_of(compliance, month.round_id), name
    deleted(month)
    assert_refused(compliance, api, month, caplog, status=503)
    put_back(month)
    assert compliance.get(f"/rounds/players/{month.player}/", PERIOD).status_code == 200
    assert api.get(f"/api/rounds/{month.round_id}/").status_code == 200

    # A store that does not answer (nothing listens at the endpoint): missing, 503, not a 500.
    settings.PITBOSS_ARCHIVE_S3_ENDPOINT = f"http://127.0.0.1:{free_port()}"
    response = api.get(f"/api/rounds/{month.round_id}/")
    assert response.status_code == 503 and response["Retry-After"]
    assert response.json()["archive"]["state"] == "missing"
    assert "the archive cannot be reached" in response.json()["archive"]["problem"]

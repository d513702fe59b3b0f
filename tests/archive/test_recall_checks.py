"""An archived month is checked, not trusted (archive.checks): every file recall opens is held against
the month's manifest first. A bets file rewritten with one bet's `returned` set to 9999.00, one with a
bet's row deleted, and one overwritten with garbage are refused (409) by the round page, the API, the
play record and its CSV, each saying the month's archive is damaged and what to do; a file deleted is
missing (503). One log line each, never a bare 500. With the file put back, the month reads as before.

Each file's verdict is kept with its stamp (modification time, size): the month's second recall reads
no file whole again, and a file changed since is checked again."""

import logging

import pytest
from django.test import Client

from archive.checks import verdict_of, verdicts_forget
from rounds.models import Bet
from tests.api_support import client_as
from tests.archive.damage_support import (
    DAMAGES,
    TAMPERED,
    assert_refused,
    deleted,
    dlx1_march,
    put_back,
    returned_changed,
)
from tests.archive.recall_support import PERIOD, page_of
from tests.archive.support import march_archived
from tests.rounds.corrections_support import demo_user

pytestmark = [pytest.mark.postgres, pytest.mark.django_db]


@pytest.fixture
def dlx1(history, tmp_path, settings):
    """March archived to a directory; DLX1's month, and clients of compliance."""
    settings.PITBOSS_ARCHIVE_URL = str(tmp_path / "archive")
    bet = Bet.objects.filter(round=history.march[1]).select_related("player").order_by("id").first()
    march_archived(history)
    verdicts_forget()
    compliance = Client()
    compliance.force_login(demo_user("compliance"))
    return dlx1_march(history, bet), compliance, client_as("compliance")


def test_a_damaged_or_missing_archive_file_is_refused_by_every_reader(dlx1, caplog):
    month, compliance, api = dlx1
    assert str(TAMPERED) not in page_of(compliance, month.round_id)  # read, and its verdict kept
    caplog.set_level(logging.WARNING)
    caplog.clear()
    for name, damage in DAMAGES.items():
        damage(month)  # after a good verdict was kept: the file's new stamp has it checked again
        assert_refused(compliance, api, month, caplog, status=409)
        put_back(month)
        assert page_of(compliance, month.round_id), name
    deleted(month)
    assert_refused(compliance, api, month, caplog, status=503)
    put_back(month)
    assert compliance.get(f"/rounds/players/{month.player}/", PERIOD).status_code == 200
    assert api.get(f"/api/rounds/{month.round_id}/").status_code == 200


def test_a_files_verdict_is_kept_until_it_changes(dlx1):
    month, compliance, _ = dlx1
    assert verdict_of(month.location, month.bets_path) is None
    page_of(compliance, month.round_id)
    kept = verdict_of(month.location, month.bets_path)
    assert kept.problem is None and kept.stamp[1] == len(month.original)
    page_of(compliance, month.round_id)
    assert verdict_of(month.location, month.bets_path) is kept  # not checked again: not read again
    returned_changed(month)
    assert compliance.get(f"/rounds/{month.round_id}/").status_code == 409
    damaged = verdict_of(month.location, month.bets_path)
    assert damaged is not kept and damaged.problem.startswith(("sha256 ", f"{damaged.stamp[1]:,} bytes"))
    assert compliance.get(f"/rounds/{month.round_id}/").status_code == 409
    assert verdict_of(month.location, month.bets_path) is damaged  # a damaged file's verdict is kept too
    verdicts_forget()
    assert verdict_of(month.location, month.bets_path) is None

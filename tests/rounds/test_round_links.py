"""The round page links to what the round concerns: the daily report of its gaming day, for those
who may read reports."""

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission
from django.urls import reverse

from tests.fixtures import round_document
from tests.rounds.corrections_support import demo, demo_user, ingest  # noqa: F401

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("demo")]


def test_the_round_page_links_its_gaming_days_report_for_those_who_may_read_it(client):
    round_ = ingest(round_document("deluxe-split-double-play-behind"))
    day = round_.gaming_day.isoformat()
    link = f'href="{reverse("reports:daily_report")}?day={day}"'
    client.force_login(demo_user("compliance"))
    html = client.get(round_.get_absolute_url()).content.decode()
    assert link in html and "gaming day <a " in html
    # Every role that opens round pages reads reports too: a user granted round pages alone.
    reader = get_user_model().objects.create_user("round-reader")
    round_pages = Permission.objects.get(content_type__app_label="rounds", codename="view_round")
    reader.user_permissions.add(round_pages)
    client.force_login(reader)
    html = client.get(round_.get_absolute_url()).content.decode()
    assert link not in html and f"gaming day {day}" in html

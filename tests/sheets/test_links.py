"""The portal's links to the players' rule sheets: the round page to the sheet its round was played
under, the table page to both sheets, a configuration proposal to the sheet as it would read. Each
link is followed: it gives the sheet it promises."""

import re
from datetime import timedelta
from html import unescape

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from freezegun import freeze_time

from rounds.ingest import round_ingest
from tables.models import ConfigurationOdds, TableConfiguration
from tables.odds import configuration_odds_compute
from tables.services import configuration_propose, table_set_status
from tests.factories import configuration_approved, table, user
from tests.fixtures import round_document

pytestmark = pytest.mark.django_db

CHANGE = {"side_options": {"pair": {"paytable": {"mixed_pair": "4", "coloured_pair": "10"}, "max_round": 30}}}


def with_odds(created):
    for configuration in TableConfiguration.objects.filter(table=created):
        if not ConfigurationOdds.objects.filter(configuration=configuration).exists():
            configuration_odds_compute(configuration=configuration)
    return created


def opened_with_odds(created):
    """The table opened (its sheet is public from its first opening), with its odds."""
    table_set_status(table=created, status="open", changed_by=user("supervisor"), reason="Shift start")
    return with_odds(created)


def links(html: str, css_class: str) -> list[str]:
    return [unescape(href) for href in re.findall(rf'<a class="{css_class}" href="([^"]+)"', html)]


def signed_in(role: str) -> Client:
    client = Client()
    client.force_login(user(role))
    return client


def version_shown(html: str) -> int:
    """The version a sheet states, in either language (its element is marked data-number="version")."""
    return int(re.search(r'data-number="version"[^>]*>\D*(\d+)', html).group(1))


def test_the_round_page_links_the_sheet_its_round_was_played_under():
    document = round_document("deluxe-split-double-play-behind")
    opened = timezone.now() - timedelta(hours=1)
    document["opened_at"] = opened.isoformat()
    document["closed_at"] = (opened + timedelta(minutes=1)).isoformat()
    with freeze_time(opened - timedelta(days=1)):
        dlx = opened_with_odds(table(document["table"]))
    round_ = round_ingest(document=document).round
    # A later version: the round's link must still give the one it was played under.
    configuration_approved(dlx, CHANGE)
    with_odds(dlx)
    assert round_.configuration.version == 1
    html = signed_in("compliance").get(round_.get_absolute_url()).content.decode()
    english, filipino = links(html, "round-sheet")
    assert english.startswith(reverse("sheets:sheet", args=[dlx.code]) + "?at=")
    assert filipino.startswith(reverse("sheets:sheet_language", args=[dlx.code, "fil"]) + "?at=")
    for url in (english, filipino):
        response = Client().get(url)
        assert response.status_code == 200
        assert version_shown(response.content.decode()) == 1
    assert version_shown(Client().get(reverse("sheets:sheet", args=[dlx.code])).content.decode()) == 2


def test_the_table_page_links_both_sheets():
    dlx = opened_with_odds(table("DLX1"))
    html = signed_in("supervisor").get(reverse("tables:table_detail", args=["DLX1"])).content.decode()
    english, filipino = links(html, "table-sheet")
    assert (english, filipino) == (
        reverse("sheets:sheet", args=[dlx.code]),
        reverse("sheets:sheet_language", args=[dlx.code, "fil"]),
    )
    for url, language in ((english, "en"), (filipino, "fil")):
        response = Client().get(url)
        assert response.status_code == 200
        assert response["Content-Language"] == language


def test_a_proposal_links_its_sheet_as_it_would_read():
    with freeze_time(timezone.now() - timedelta(days=1)):
        dlx = with_odds(table("DLX1"))
    proposal = configuration_propose(table=dlx, changes=CHANGE, proposed_by=user("supervisor"), reason="Pair")
    configuration_odds_compute(configuration=proposal)
    client = signed_in("compliance")
    html = client.get(reverse("tables:configuration_proposal", args=["DLX1"])).content.decode()
    english, filipino = links(html, "proposal-sheet")
    preview = reverse("sheets:version_preview", args=["DLX1", proposal.version])
    assert (english, filipino) == (preview, preview + "?lang=fil")
    response = client.get(english)
    assert response.status_code == 200
    assert "as proposed" in response.content.decode()
    assert "4:1" in response.content.decode()  # the proposed paytable, not the one in force
    assert client.get(filipino)["Content-Language"] == "fil"

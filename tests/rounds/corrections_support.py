"""Shared by the re-settlement and incident tests: the demo data, example rounds, and the URLs.

`corrections_urls` makes sure the pages and endpoints of `rounds.incident_views`,
`rounds.resettlement_views` and `rounds/api/{incidents,resettlements}.py` are reachable: through
the project's own URLconf once it includes them, or else through one built here around it.
"""

import copy
import json
import types
from decimal import Decimal
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.urls import NoReverseMatch, include, path, reverse

from rounds.ingest import round_ingest
from rounds.models import Round

EXAMPLES = Path(__file__).resolve().parents[3] / "shared" / "examples"


def example(name: str) -> dict:
    return json.loads((EXAMPLES / name).read_text())


def demo_user(username: str):
    return get_user_model().objects.get(username=username)


def ingest(document: dict) -> Round:
    return round_ingest(document=document).round


def renamed(document: dict, suffix: str) -> dict:
    """The same round under new round, shoe and bet ids."""
    document = copy.deepcopy(document)
    document["round_id"] += suffix
    document["shoe"] += suffix
    for bet in document["bets"]:
        bet["bet_id"] += suffix
    return document


def wrongly_paid(suffix: str = "-W", *, short: str = "5.00") -> Round:
    """The Deluxe split/double/behind example with its first bet paid `short` less than it should."""
    document = renamed(example("deluxe-split-double-behind.json"), suffix)
    bet = document["bets"][0]
    bet["returned"] = str(Decimal(bet["returned"]) - Decimal(short))
    return ingest(document)


def classic_completed_blackjack(suffix: str = "-C") -> dict:
    """The classic network-failure example as if the round had been played out: the facilitator
    draws to 19, the blackjack (B-61) is paid 3:2, the 16 and the Perfect Pairs bet lose."""
    document = renamed(example("classic-cancelled-network-failure.json"), suffix)
    document["status"] = "completed"
    del document["cancel_reason"]
    document["dealer"] = ["6C", "8H", "5S"]
    returned = {"B-61": "25.00", "B-62": "0.00", "B-63": "0.00"}
    for bet in document["bets"]:
        bet["returned"] = returned[bet["bet_id"].removesuffix(suffix)]
    return document


@pytest.fixture
def demo(db):
    call_command("seed_demo", stdout=open("/dev/null", "w"))  # noqa: SIM115


def _project_serves_corrections() -> bool:
    try:
        reverse("rounds:incident_list")
        reverse("rounds:round_detail", args=["x"])
        reverse("api:incident-list")
        reverse("api:resettlement-list")
    except NoReverseMatch:
        return False
    return True


@pytest.fixture(autouse=True)
def corrections_urls(settings):
    if _project_serves_corrections():
        yield
        return
    import config.api_urls
    import config.urls
    from rounds import incident_views, resettlement_views
    from rounds.api import incidents, resettlements

    try:
        from rounds import urls as round_urls

        round_patterns = round_urls.urlpatterns
    except ImportError:  # the round pages are not there yet
        round_patterns = []
    names = {getattr(p, "name", None) for p in round_patterns}
    ours = [p for p in incident_views.urlpatterns + resettlement_views.urlpatterns if p.name not in names]
    api = incidents.urlpatterns + resettlements.urlpatterns
    module = types.ModuleType("corrections_test_urls")
    module.urlpatterns = [
        path("rounds/", include((ours + round_patterns, "rounds"))),
        path("api/", include((api + config.api_urls.urlpatterns, "api"))),
        *config.urls.urlpatterns,
    ]
    settings.ROOT_URLCONF = module
    yield

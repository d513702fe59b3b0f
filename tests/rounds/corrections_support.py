"""Shared by the re-settlement and incident tests: the demo data, fixture rounds, and the URLs.

`corrections_urls` makes sure the pages and endpoints of `rounds.incident_views`,
`rounds.resettlement_views` and `rounds/api/{incidents,resettlements}.py` are reachable: through
the project's own URLconf once it includes them, or else through one built here around it.
"""

import copy
import random
import types
from datetime import UTC, datetime, timedelta
from decimal import Decimal

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.urls import NoReverseMatch, include, path, reverse

from blackjack.rules import preset
from blackjack.simulate import simulate_shoe
from rounds.ingest import round_ingest
from rounds.models import Round
from tests.fixtures import round_document


def demo_user(username: str):
    return get_user_model().objects.get(username=username)


def second_supervisor():
    """seed_demo's second supervisor: the other pair of eyes on a void the first proposed."""
    return demo_user("supervisor-2")


def ingest(document: dict) -> Round:
    return round_ingest(document=document).round


def boundless_shoe(shoe_id: str, *, players: int, seed: int) -> list[dict]:
    """A simulated Boundless shoe at BND1, played two hours ago: its round documents."""
    return simulate_shoe(
        preset("boundless"),
        table="BND1",
        shoe_id=shoe_id,
        players=players,
        rng=random.Random(seed),
        start=datetime.now(UTC) - timedelta(hours=2),
    )


def renamed(document: dict, suffix: str) -> dict:
    """The same round under new round, shoe and bet ids."""
    document = copy.deepcopy(document)
    document["round_id"] += suffix
    document["shoe"] += suffix
    for bet in document["bets"]:
        bet["bet_id"] += suffix
    return document


def wrongly_paid(suffix: str = "-W", *, short: str = "5.00") -> Round:
    """The Deluxe split/double/behind fixture with its first bet (D23-1, 90.00) paid `short` less
    than it should."""
    document = renamed(round_document("deluxe-split-double-play-behind"), suffix)
    bet = document["bets"][0]
    bet["returned"] = str(Decimal(bet["returned"]) - Decimal(short))
    return ingest(document)


def classic_completed_blackjack(suffix: str = "-C") -> dict:
    """The classic network-failure fixture as if the round had been played out: seat 6 stands on 14,
    the facilitator draws 6H to 18; the blackjack (C18-1) and the bet behind it (C18-2) are paid 3:2,
    the 14 loses and so do the side bets but seat 6's mixed pair, 6:1 (tests/fixtures/README.md)."""
    document = renamed(round_document("classic-network-failure-refunds"), suffix)
    document["status"] = "completed"
    del document["cancel_reason"]
    document["dealer"] = ["8S", "4D", "6H"]
    (seat_6,) = [spot for spot in document["spots"] if spot["spot"] == "6"]
    seat_6["hands"][0]["actions"] = ["stand"]
    returned = {
        "C18-1": "50.00",
        "C18-2": "10.00",
        "C18-3": "0.00",
        "C18-4": "0.00",
        "C18-5": "0.00",
        "C18-6": "14.00",
    }
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

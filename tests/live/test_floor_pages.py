"""The floor and a table's live page, as pages and in the API: what they show is what the live figures
hold, for the roles that may see them."""

import random
from datetime import UTC, date, datetime, timedelta

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from blackjack.rules import preset
from blackjack.simulate import simulate_shoe
from live.selectors import table_figures
from live.services import last_hour_start
from rounds.models import Round
from tests.rounds.corrections_support import demo, demo_user, ingest

# Rounds dealt over the last minutes, read as today's: tests/conftest.py gaming_day_clear_of_now.
pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("gaming_day_clear_of_now")]
__all__ = ["demo"]


@pytest.fixture
def played(demo):
    """Two hours of a Boundless shoe at BND1: some rounds in the last hour, some before it."""
    start = datetime.now(UTC) - timedelta(minutes=100)
    documents = simulate_shoe(
        preset("boundless"),
        table="BND1",
        shoe_id="BND1-FLOOR",
        players=8,
        rng=random.Random(7),
        start=start,
        cancel_rate=0.05,
        dealt_by=lambda opened_at: "D-EVA" if opened_at < start + timedelta(minutes=20) else "D-FOX",
    )
    return [ingest(document) for document in documents[:40]]


def signed_in(client, username: str):
    client.force_login(demo_user(username))
    return client


def test_the_floor_shows_each_table_as_a_tile(client, played):
    html = signed_in(client, "supervisor").get(reverse("floor:floor")).content.decode()
    for code in ("DLX1", "BND1", "CLS1", "MPB1"):
        assert f'id="tile-{code}"' in html
    last_hour = Round.objects.filter(table__code="BND1", opened_at__gte=last_hour_start(datetime.now(UTC)))
    tile = html[html.index('id="tile-BND1"') :]
    assert f'<dd class="tile-rounds-hour">{last_hour.count()}</dd>' in tile[: tile.index("</a>")]
    assert 'hx-trigger="every 5s"' in html and "vendor/htmx/htmx.min.js" in html
    # Who deals: the latest round's dealt_by.
    latest = Round.objects.filter(table__code="BND1").order_by("-opened_at").first()
    assert f'<dd class="tile-dealer">{latest.dealt_by}</dd>' in tile[: tile.index("</a>")]


def test_the_tiles_alone_for_polling(client, played):
    response = signed_in(client, "compliance").get(reverse("floor:tiles"))
    html = response.content.decode()
    assert response.status_code == 200 and html.lstrip().startswith('<div id="floor-tiles"')
    assert "<html" not in html


def test_a_tables_live_page(client, played):
    html = signed_in(client, "compliance").get(reverse("floor:table_live", args=["BND1"])).content.decode()
    assert "BND1-FLOOR" in html  # per shoe
    assert "D-EVA" in html and "D-FOX" in html  # per dealer
    assert "Per bet kind, today" in html and "Main" in html
    assert '<svg class="live-chart"' in html and "<polyline" in html
    assert html.count('hx-trigger="every 5s"') == 1


def test_customer_service_sees_no_floor(client, played):
    client = signed_in(client, "customer-service")
    assert client.get(reverse("floor:floor")).status_code == 403
    assert client.get(reverse("floor:table_live", args=["BND1"])).status_code == 403


def test_the_api_gives_the_figures_the_pages_show(played):
    api = APIClient()
    api.force_authenticate(demo_user("supervisor"))
    floor = api.get("/api/floor/").json()
    (tile,) = [tile for tile in floor["tables"] if tile["table"] == "BND1"]
    today = table_figures(played[0].table_id, day=date.fromisoformat(floor["day"]))
    assert today.rounds > 0  # rounds of the floor's gaming day (all 40 unless a cut-off fell among them)
    assert tile["today"]["rounds"] == today.rounds
    assert tile["today"]["ggr"] == f"{today.ggr:.2f}"
    live = api.get("/api/floor/BND1/").json()
    assert "BND1-FLOOR" in live["shoes"]
    assert set(live["dealers"]) == {"D-EVA", "D-FOX"}
    assert live["dealer"] == Round.objects.filter(table__code="BND1").latest("opened_at").dealt_by
    main = [kind for kind in live["today"]["kinds"] if kind["kind"] == "main"]
    assert main and main[0]["bets"] > 0
    assert set(live["today"]["findings"]) == {"money", "limit", "dealer", "other"}
    cs = APIClient()
    cs.force_authenticate(demo_user("customer-service"))
    assert cs.get("/api/floor/").status_code == 403


def test_the_vendored_htmx_is_the_version_the_makefile_fetches():
    import re
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    (version,) = re.findall(r"^HTMX_VERSION = (\S+)$", (root / "Makefile").read_text(), re.MULTILINE)
    script = (root / "static/vendor/htmx/htmx.min.js").read_text()
    assert f'version:"{version}"' in script
    assert "Zero-Clause BSD" in (root / "static/vendor/htmx/LICENSE").read_text()


def test_a_poll_after_the_session_ended_takes_the_whole_page_to_the_sign_in(client, demo):
    polled = client.get(reverse("floor:table_live_figures", args=["BND1"]), headers={"HX-Request": "true"})
    assert polled.status_code == 200 and polled.content == b""
    assert polled["HX-Redirect"] == "/accounts/login/?next=%2Ffloor%2FBND1%2F"
    tiles = client.get(reverse("floor:tiles"), headers={"HX-Request": "true"})
    assert tiles["HX-Redirect"] == "/accounts/login/?next=%2Ffloor%2F"
    # Without htmx (a person opening the URL), the usual way to the sign-in page.
    assert client.get(reverse("floor:tiles")).status_code == 302
    # Signed in without the permission: refused, not redirected.
    client.force_login(demo_user("customer-service"))
    assert client.get(reverse("floor:tiles"), headers={"HX-Request": "true"}).status_code == 403

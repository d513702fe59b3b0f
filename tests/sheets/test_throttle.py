"""The public sheets' throttle (issue 43): requests to the sheet pages, PDFs and the rules API are
counted per client address (accounts.sign_in.client_address: X-Forwarded-For only behind
PITBOSS_TRUSTED_PROXIES) by the minute in the cache; beyond PITBOSS_SHEET_REQUESTS_PER_MINUTE, 429 with
Retry-After and a small page. A counter the cache lost lets the request through."""

from datetime import UTC, datetime, timedelta

import pytest
from django.core.cache import cache
from django.test import Client
from freezegun import freeze_time

from tables.models import TableConfiguration
from tables.odds import configuration_odds_compute
from tables.services import table_set_status
from tests.factories import table, user
from tests.minute_support import twenty_seconds_into_a_minute

pytestmark = pytest.mark.django_db

# No such table: each request is a 404, counted as any other (the throttle comes first).
NOWHERE = ["/rules/NOPE1/", "/rules/NOPE1/fil/pdf/", "/api/tables/NOPE1/rules/"]


@pytest.fixture(autouse=True)
def small_rate(settings):
    cache.clear()
    settings.PITBOSS_SHEET_REQUESTS_PER_MINUTE = 3
    yield
    cache.clear()


@pytest.fixture(autouse=True)
def clock():
    """20 seconds into a minute: requests are counted by the minute."""
    with twenty_seconds_into_a_minute() as frozen:
        yield frozen


def statuses(client, urls) -> list[int]:
    return [client.get(url).status_code for url in urls]


def test_beyond_the_rate_an_address_gets_429_with_retry_after():
    client = Client(REMOTE_ADDR="203.0.113.9")
    assert statuses(client, NOWHERE) == [404, 404, 404]
    response = client.get("/rules/NOPE1/")
    assert response.status_code == 429
    assert response["Retry-After"] == "40"  # the seconds to the next minute
    assert "Too many requests" in response.text and '<main class="sheet">' in response.text
    assert "40 seconds" in response.text
    api = client.get("/api/tables/NOPE1/rules/")
    assert api.status_code == 429 and api["Retry-After"] == "40" and api.json()["detail"]


def test_the_sheet_pages_pdfs_and_api_share_one_allowance():
    with freeze_time(datetime.now(UTC) - timedelta(days=1)):
        dlx = table("DLX1")
        for configuration in TableConfiguration.objects.filter(table=dlx):
            configuration_odds_compute(configuration=configuration)
        table_set_status(table=dlx, status="open", changed_by=user(), reason="Shift start")
    client = Client(REMOTE_ADDR="203.0.113.9")
    assert statuses(client, ["/rules/DLX1/", "/rules/DLX1/fil/pdf/", "/api/tables/DLX1/rules/"]) == [200] * 3
    assert statuses(client, ["/rules/DLX1/pdf/", "/api/tables/DLX1/rules/"]) == [429, 429]


def test_each_address_is_counted_apart():
    first, second = Client(REMOTE_ADDR="203.0.113.9"), Client(REMOTE_ADDR="203.0.113.10")
    assert statuses(first, NOWHERE * 2) == [404] * 3 + [429] * 3
    assert statuses(second, NOWHERE) == [404] * 3
    assert statuses(second, NOWHERE[:1]) == [429]


def test_after_retry_after_the_address_is_answered_again(clock):
    client = Client(REMOTE_ADDR="203.0.113.9")
    assert statuses(client, NOWHERE + NOWHERE[:1]) == [404, 404, 404, 429]
    clock.tick(timedelta(seconds=39))
    assert statuses(client, NOWHERE[:1]) == [429]
    clock.tick(timedelta(seconds=1))
    assert statuses(client, NOWHERE[:1]) == [404]


def test_x_forwarded_for_is_not_read_without_trusted_proxies(settings):
    """With PITBOSS_TRUSTED_PROXIES=0 the header is whatever the client wrote: a new one each request
    does not give a new allowance."""
    settings.PITBOSS_TRUSTED_PROXIES = 0
    codes = [
        Client(REMOTE_ADDR="203.0.113.9", HTTP_X_FORWARDED_FOR=f"198.51.100.{n}").get(NOWHERE[0]).status_code
        for n in range(5)
    ]
    assert codes == [404, 404, 404, 429, 429]


def test_behind_a_trusted_proxy_the_forwarded_address_is_counted(settings):
    """Behind one proxy (REMOTE_ADDR is the proxy's) the client is the header's last address; what a
    client wrote further left is not read."""
    settings.PITBOSS_TRUSTED_PROXIES = 1

    def via_proxy(forwarded: str) -> Client:
        return Client(REMOTE_ADDR="10.0.0.1", HTTP_X_FORWARDED_FOR=forwarded)

    assert statuses(via_proxy("198.51.100.1"), NOWHERE) == [404] * 3
    assert statuses(via_proxy("192.0.2.77, 198.51.100.1"), NOWHERE[:1]) == [429]
    assert statuses(via_proxy("198.51.100.2"), NOWHERE) == [404] * 3


def test_a_counter_the_cache_lost_lets_the_request_through(monkeypatch):
    """The key went between add and incr (evicted, or the cache restarted): incr raises ValueError, and
    the request is answered rather than refused."""

    def lost(*args, **kwargs):
        raise ValueError("Key not found")

    monkeypatch.setattr(cache, "incr", lost)
    assert statuses(Client(REMOTE_ADDR="203.0.113.9"), NOWHERE * 2) == [404] * 6


def test_a_rate_of_zero_turns_the_throttle_off(settings):
    settings.PITBOSS_SHEET_REQUESTS_PER_MINUTE = 0
    assert statuses(Client(REMOTE_ADDR="203.0.113.9"), NOWHERE * 3) == [404] * 9


def test_staff_previews_are_not_throttled():
    supervisor = Client(REMOTE_ADDR="203.0.113.9")
    supervisor.force_login(user("supervisor"))
    assert statuses(supervisor, ["/rules/NOPE1/versions/1/"] * 5) == [404] * 5

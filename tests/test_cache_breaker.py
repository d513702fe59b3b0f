"""The production cache's breaker (core/cache.py): once the cache has failed, it is left alone (no
call touches its socket) and acts as an empty cache that keeps nothing, until, a retry interval
later, a short PING finds it back; the cache is then emptied and used again. One WARNING line a
minute says so while it is away, naming it without its password, and one line when it is back."""

import io
import logging

import pytest
from django.core.cache import caches
from django.core.management import call_command
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from accounts.services import token_create
from rounds.ingest import round_ingest
from tests.cache_support import (  # noqa: F401
    Clock,
    RedisServer,
    answer,
    breaker,
    clock,  # noqa: F811
    production_cache,
    production_cache_settings,
    redis_server,
)
from tests.factories import user
from tests.fixtures import round_document

pytestmark = [pytest.mark.django_db, pytest.mark.redis_server]
STAKE = {"player": "P1001", "table": "DLX1", "kind": "main", "amount": "10.00"}


def test_a_frozen_cache_is_left_alone_once_the_breaker_is_open_and_used_again_once_it_answers(
    redis_server,  # noqa: F811
    clock,  # noqa: F811
):
    call_command("seed_demo", stdout=io.StringIO())
    round_id = round_ingest(document=round_document("deluxe-split-double-play-behind")).round.round_id
    staff = Client()
    staff.force_login(user(username="compliance"))
    game_server = APIClient()
    game_server.credentials(HTTP_AUTHORIZATION=f"Token {token_create(user=user(username='game-server'))[1]}")
    pages = [reverse("rounds:round_list"), reverse("rounds:round_detail", args=[round_id])]

    def requests() -> list[tuple[int, str]]:
        answers = [answer(staff.get(page)) for page in pages]
        return [*answers, answer(game_server.post("/api/limits/check", STAKE, format="json"))]

    up = requests()
    assert [status for status, _ in up] == [200, 200, 200]
    redis_server.freeze()  # connections accepted, nothing answers
    assert requests() == up  # the first cache call waited its socket timeout
    assert breaker().is_open
    calls, probes, sockets = breaker().calls, breaker().probes, redis_server.connections()
    for _ in range(3):
        assert requests() == up
    assert (breaker().calls, breaker().probes, redis_server.connections()) == (calls, probes, sockets)

    clock.advance(breaker().retry_seconds)  # still frozen: one PING, unanswered
    assert requests() == up
    assert breaker().is_open and breaker().probes == probes + 1 and breaker().calls == calls

    redis_server.thaw()
    assert requests() == up  # within the interval: still not asked
    assert breaker().probes == probes + 1 and breaker().calls == calls
    clock.advance(breaker().retry_seconds)
    assert requests() == up
    assert not breaker().is_open and breaker().probes == probes + 2 and breaker().calls > calls
    cached = redis_server.client().keys("pitboss:*")
    assert any(b"template.cache.round_list_rows" in key for key in cached)
    assert any(b"throttle_game_server" in key for key in cached)


def test_while_open_the_cache_keeps_nothing_and_touches_no_socket(redis_server, clock):  # noqa: F811
    cache = caches["default"]
    cache.set("kept", 1)
    assert cache.get("kept") == 1
    redis_server.stop()
    assert cache.get("kept", "missing") == "missing"  # this call found it gone
    assert breaker().is_open
    calls = breaker().calls
    assert cache.get("kept") is None
    assert cache.add("new", 1) is True  # as Django's dummy cache, which keeps nothing
    assert cache.set("new", 1) is None and cache.get("new") is None
    with pytest.raises(ValueError):
        cache.incr("kept")
    with pytest.raises(ValueError):
        cache.decr("kept")
    assert cache.get_many(["kept", "new"]) == {}
    assert cache.set_many({"kept": 2, "new": 2}) == []
    assert cache.has_key("kept") is False and "kept" not in cache
    assert cache.touch("kept") is False and cache.delete("kept") is False
    assert cache.delete_many(["kept", "new"]) is None
    assert cache.get_or_set("other", 3) == 3
    cache.clear()
    assert breaker().calls == calls


def test_one_warning_a_minute_while_the_cache_is_away_and_a_line_when_it_is_back(settings, tmp_path, caplog):
    server = RedisServer(tmp_path, password="s3cret-Passw0rd")
    server.start()
    try:
        settings.CACHES = {"default": production_cache(server.url)}
        breaker().reset()
        moved = Clock()
        breaker().clock = moved
        cache = caches["default"]
        cache.set("kept", 1)
        server.stop()
        with caplog.at_level(logging.INFO, logger="core.cache"):
            for _ in range(5):
                cache.get("kept")
            moved.advance(59)
            cache.get("kept")
            lines = [record for record in caplog.records if record.name == "core.cache"]
            assert [record.levelname for record in lines] == ["WARNING"]
            moved.advance(1)
            for _ in range(5):
                cache.get("kept")
            lines = [record for record in caplog.records if record.name == "core.cache"]
            assert [record.levelname for record in lines] == ["WARNING", "WARNING"]
            server.start()
            moved.advance(breaker().retry_seconds)
            cache.get("kept")
            cache.get("kept")
        lines = [record.getMessage() for record in caplog.records if record.name == "core.cache"]
        assert len(lines) == 3
        where = f"redis://127.0.0.1:{server.port}/0"
        assert all(where in line and "s3cret" not in line for line in lines)
        assert "away" in lines[0] and "still away" in lines[1] and "back" in lines[2]
    finally:
        server.close()

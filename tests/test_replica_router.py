"""The replica router without a replica server (core/replica.py): routing without the alias, migrations,
the request's choice, read-your-writes in the cache, the breaker on a real refused connection.
tests/replica runs the same against a real primary and standby."""

import json
import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.db import connections
from django.test import RequestFactory

from core.replica import (
    DEFAULT,
    REPLICA,
    Replica,
    ReplicaRouter,
    choose,
    read_database,
    replica_reads,
    wrote_key,
    wrote_recently_stamp,
)
from rounds.models import Round

User = get_user_model()
ROOT = Path(__file__).resolve().parent.parent

# The fixture below adds an alias the connection handler never opens; Django warns of any DATABASES change.
pytestmark = pytest.mark.filterwarnings("ignore:Overriding setting DATABASES")

router = ReplicaRouter()


def closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]  # nothing listens once the probe is closed


@pytest.fixture
def replica_named(settings):
    """A "replica" alias in the settings, never connected to (the breaker's test runs a process of
    its own with REPLICA_DATABASE_URL set)."""
    settings.DATABASES = {  # warns: the connection handler never opens this alias here
        **settings.DATABASES,
        REPLICA: {"ENGINE": "django.db.backends.postgresql", "HOST": "127.0.0.1", "PORT": closed_port()},
    }
    return settings


def test_without_the_alias_everything_reads_and_writes_default():
    assert REPLICA not in connections.settings
    assert choose(RequestFactory().get("/")) == DEFAULT
    with replica_reads(DEFAULT):
        assert router.db_for_read(Round) == DEFAULT
    assert router.db_for_write(Round) == DEFAULT
    assert Round.objects.all().db == DEFAULT


def test_migrations_only_on_default():
    assert router.allow_migrate(DEFAULT, "rounds")
    assert not router.allow_migrate(REPLICA, "rounds")
    assert router.allow_relation(object(), object())


def test_reads_follow_the_context_and_users_stay_on_the_primary():
    assert read_database.get() == DEFAULT
    with replica_reads(REPLICA):
        assert router.db_for_read(Round) == REPLICA
        assert router.db_for_read(User) == DEFAULT  # sign-in, sessions, permissions: the primary
        assert router.db_for_write(Round) == DEFAULT
    assert router.db_for_read(Round) == DEFAULT


@pytest.mark.django_db
def test_a_writer_reads_the_primary_for_a_while(replica_named):
    from django.core.cache import cache

    user = User.objects.create_user("writer", password="x")
    request = RequestFactory().get("/")
    request.user = user
    cache.set(wrote_key(user.pk), 1, timeout=10)
    assert choose(request) == DEFAULT
    # A write request is never sent to the replica, whoever asks.
    assert choose(RequestFactory().post("/")) == DEFAULT
    cache.delete(wrote_key(user.pk))


@pytest.mark.django_db
def test_the_stamp_follows_an_unsafe_request_of_a_signed_in_user(replica_named):
    from django.core.cache import cache
    from django.http import HttpResponse

    replica_named.PITBOSS_READ_YOUR_WRITES_SECONDS = 10
    user = User.objects.create_user("stamped", password="x")
    stamp = wrote_recently_stamp(lambda request: HttpResponse())
    for method in ("get", "head", "options"):
        request = getattr(RequestFactory(), method)("/")
        request.user = user
        stamp(request)
    assert cache.get(wrote_key(user.pk)) is None
    request = RequestFactory().post("/")
    request.user = user  # DRF sets a token's user on the request as well
    stamp(request)
    assert cache.get(wrote_key(user.pk)) is not None


class Clock:
    def __init__(self):
        self.now = 1000.0

    def __call__(self):
        return self.now


BREAKER_SCRIPT = """
import json, django
django.setup()
from core.replica import Replica
gauge = Replica()
now = [1000.0]
gauge.clock = lambda: now[0]
attempts = []
measure = gauge.measure
def counted():
    attempts.append(1)
    return measure()
gauge.measure = counted
seen = [gauge.state(), gauge.breaker_open()]
now[0] += 29
seen += [gauge.state(), len(attempts)]
now[0] += 1
seen += [gauge.state(), len(attempts)]
print(json.dumps(seen))
"""


def test_a_refused_replica_opens_the_breaker_until_the_retry():
    """A real refused connection, in a process whose REPLICA_DATABASE_URL names a closed port."""
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "REPLICA_DATABASE_URL": f"postgres://postgres@127.0.0.1:{closed_port()}/pitboss",
        "PITBOSS_REPLICA_RETRY_SECONDS": "30",
    }
    done = subprocess.run(
        [sys.executable, "-c", BREAKER_SCRIPT], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    down = ["down", None]
    assert json.loads(done.stdout.splitlines()[-1]) == [
        down,
        True,  # the breaker is open
        down,
        1,  # open: nothing tried the replica again
        down,
        2,  # closed after the retry time: tried once more, refused again
    ]


def test_the_lag_bound_and_the_measure_kept(replica_named):
    replica_named.PITBOSS_REPLICA_MAX_LAG_BYTES = 100
    replica_named.PITBOSS_REPLICA_LAG_CHECK_SECONDS = 5
    gauge = Replica()
    gauge.clock = clock = Clock()
    lags = iter([50, 500])
    gauge.measure = lambda: next(lags)
    assert gauge.state() == ("ok", 50)
    clock.now += 4
    assert gauge.state() == ("ok", 50)  # kept: not measured again yet
    clock.now += 1
    assert gauge.state() == ("lagging", 500)


RETRY_SCRIPT = """
import json, django
django.setup()
from django.db import OperationalError
from django.http import HttpResponse
from django.test import RequestFactory
from django.views import View
from core.replica import REPLICA, ReplicaReadsMixin, read_database, replica

replica.measured_at, replica.lag_bytes = replica.clock(), 0  # as if measured: the replica is close behind
tried = []

class Page(ReplicaReadsMixin, View):
    def get(self, request):
        tried.append(read_database.get())
        if read_database.get() == REPLICA:
            raise OperationalError("the replica went away")
        return HttpResponse("read")

first = Page.as_view()(RequestFactory().get("/"))
second = Page.as_view()(RequestFactory().get("/"))
header = "Pitboss-Read-Database"
print(json.dumps([tried, first[header], replica.breaker_open(), second[header]]))
"""


def test_a_replica_failing_mid_request_is_retried_once_on_the_primary():
    """A safe request whose replica fails (OperationalError) runs again on the primary; the breaker
    opens, so the next request reads the primary from the start."""
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "REPLICA_DATABASE_URL": f"postgres://postgres@127.0.0.1:{closed_port()}/pitboss",
        "PITBOSS_REPLICA_LAG_CHECK_SECONDS": "3600",
    }
    done = subprocess.run(
        [sys.executable, "-c", RETRY_SCRIPT], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    tried, first, breaker_open, second = json.loads(done.stdout.splitlines()[-1])
    assert tried == [REPLICA, DEFAULT, DEFAULT]
    assert (first, breaker_open, second) == ("primary", True, "primary")

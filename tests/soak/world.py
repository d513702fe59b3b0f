"""The soak's own world: a database nobody else uses, its tables, game servers, staff and a webhook.

With PostgreSQL's server programs, a private primary and streaming standby (tests/replica_support.py)
so that the replica is soaked too; without them, a scratch database `pitboss_soak_<pid>` on
DATABASE_URL's server, dropped at the end. Either way the soak's disruptions touch only it: the
connections it terminates are its database's.

The tables are the demo's four (seed_demo) and more of each game, with the same limits (Boundless's
main bet from 1.00, the simulator's least stake, as bench_ingest's), open since the rules were
published; each table's game server has an account and a token of its own.
"""

import io
import os
from contextlib import contextmanager
from dataclasses import dataclass
from decimal import Decimal

import psycopg

from tests.replica_support import Pair, make_pair, server_problem

GAMES = {"DLX": "deluxe", "BND": "boundless", "CLS": "classic", "MPB": "multiplayer"}
STAFF = "supervisor"  # the pages under load are read as this seed_demo user (a second factor: a code)


@dataclass
class World:
    database: str
    database_url: str
    replica_url: str | None = None
    pair: Pair | None = None

    def connect(self) -> psycopg.Connection:
        """A connection of the soak's own to its database, autocommit."""
        return psycopg.connect(self.database_url, autocommit=True)

    def scalar(self, statement: str, params=()):
        with self.connect() as connection:
            return connection.execute(statement, params).fetchone()[0]


@contextmanager
def scratch_world(replica: bool = True):
    """Yields the World; everything it made is stopped or dropped at the end."""
    if replica and server_problem() is None:
        pair = make_pair()
        try:
            name = "pitboss_soak"
            pair.sql(pair.primary_port, f"CREATE DATABASE {name}")
            yield World(
                name,
                pair.url(pair.primary_port, name),
                replica_url=pair.url(pair.standby_port, name),
                pair=pair,
            )
        finally:
            pair.stop()
        return
    server = os.environ.get("DATABASE_URL", "")
    if not server.startswith(("postgres://", "postgresql://")):
        raise SystemExit("make soak needs PostgreSQL: its server programs, or DATABASE_URL naming a server.")
    name = f"pitboss_soak_{os.getpid()}"
    maintenance = server.rsplit("/", 1)[0] + "/postgres"
    with psycopg.connect(maintenance, autocommit=True) as connection:
        connection.execute(f'CREATE DATABASE "{name}"')
    try:
        yield World(name, server.rsplit("/", 1)[0] + "/" + name)
    finally:
        with psycopg.connect(maintenance, autocommit=True) as connection:
            connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@dataclass(frozen=True)
class SoakTable:
    code: str
    game: str
    token: str  # its game server's API token


def seed(tables_per_game: int) -> list[SoakTable]:
    """Migrate, seed the demo, add the further tables and each table's game server. Django is set up
    on the world's database."""
    from django.core.management import call_command

    from accounts.roles import GAME_SERVER
    from accounts.services import token_create, user_create
    from demo.management.commands.seed_demo import RULES_PUBLISHED
    from limits.models import TableLimit
    from limits.services import table_limit_set
    from tables.models import Table, TableStatusChange
    from tables.services import table_create, table_set_status

    call_command("migrate", verbosity=0, interactive=False)
    call_command("seed_demo", stdout=io.StringIO())
    supervisor = _user(STAFF)
    tables = []
    for prefix, game in GAMES.items():
        first = Table.objects.get(code=f"{prefix}1")
        for number in range(1, tables_per_game + 1):
            code = f"{prefix}{number}"
            table = Table.objects.filter(code=code).first()
            if table is None:
                table = table_create(
                    code=code,
                    name=f"{first.name[:-2]} {number}",
                    game=game,
                    currency="EUR",
                    studio="Soak studio",
                    created_by=supervisor,
                    reason="Soak table",
                    first_version_from=RULES_PUBLISHED,
                )
                opening = table_set_status(table=table, status="open", changed_by=supervisor, reason="Soak")
                TableStatusChange.objects.filter(pk=opening.pk).update(changed_at=RULES_PUBLISHED)
            for limit in TableLimit.objects.filter(table=first):
                # The simulator's stakes start at 1.00: a Boundless main bet it keeps to.
                least = Decimal("1.00") if game == "boundless" and limit.kind == "main" else limit.min_stake
                if table != first or least != limit.min_stake:
                    table_limit_set(
                        table=table,
                        kind=limit.kind,
                        min_stake=least,
                        max_stake=limit.max_stake,
                        changed_by=supervisor,
                        reason="Soak limits",
                    )
            server = user_create(
                username=f"game-server-{code}", password=os.urandom(16).hex(), role=GAME_SERVER
            )
            _, key = token_create(user=server, name=f"soak {code}")
            tables.append(SoakTable(code, game, key))
    return tables


def _user(username: str):
    from django.contrib.auth import get_user_model

    return get_user_model().objects.get(username=username)


def webhook_endpoint(url: str) -> int:
    """A webhook endpoint of every alert (warnings too) at `url`, owned by compliance; its pk."""
    from alerts.choices import Severity
    from notifications.services import endpoint_create

    endpoint, _ = endpoint_create(
        owner=_user("compliance"), name="soak receiver", url=url, severity=Severity.WARNING
    )
    return endpoint.pk

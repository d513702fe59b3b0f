"""The players of a round: read in one statement, and created when a game server sends one first."""

from typing import NamedTuple

from django.db import connection
from django.utils import timezone

from blackjack.document import RoundRecord
from limits.models import PersonalLimit, Player
from tables.models import Table

from ..bulk import insert_rows


class PlayerRow(NamedTuple):
    """What ingest needs of a player: 5,000 of these cost a fraction of 5,000 model instances (and
    as a tuple, a fraction of 5,000 frozen dataclasses)."""

    pk: int
    external_id: str
    account_type: str
    status: str
    currency: str

    def as_player(self) -> Player:
        return Player(
            id=self.pk,
            external_id=self.external_id,
            account_type=self.account_type,
            status=self.status,
            currency=self.currency,
        )


_PLAYER_ROW_FIELDS = ["id", "external_id", "account_type", "status", "currency"]
_PLAYER_FIELDS = [f.attname for f in Player._meta.concrete_fields]


def players_of_round(record: RoundRecord, table: Table, player_ids: set[str]) -> dict[str, PlayerRow]:
    """Every player of the round by external id; one the game server sends first is created as a
    real-money account in the table's currency, with its history record."""
    ids = sorted(player_ids)
    known = _players_named(ids)
    missing = [external_id for external_id in ids if external_id not in known]
    if missing:
        _players_create(missing, table.currency, f"First seen in round {record.round_id}")
        known = _players_named(ids)
    return known


def with_personal_limits(player_pks: list[int]) -> list[int]:
    """Those of the players who ever set a personal limit (few: the rest need no more reading)."""
    if connection.vendor != "postgresql":
        return list(
            PersonalLimit.objects.filter(player_id__in=player_pks)
            .values_list("player_id", flat=True)
            .distinct()
        )
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT DISTINCT player_id FROM {PersonalLimit._meta.db_table} WHERE player_id = ANY(%s)",
            [player_pks],
        )
        return [row[0] for row in cursor.fetchall()]


def _players_named(ids: list[str]) -> dict[str, PlayerRow]:
    if connection.vendor != "postgresql":
        rows = Player.objects.filter(external_id__in=ids).values_list(*_PLAYER_ROW_FIELDS)
    else:
        # One array parameter: an IN list of 5,000 values costs Django more to build than the query.
        with connection.cursor() as cursor:
            cursor.execute(
                f"SELECT {', '.join(_PLAYER_ROW_FIELDS)} FROM {Player._meta.db_table} "
                "WHERE external_id = ANY(%s::text[])",
                [ids],
            )
            rows = cursor.fetchall()
    make = PlayerRow._make
    return {row[1]: make(row) for row in rows}


def _players_create(external_ids: list[str], currency: str, reason: str) -> None:
    now = timezone.now()
    if connection.vendor == "postgresql":
        # ON CONFLICT: a player first seen by two rounds at once is created once.
        with connection.cursor() as cursor:
            cursor.execute(
                f"INSERT INTO {Player._meta.db_table} "
                "(external_id, display_name, account_type, currency, status, created_at) "
                "SELECT unnest(%s::text[]), '', 'real', %s, 'active', %s "
                "ON CONFLICT (external_id) DO NOTHING RETURNING id",
                [external_ids, currency, now],
            )
            created = [row[0] for row in cursor.fetchall()]
    else:
        new = [
            Player(external_id=external_id, currency=currency, account_type="real", created_at=now)
            for external_id in external_ids
        ]
        Player.objects.bulk_create(new, ignore_conflicts=True)  # writes are serialised here
        created = list(Player.objects.filter(external_id__in=external_ids).values_list("id", flat=True))
    history = Player.history.model
    fields = [*_PLAYER_FIELDS, "history_date", "history_change_reason", "history_type", "history_user_id"]
    insert_rows(
        history,
        fields,
        [
            (*(getattr(p, f) for f in _PLAYER_FIELDS), now, reason[:100], "+", None)
            for p in Player.objects.filter(pk__in=created)
        ],
    )

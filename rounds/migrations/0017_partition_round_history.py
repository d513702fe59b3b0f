"""PostgreSQL: the round tables partitioned by month of the gaming day (rounds.partitions), and the
corrections' foreign keys to the registry. Nothing on SQLite.

A new database's tables are converted here. A table that already holds rounds is left as it is, and
said so: converting it is `manage.py history_partition` (batched and resumable; see the README)."""

from django.db import migrations
from django.utils import timezone

from rounds.partition_convert import table_partition, table_unpartition
from rounds.partitions import is_partitioned

# The tables this migration partitions, and their partition keys, written out: a migration must
# not change with the code (rounds.partitions.PARTITIONED). Spots and hands, partitioned here once,
# are left as plain tables for 0019 to drop.
PARTITIONED = {
    "rounds_round": "gaming_day",
    "rounds_bet": "gaming_day",
    "rounds_finding": "gaming_day",
    "rounds_tabledaytotal": "day",
    "rounds_tabledaypatternhits": "day",
    "rounds_playerdaytotal": "day",
    "rounds_adjustment": "gaming_day",
    "rounds_refund": "gaming_day",
}

# The tables whose unique constraints named their partition key before this migration (a day
# total's day); the others had it added, and lose it again on the way back.
KEY_IN_UNIQUE_BEFORE = {"rounds_tabledaytotal", "rounds_tabledaypatternhits", "rounds_playerdaytotal"}

# What points at a round or a bet from outside its month, to the registry (same ids).
REGISTRY_LINKS = [
    ("rounds_resettlement", "round_id", "rounds_roundkey"),
    ("rounds_incident", "round_id", "rounds_roundkey"),
    ("rounds_void", "round_id", "rounds_roundkey"),
    ("rounds_roundcorrection", "round_id", "rounds_roundkey"),
    ("rounds_adjustment", "bet_id", "rounds_betkey"),
    ("rounds_refund", "bet_id", "rounds_betkey"),
    ("rounds_voidline", "bet_id", "rounds_betkey"),
]


def partition(apps, schema_editor):
    connection = schema_editor.connection
    if connection.vendor != "postgresql":
        return
    today = timezone.localdate()
    with connection.cursor() as cursor:
        for table, key in PARTITIONED.items():
            if is_partitioned(table):
                continue
            cursor.execute(f"SELECT EXISTS (SELECT 1 FROM {table})")
            if cursor.fetchone()[0]:
                print(f"\n  {table} holds rows: left unpartitioned; run manage.py history_partition")
                continue
            table_partition(table, key, today)
        for table, column, registry in REGISTRY_LINKS:
            name = f"{table}_{column}_registered"
            cursor.execute(
                f"ALTER TABLE {table} ADD CONSTRAINT {name} FOREIGN KEY ({column}) "
                f"REFERENCES {registry} (id) DEFERRABLE INITIALLY DEFERRED"
            )


def unpartition(apps, schema_editor):
    connection = schema_editor.connection
    if connection.vendor != "postgresql":
        return
    with connection.cursor() as cursor:
        for table, column, _registry in REGISTRY_LINKS:
            cursor.execute(f"ALTER TABLE {table} DROP CONSTRAINT IF EXISTS {table}_{column}_registered")
    for table, key in PARTITIONED.items():
        if is_partitioned(table):
            table_unpartition(table, key, unique_with_key=table in KEY_IN_UNIQUE_BEFORE)


class Migration(migrations.Migration):
    dependencies = [("rounds", "0016_round_registry_and_gaming_days")]

    operations = [migrations.RunPython(partition, unpartition)]

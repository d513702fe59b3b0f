"""Spots and hands are read from the round's document (rounds.deal), which holds them as received:
their tables go, and with them 150 bytes a bet on disk. Nothing is lost: every stored round keeps
its document. On PostgreSQL, dropping a partitioned table drops its partitions."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("rounds", "0018_registry_one_index_per_id"),
    ]

    operations = [
        migrations.DeleteModel(name="Hand"),
        migrations.DeleteModel(name="Spot"),
    ]

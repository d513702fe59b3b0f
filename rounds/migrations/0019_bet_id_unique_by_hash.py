# The bet registry's id kept unique by a hash index (rounds.constraints.HashUniqueConstraint): the new
# constraint first, so that bet ids are never unchecked, then the btree one goes.

from django.db import migrations

import rounds.constraints


class Migration(migrations.Migration):
    dependencies = [
        ("rounds", "0018_registry_one_index_per_id"),
    ]

    operations = [
        migrations.AddConstraint(
            model_name="betkey",
            constraint=rounds.constraints.HashUniqueConstraint(fields=("bet_id",), name="bet_key_bet_id_hash_unique"),
        ),
        migrations.RemoveConstraint(
            model_name="betkey",
            name="bet_key_bet_id_unique",
        ),
    ]

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("rounds", "0017_partition_round_history"),
        ("tables", "0007_table_dealer"),
    ]

    operations = [
        # The unique constraints first, so that ids are never unchecked; then unique=True goes, with
        # its LIKE index (varchar_pattern_ops), the largest index of a round at one row per bet.
        migrations.AddConstraint(
            model_name="betkey",
            constraint=models.UniqueConstraint(fields=("bet_id",), name="bet_key_bet_id_unique"),
        ),
        migrations.AddConstraint(
            model_name="roundkey",
            constraint=models.UniqueConstraint(fields=("round_id",), name="round_key_round_id_unique"),
        ),
        migrations.AlterField(
            model_name="betkey",
            name="bet_id",
            field=models.CharField(help_text="The game server's bet id.", max_length=64),
        ),
        migrations.AlterField(
            model_name="roundkey",
            name="round_id",
            field=models.CharField(help_text="The game server's round id.", max_length=64),
        ),
    ]

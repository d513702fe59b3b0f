"""Stored odds carry the method that worked them out: the rows kept so far are of method 1.

Nothing is computed here (a main game takes seconds per rule set): Celery beat's
`tables.tasks.configuration_odds_refresh` works out again, and replaces, every version's figures of an
older method, or `manage.py odds_refresh` does it at once.
"""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("tables", "0002_configuration_odds"),
    ]

    operations = [
        migrations.AddField(
            model_name="configurationodds",
            name="method",
            field=models.PositiveSmallIntegerField(
                default=1,
                help_text="The odds engine's method that worked these out "
                "(blackjack.odds.METHOD_VERSION).",
            ),
            preserve_default=False,
        ),
    ]

"""Every round has its gaming day (0008 filled the stored ones); indexes for a day's rounds.

Apart from 0008: on PostgreSQL a table cannot be altered in the transaction that updated its rows
while their trigger events are pending.
"""

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('rounds', '0008_round_gaming_day'),
    ]

    operations = [
        migrations.AlterField(
            model_name='round',
            name='gaming_day',
            field=models.DateField(help_text='The gaming day it opened in (core.gaming_day), under the settings when it was stored.'),
        ),
        migrations.AddIndex(
            model_name='round',
            index=models.Index(fields=['gaming_day', '-id'], name='rounds_roun_gaming__5171c3_idx'),
        ),
        migrations.AddIndex(
            model_name='round',
            index=models.Index(fields=['table', 'gaming_day'], name='rounds_roun_table_i_417ceb_idx'),
        ),
    ]

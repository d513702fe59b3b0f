"""The code's one word for who deals is `dealer` (issue 18): the column is renamed, its data kept."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("tables", "0006_status_change_table_changed_at"),
    ]

    operations = [
        migrations.RenameField(model_name="table", old_name="facilitator", new_name="dealer"),
        migrations.RenameField(model_name="historicaltable", old_name="facilitator", new_name="dealer"),
        migrations.AlterField(
            model_name="table",
            name="dealer",
            field=models.CharField(blank=True, max_length=100, verbose_name="dealer on duty"),
        ),
        migrations.AlterField(
            model_name="historicaltable",
            name="dealer",
            field=models.CharField(blank=True, max_length=100, verbose_name="dealer on duty"),
        ),
    ]

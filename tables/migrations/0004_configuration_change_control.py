"""Change control of configuration versions: proposed, approved or rejected (existing versions: approved)."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("tables", "0003_configuration_odds_method"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AlterModelOptions(
            name="tableconfiguration",
            options={
                "ordering": ["table", "-version"],
                "permissions": [
                    ("decide_tableconfiguration", "Can approve or reject a configuration change")
                ],
            },
        ),
        migrations.RemoveConstraint(
            model_name="tableconfiguration",
            name="configuration_valid_from_unique",
        ),
        migrations.AddField(
            model_name="tableconfiguration",
            name="decided_at",
            field=models.DateTimeField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name="tableconfiguration",
            name="decided_by",
            field=models.ForeignKey(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.PROTECT,
                related_name="+",
                to=settings.AUTH_USER_MODEL,
            ),
        ),
        migrations.AddField(
            model_name="tableconfiguration",
            name="decision_comment",
            field=models.TextField(blank=True),
        ),
        migrations.AddField(
            model_name="tableconfiguration",
            name="requested_from",
            field=models.DateTimeField(
                blank=True,
                help_text="The start the proposer asked for; empty: as soon as approved.",
                null=True,
            ),
        ),
        # Every version stored before change control was in force as it was saved: approved. Versions
        # added from now on start as proposed.
        migrations.AddField(
            model_name="tableconfiguration",
            name="status",
            field=models.CharField(
                choices=[("proposed", "Proposed"), ("approved", "Approved"), ("rejected", "Rejected")],
                default="approved",
                max_length=8,
            ),
        ),
        migrations.AlterField(
            model_name="tableconfiguration",
            name="status",
            field=models.CharField(
                choices=[("proposed", "Proposed"), ("approved", "Approved"), ("rejected", "Rejected")],
                default="proposed",
                max_length=8,
            ),
        ),
        migrations.AlterField(
            model_name="tableconfiguration",
            name="created_by",
            field=models.ForeignKey(
                on_delete=django.db.models.deletion.PROTECT,
                related_name="+",
                to=settings.AUTH_USER_MODEL,
                verbose_name="proposed by",
            ),
        ),
        migrations.AlterField(
            model_name="tableconfiguration",
            name="valid_from",
            field=models.DateTimeField(
                help_text="When it is (or, while proposed, would be) in force from; fixed at approval."
            ),
        ),
        migrations.AddConstraint(
            model_name="tableconfiguration",
            constraint=models.UniqueConstraint(
                condition=models.Q(("status", "approved")),
                fields=("table", "valid_from"),
                name="configuration_valid_from_unique",
            ),
        ),
        migrations.AddConstraint(
            model_name="tableconfiguration",
            constraint=models.UniqueConstraint(
                condition=models.Q(("status", "proposed")),
                fields=("table",),
                name="configuration_one_open_proposal",
            ),
        ),
        migrations.AddConstraint(
            model_name="tableconfiguration",
            constraint=models.CheckConstraint(
                condition=models.Q(("status__in", ["proposed", "approved", "rejected"])),
                name="configuration_status_known",
            ),
        ),
        migrations.AddConstraint(
            model_name="tableconfiguration",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    models.Q(("status", "proposed"), _negated=True),
                    models.Q(("decided_at__isnull", True), ("decided_by__isnull", True)),
                    _connector="OR",
                ),
                name="configuration_proposal_undecided",
            ),
        ),
        migrations.AddConstraint(
            model_name="tableconfiguration",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    models.Q(("status", "rejected"), _negated=True),
                    ("decided_by__isnull", False),
                    _connector="OR",
                ),
                name="configuration_rejection_decided",
            ),
        ),
        migrations.AddConstraint(
            model_name="tableconfiguration",
            constraint=models.CheckConstraint(
                condition=models.Q(("decided_by", models.F("created_by")), _negated=True),
                name="configuration_decided_by_another",
            ),
        ),
    ]

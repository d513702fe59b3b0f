"""Every DRF token (rest_framework.authtoken) becomes an ApiToken with the same key, so deployed game
servers keep working; the DRF rows, which hold the keys in the clear, are deleted. Not reversible:
the keys are no longer known."""

from django.db import migrations

from accounts.models import PREFIX_LENGTH, key_digest


def drf_tokens_move(apps, schema_editor):
    DrfToken = apps.get_model("authtoken", "Token")
    ApiToken = apps.get_model("accounts", "ApiToken")
    database = schema_editor.connection.alias
    old = list(DrfToken.objects.using(database).all())
    ApiToken.objects.using(database).bulk_create(
        ApiToken(
            user_id=token.user_id,
            name="moved from DRF's token",
            prefix=token.key[:PREFIX_LENGTH],
            digest=key_digest(token.key),
            created_at=token.created,
        )
        for token in old
    )
    DrfToken.objects.using(database).filter(pk__in=[token.pk for token in old]).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0001_api_token"),
        ("authtoken", "0004_alter_tokenproxy_options"),
    ]

    operations = [migrations.RunPython(drf_tokens_move, migrations.RunPython.noop, elidable=True)]

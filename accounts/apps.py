from django.apps import AppConfig
from django.db.models.signals import post_migrate


class AccountsConfig(AppConfig):
    name = "accounts"
    verbose_name = "Accounts and roles"

    def ready(self):
        from .roles import roles_sync

        # Permissions exist only once every app has migrated; the roles follow them.
        post_migrate.connect(lambda **kwargs: roles_sync(), dispatch_uid="accounts_roles_sync", weak=False)

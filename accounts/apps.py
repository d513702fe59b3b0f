from django.apps import AppConfig
from django.contrib.auth.signals import user_logged_in
from django.db.models.signals import post_migrate


class AccountsConfig(AppConfig):
    name = "accounts"
    verbose_name = "Accounts and roles"

    def ready(self):
        from . import second_factor, second_factor_forms, session_end, sign_in_record
        from .guesses import sign_in_succeeded
        from .roles import roles_sync
        from .services import time_zone_remember
        from .session_lifetime import session_stamp

        # Permissions exist only once every app has migrated; the roles follow them.
        post_migrate.connect(lambda **kwargs: roles_sync(), dispatch_uid="accounts_roles_sync", weak=False)
        user_logged_in.connect(time_zone_remember, dispatch_uid="accounts_time_zone_remember")
        # Here, not where the middleware is: a sign-in can come before the first request loads it.
        user_logged_in.connect(session_stamp, dispatch_uid="accounts_session_stamp")
        # The attempt counted before its password was checked was no wrong guess (accounts/guesses.py).
        user_logged_in.connect(sign_in_succeeded, dispatch_uid="accounts_sign_in_succeeded")
        second_factor.connect()
        second_factor_forms.connect()
        session_end.connect()
        sign_in_record.connect()
        from . import checks  # noqa: F401 (registers the sign-in settings' checks)

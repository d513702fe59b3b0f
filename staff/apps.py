from django.apps import AppConfig


class StaffConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "staff"
    verbose_name = "Staff administration"

    def ready(self):
        # The ledger keeps a hash chain of the account changes in their final state.
        from ledger.chains import register

        from .ledger_chains import ACCOUNT_CHANGES

        register(ACCOUNT_CHANGES)

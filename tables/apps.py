from django.apps import AppConfig


class TablesConfig(AppConfig):
    name = "tables"
    verbose_name = "Tables"

    def ready(self):
        # The ledger keeps a hash chain of the approved configuration versions.
        from ledger.chains import register

        from .ledger_chains import APPROVED_CONFIGURATIONS

        register(APPROVED_CONFIGURATIONS)

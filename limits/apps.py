from django.apps import AppConfig


class LimitsConfig(AppConfig):
    name = "limits"
    verbose_name = "Limits"

    def ready(self):
        # Tables may not import limits (apps depend downwards), so limits adds its panels to the
        # table page: the stake range of each bet kind, and their changes.
        from tables.selectors import table_panels

        from .table_panels import TABLE_LIMIT_CHANGES, TABLE_LIMITS

        for panel in (TABLE_LIMITS, TABLE_LIMIT_CHANGES):
            if panel not in table_panels:
                table_panels.append(panel)
        # ... and the ledger keeps a hash chain of the limit changes.
        from ledger.chains import register

        from .ledger_chains import CHAINS

        for chain in CHAINS:
            register(chain)

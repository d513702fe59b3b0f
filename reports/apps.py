from django.apps import AppConfig


class ReportsConfig(AppConfig):
    name = "reports"
    verbose_name = "Reports"

    def ready(self):
        # Tables may not import reports (apps depend downwards), so reports adds the link to a
        # table's last daily report to the table page.
        from tables.selectors import table_panels

        from .table_panels import LAST_REPORT

        if LAST_REPORT not in table_panels:
            table_panels.append(LAST_REPORT)
        # The ledger keeps a hash chain of the sign-offs.
        from ledger.chains import register

        from .ledger_chains import SIGN_OFFS

        register(SIGN_OFFS)

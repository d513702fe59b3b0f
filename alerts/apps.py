from django.apps import AppConfig


class AlertsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "alerts"

    def ready(self):
        # The floor's tiles and the tables pages show a table's open alerts; tables never imports
        # alerts (apps depend downwards), so alerts registers them.
        from tables.selectors import table_alert_sources

        from .table_alerts import OPEN_ALERTS

        if OPEN_ALERTS not in table_alert_sources:
            table_alert_sources.append(OPEN_ALERTS)

from django.apps import AppConfig


class NotificationsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "notifications"

    def ready(self):
        # Alerts never import notifications (apps depend downwards): each event an alert records is
        # announced by alerts.signals, and its deliveries are made here, in the same transaction.
        from alerts.signals import alert_event_recorded

        from .services import deliveries_for_event

        alert_event_recorded.connect(deliveries_for_event, dispatch_uid="notifications.deliveries_for_event")

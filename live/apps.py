from django.apps import AppConfig


class LiveConfig(AppConfig):
    name = "live"
    verbose_name = "Live figures"

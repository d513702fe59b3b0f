from django.apps import AppConfig


class RegulatorConfig(AppConfig):
    name = "regulator"
    verbose_name = "Regulator"

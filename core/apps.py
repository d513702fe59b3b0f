from django.apps import AppConfig


class CoreConfig(AppConfig):
    """An app only for its template tags (`{% load pitboss %}`) and its date formats; no models."""

    name = "core"
    verbose_name = "Pitboss core"

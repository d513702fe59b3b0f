from django.apps import AppConfig


class DemoConfig(AppConfig):
    """The demo's commands (seed_demo, demo_day): they fill every app, so they sit above all of them,
    and no app imports this one."""

    name = "demo"
    verbose_name = "Demo"

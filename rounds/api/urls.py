"""The rounds app's API routes: rounds (views.py); re-settlements, incidents and voids
(resettlements.py, incidents.py, voids.py, written beside this one), included while their modules
are there."""

from importlib.util import find_spec

from django.urls import include, path
from rest_framework.routers import SimpleRouter

from . import views

router = SimpleRouter()
router.register("rounds", views.RoundViewSet, basename="round")

urlpatterns = [*router.urls]

# Re-settlements and incidents: each module has its own `urlpatterns` (routes and router).
for module in ("rounds.api.resettlements", "rounds.api.incidents", "rounds.api.voids"):
    if find_spec(module) is not None:
        urlpatterns.append(path("", include(module)))

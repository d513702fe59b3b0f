from django.urls import path
from rest_framework.routers import SimpleRouter

from . import views

router = SimpleRouter()
router.register("players", views.PlayerViewSet, basename="player")
router.register("table-limits", views.TableLimitViewSet, basename="tablelimit")
router.register("personal-limits", views.PersonalLimitViewSet, basename="personallimit")

urlpatterns = [
    path(
        "players/<str:external_id>/personal-limits/",
        views.PlayerPersonalLimitsView.as_view(),
        name="player-personal-limits",
    ),
    path("limits/check", views.LimitCheckView.as_view(), name="limit-check"),
    *router.urls,
]

from rest_framework.routers import SimpleRouter

from . import api

router = SimpleRouter()
# Faults first: "alerts/faults/" is no alert's id (ids are digits, too).
router.register("alerts/faults", api.FaultViewSet, basename="fault")
router.register("alerts", api.AlertViewSet, basename="alert")

urlpatterns = [*router.urls]

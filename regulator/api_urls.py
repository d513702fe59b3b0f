from django.urls import path

from . import api, converters  # noqa: F401  (converters: the `day` path converter)

urlpatterns = [
    path("reports/<day:day>/pack/", api.DayPackView.as_view(), name="reports-day-pack"),
]

from django.urls import path

from . import converters, views  # noqa: F401  (converters: the `day` path converter)

app_name = "regulator"
urlpatterns = [
    path("<day:day>/pack/", views.DayPackView.as_view(), name="day_pack"),
]

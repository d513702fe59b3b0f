"""The API: every app's endpoints under /api/, and its documentation (served by the app itself)."""

from django.urls import include, path

app_name = "api"
urlpatterns = [
    path("", include("tables.api.urls")),
    path("", include("limits.api.urls")),
]

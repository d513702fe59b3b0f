"""The API: every app's endpoints under /api/, and its documentation (served by the app itself)."""

from django.urls import include, path
from drf_spectacular.views import SpectacularRedocView, SpectacularSwaggerSplitView

from sheets.api import TableRulesView

app_name = "api"
DOCS = ["get", "head"]
urlpatterns = [
    path("", include("tables.api.urls")),
    path("", include("limits.api.urls")),
    path("", include("rounds.api.urls")),
    path("", include("reports.api.urls")),
    path("", include("regulator.api_urls")),
    path("", include("floor.api_urls")),
    path("", include("alerts.api_urls")),
    # A table's players' rule sheet: public, as the sheet pages are.
    path("tables/<str:code>/rules/", TableRulesView.as_view(), name="table-rules"),
    # The split view serves Swagger UI's start-up script from a URL: no inline script, as CSP requires.
    # Pages: GET only (their HTML renderer has no answer to OPTIONS).
    path(
        "docs/",
        SpectacularSwaggerSplitView.as_view(url_name="api-schema", http_method_names=DOCS),
        name="docs",
    ),
    path("redoc/", SpectacularRedocView.as_view(url_name="api-schema", http_method_names=DOCS), name="redoc"),
]

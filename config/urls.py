from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView

from core.views import PAGE_METHODS
from portal import errors, health
from portal.home import home
from portal.search import search

urlpatterns = [
    path("", home, name="home"),
    path("healthz", health.healthz, name="healthz"),
    path("search/", search, name="search"),
    path("accounts/login/", auth_views.LoginView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path(
        "accounts/password/",
        auth_views.PasswordChangeView.as_view(http_method_names=PAGE_METHODS),
        name="password_change",
    ),
    path("accounts/password/done/", auth_views.PasswordChangeDoneView.as_view(), name="password_change_done"),
    path("accounts/", include("accounts.urls")),
    path("admin/", admin.site.urls),
    path("tables/", include("tables.urls")),
    path("limits/", include("limits.urls")),
    path("rounds/", include("rounds.urls")),
    path("reports/", include("reports.urls")),
    path("reports/", include("regulator.urls")),  # a day's pack: /reports/<day>/pack/
    path("floor/", include("floor.urls")),
    path("alerts/", include("alerts.urls")),
    path("notifications/", include("notifications.urls")),
    path("rules/", include("sheets.urls")),
    path("api/", include("config.api_urls")),
    path("api/schema/", SpectacularAPIView.as_view(), name="api-schema"),
]

handler404 = errors.not_found
handler403 = errors.permission_denied
handler500 = errors.server_error

from allauth.account import views as allauth_views
from allauth.account.decorators import secure_admin_login
from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView

from core.views import PAGE_METHODS
from portal import errors, health, metrics
from portal.home import home
from portal.search import search

# The admin signs in through the portal's sign-in, second factor included (before admin.site.urls reads it).
admin.site.login = secure_admin_login(admin.site.login)

urlpatterns = [
    path("", home, name="home"),
    path("healthz", health.healthz, name="healthz"),
    path("metrics", metrics.metrics, name="metrics"),
    path("search/", search, name="search"),
    # Signing in is django-allauth's (passwords, the second factor, single sign-on): its pages under
    # accounts/, the sign-in and sign-out also under the names the portal has always used.
    path("accounts/login/", allauth_views.login, name="login"),
    path("accounts/logout/", allauth_views.logout, name="logout"),
    path(
        "accounts/password/",
        auth_views.PasswordChangeView.as_view(http_method_names=PAGE_METHODS),
        name="password_change",
    ),
    path("accounts/password/done/", auth_views.PasswordChangeDoneView.as_view(), name="password_change_done"),
    path("accounts/", include("accounts.urls")),
    path("accounts/", include("accounts.sign_in_urls")),
    path("admin/", admin.site.urls),
    path("staff/", include("staff.urls")),
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

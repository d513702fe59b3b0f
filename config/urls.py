from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView

from config import views

urlpatterns = [
    path("", views.home, name="home"),
    path("accounts/", include("django.contrib.auth.urls")),
    path("admin/", admin.site.urls),
    path("tables/", include("tables.urls")),
    path("limits/", include("limits.urls")),
    path("api/", include("config.api_urls")),
    path("api/schema/", SpectacularAPIView.as_view(), name="api-schema"),
]

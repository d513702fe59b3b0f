from django.urls import path
from rest_framework.routers import SimpleRouter

from . import published, views

router = SimpleRouter()
router.register("tables", views.TableViewSet, basename="table")
router.register("table-configurations", views.TableConfigurationViewSet, basename="tableconfiguration")

code = "tables/<str:code>"
urlpatterns = [
    path(f"{code}/status", views.TableStatusView.as_view(), name="table-status"),
    path(f"{code}/status-changes/", views.TableStatusChangeListView.as_view(), name="table-status-changes"),
    path(f"{code}/configurations/", views.TableConfigurationListView.as_view(), name="table-configurations"),
    path(
        "table-configurations/<int:pk>/approve",
        views.ConfigurationApproveView.as_view(),
        name="tableconfiguration-approve",
    ),
    path(
        "table-configurations/<int:pk>/reject",
        views.ConfigurationRejectView.as_view(),
        name="tableconfiguration-reject",
    ),
    path("published-rtps/", published.PublishedRtpListView.as_view(), name="publishedrtp-list"),
    *router.urls,
]

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
    path(
        "table-configurations/<int:pk>/compliance-approve",
        views.ConfigurationComplianceApproveView.as_view(),
        name="tableconfiguration-compliance-approve",
    ),
    path(
        "table-configurations/<int:pk>/compliance-reject",
        views.ConfigurationComplianceRejectView.as_view(),
        name="tableconfiguration-compliance-reject",
    ),
    path(
        "table-configurations/<int:pk>/fall-reason",
        views.ConfigurationFallReasonView.as_view(),
        name="tableconfiguration-fall-reason",
    ),
    path("published-rtps/", published.PublishedRtpListView.as_view(), name="publishedrtp-list"),
    *router.urls,
]

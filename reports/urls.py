from django.urls import path

from . import run_views, views

app_name = "reports"
urlpatterns = [
    path("", views.ReportArchiveView.as_view(), name="archive"),
    path("daily/", views.DailyReportView.as_view(), name="daily_report"),
    path("exposure/", views.ExposureReportView.as_view(), name="exposure_report"),
    path("runs/", views.ReportRunListView.as_view(), name="run_list"),
    path("runs/new/", views.ReportRunStartView.as_view(), name="run_start"),
    path("runs/<int:pk>/", run_views.ReportRunDetailView.as_view(), name="run_detail"),
    path("runs/<int:pk>/sign/", run_views.ReportRunSignView.as_view(), name="run_sign"),
    path("documents/<int:pk>/pdf/", views.DocumentDownloadView.as_view(), name="document_download"),
    path("charts/<int:pk>.svg", views.ReportChartView.as_view(), name="chart"),
]

from rest_framework.routers import SimpleRouter

from . import views

router = SimpleRouter()
router.register("reports/runs", views.ReportRunViewSet, basename="reportrun")
router.register("reports/daily-figures", views.DailyFiguresViewSet, basename="dailyfigures")
router.register("reports/table-summaries", views.DailyTableSummaryViewSet, basename="dailytablesummary")
router.register("reports/exposure", views.DailyExposureViewSet, basename="dailyexposure")
router.register("reports/documents", views.ReportDocumentViewSet, basename="reportdocument")

urlpatterns = [*router.urls]

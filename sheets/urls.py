from django.urls import path

from . import views

app_name = "sheets"
urlpatterns = [
    path("<str:code>/", views.SheetPageView.as_view(), name="sheet"),
    path("<str:code>/pdf/", views.SheetPdfView.as_view(), name="sheet_pdf"),
    path("<str:code>/versions/<int:version>/", views.VersionPreviewView.as_view(), name="version_preview"),
    path("<str:code>/<str:lang>/", views.SheetPageView.as_view(), name="sheet_language"),
    path("<str:code>/<str:lang>/pdf/", views.SheetPdfView.as_view(), name="sheet_language_pdf"),
]

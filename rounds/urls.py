from django.urls import path

from . import incident_views, resettlement_views, views, void_views

app_name = "rounds"
urlpatterns = [
    path("", views.RoundListView.as_view(), name="round_list"),
    path("players/<str:external_id>/", views.PlayRecordView.as_view(), name="play_record"),
    # The incident, re-settlement and void pages, under the same namespace.
    *incident_views.urlpatterns,
    *resettlement_views.urlpatterns,
    *void_views.urlpatterns,
    # Last: a round id is any text, so these must not shadow the paths above.
    path("<str:round_id>/", views.RoundDetailView.as_view(), name="round_detail"),
    path("<str:round_id>/document/", views.RoundDocumentView.as_view(), name="round_document"),
    path("<str:round_id>/review/", views.RoundReviewView.as_view(), name="round_review"),
]

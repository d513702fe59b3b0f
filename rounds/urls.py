from importlib import import_module
from importlib.util import find_spec

from django.urls import path

from . import views

app_name = "rounds"
urlpatterns = [
    path("", views.RoundListView.as_view(), name="round_list"),
    path("players/<str:external_id>/", views.PlayRecordView.as_view(), name="play_record"),
]

# The re-settlement and incident pages live in their own modules, under the same namespace.
for module in ("rounds.incident_views", "rounds.resettlement_views"):
    if find_spec(module) is not None:
        urlpatterns += import_module(module).urlpatterns

# Last: a round id is any text, so these must not shadow the paths above.
urlpatterns += [
    path("<str:round_id>/", views.RoundDetailView.as_view(), name="round_detail"),
    path("<str:round_id>/review/", views.RoundReviewView.as_view(), name="round_review"),
]

from django.urls import path

from . import views

app_name = "limits"
urlpatterns = [
    path("players/", views.PlayerListView.as_view(), name="player_list"),
    path("players/new/", views.PlayerCreateView.as_view(), name="player_create"),
    path("players/<str:external_id>/", views.PlayerDetailView.as_view(), name="player_detail"),
    path("players/<str:external_id>/edit/", views.PlayerUpdateView.as_view(), name="player_update"),
    path(
        "players/<str:external_id>/limits/set/",
        views.PersonalLimitSetView.as_view(),
        name="personal_limit_set",
    ),
    path("personal-limits/", views.PersonalLimitListView.as_view(), name="personal_limit_list"),
    path("table-limits/", views.TableLimitListView.as_view(), name="table_limit_list"),
    path("table-limits/<str:code>/set/", views.TableLimitSetView.as_view(), name="table_limit_set"),
]

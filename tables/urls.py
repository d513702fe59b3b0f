from django.urls import path

from . import views

app_name = "tables"
urlpatterns = [
    path("", views.TableListView.as_view(), name="table_list"),
    path("new/", views.TableCreateView.as_view(), name="table_create"),
    path("<str:code>/", views.TableDetailView.as_view(), name="table_detail"),
    path("<str:code>/edit/", views.TableUpdateView.as_view(), name="table_update"),
    path("<str:code>/status/", views.TableStatusView.as_view(), name="table_status"),
    path("<str:code>/configuration/", views.ConfigurationChangeView.as_view(), name="configuration_change"),
]

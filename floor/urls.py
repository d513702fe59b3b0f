from django.urls import path

from . import views

app_name = "floor"
urlpatterns = [
    path("", views.FloorView.as_view(), name="floor"),
    path("tiles/", views.FloorTilesView.as_view(), name="tiles"),
    path("<str:code>/", views.TableLiveView.as_view(), name="table_live"),
    path("<str:code>/figures/", views.TableLiveFiguresView.as_view(), name="table_live_figures"),
]

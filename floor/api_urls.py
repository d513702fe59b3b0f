from django.urls import path

from . import api

urlpatterns = [
    path("floor/", api.FloorView.as_view(), name="floor"),
    path("floor/<str:code>/", api.TableLiveView.as_view(), name="floor-table"),
]

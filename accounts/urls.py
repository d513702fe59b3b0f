from django.urls import path

from .views import PreferencesView

app_name = "accounts"

urlpatterns = [
    path("preferences/", PreferencesView.as_view(), name="preferences"),
]

from . import fault_views, silence_views, threshold_views, views

app_name = "alerts"
urlpatterns = [
    *views.urlpatterns,
    *silence_views.urlpatterns,
    *threshold_views.urlpatterns,
    *fault_views.urlpatterns,
]

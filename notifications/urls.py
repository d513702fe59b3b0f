from . import delivery_views, views, webhook_views

app_name = "notifications"
urlpatterns = [*views.urlpatterns, *webhook_views.urlpatterns, *delivery_views.urlpatterns]

app_name = "tables"
urlpatterns = []

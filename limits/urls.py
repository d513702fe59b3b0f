app_name = "limits"
urlpatterns = []

"""The API: every app's endpoints under /api/."""

urlpatterns = []

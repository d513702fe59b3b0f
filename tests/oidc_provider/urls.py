from django.contrib.auth.views import LoginView
from django.urls import include, path

from tests.oidc_provider.views import user_set

urlpatterns = [
    path("o/", include("oauth2_provider.urls", namespace="oauth2_provider")),
    path("login/", LoginView.as_view(template_name="provider_login.html"), name="login"),
    path("setup/user/", user_set),
]

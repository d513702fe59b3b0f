"""The pages of django-allauth's that Pitboss uses, under accounts/: signing in and out, the second
factor (enrolment, recovery codes, a code asked for again), single sign-on. Not its sign-up, e-mail
management or password reset by e-mail: staff accounts are an administrator's."""

from allauth.account import views as account_views
from django.urls import include, path

urlpatterns = [
    # Also named "login" and "logout" (config/urls.py), as the portal always called them.
    path("login/", account_views.login, name="account_login"),
    path("logout/", account_views.logout, name="account_logout"),
    path("inactive/", account_views.account_inactive, name="account_inactive"),
    path("reauthenticate/", account_views.reauthenticate, name="account_reauthenticate"),
    path("2fa/", include("allauth.mfa.urls")),
    # Single sign-on: the provider's pages (oidc/<provider>/login/ and its callback) and allauth's own
    # around them (a sign-in cancelled or failed, the provider account linked to one's own).
    path("3rdparty/", include("allauth.socialaccount.urls")),
    path("", include("allauth.socialaccount.providers.openid_connect.urls")),
]

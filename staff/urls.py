"""The administrators' pages (accounts, roles, second factors, tokens: staff.account_urls) and the
sign-in record (staff.sign_in_urls), under /staff/."""

from .account_urls import urlpatterns as account_patterns
from .sign_in_urls import urlpatterns as sign_in_patterns

app_name = "staff"

urlpatterns = [*account_patterns, *sign_in_patterns]

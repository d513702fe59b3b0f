"""`Cache-Control: no-store` on everything a signed-in user is sent, and on every API answer.

A signed-in user's pages, exports (CSV, XLSX) and PDFs, and every answer of the API (by session or
token, a refusal too), are sent with Django's never-cache headers
(`django.utils.cache.add_never_cache_headers`: `no-store`, `no-cache`, `max-age=0`, `private`), so
that neither a shared proxy nor the browser's disk on a shared computer keeps a player's play
record or a report after sign-out, and Back after sign-out shows nothing kept.

A response that states its own caching keeps it: the public rule sheets' API (`public`, for a few
minutes, with an ETag: sheets/api.py) and a report run's charts (`private`, immutable: a run's charts
never change; reports/views.py). The public sheet pages and PDFs, asked for without signing in, keep
their ETags and no Cache-Control, as before.
"""

from django.utils.cache import add_never_cache_headers

from core.api_path import is_api_request


def never_stored(request) -> bool:
    """Whether the answer to `request` is kept by no cache: the API's, and a signed-in user's."""
    if is_api_request(request):
        return True
    user = getattr(request, "user", None)  # a middleware's refusal may come before it is read
    return user is not None and user.is_authenticated


def no_store(get_response):
    def middleware(request):
        response = get_response(request)
        if not response.has_header("Cache-Control") and never_stored(request):
            add_never_cache_headers(response)
        return response

    return middleware

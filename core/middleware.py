"""Middleware every request passes, whoever sends it."""

import time

from django.http import Http404

from core.metrics import HTTP_REQUEST_DURATION, HTTP_REQUESTS, UNRESOLVED_VIEW

# Any other method is counted as "other": a label per made-up method would grow without end.
COUNTED_METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"})


def refuse_nul_in_path(get_response):
    """A URL with a NUL character (%00) names nothing: 404 (JSON under /api/), before a view takes
    it to the database, which cannot even compare it (PostgreSQL refuses NUL in text)."""

    def middleware(request):
        if "\x00" in request.path:
            raise Http404("No URL holds a NUL character.")
        return get_response(request)

    return middleware


def request_metrics(get_response):
    """Each request counted and timed for /metrics (core.metrics) by its URL pattern's name
    ("rounds:list"; "unresolved" where none matched), method and status. First in MIDDLEWARE, so
    that the time is the whole answer's; no database. A streamed answer is timed to its start."""

    def middleware(request):
        started = time.perf_counter()
        response = get_response(request)
        match = request.resolver_match
        view = (match.view_name if match is not None else None) or UNRESOLVED_VIEW
        HTTP_REQUEST_DURATION.labels(view).observe(time.perf_counter() - started)
        method = request.method if request.method in COUNTED_METHODS else "other"
        HTTP_REQUESTS.labels(view, method, str(response.status_code)).inc()
        return response

    return middleware

"""Middleware every request passes, whoever sends it."""

from django.http import Http404


def refuse_nul_in_path(get_response):
    """A URL with a NUL character (%00) names nothing: 404 (JSON under /api/), before a view takes
    it to the database, which cannot even compare it (PostgreSQL refuses NUL in text)."""

    def middleware(request):
        if "\x00" in request.path:
            raise Http404("No URL holds a NUL character.")
        return get_response(request)

    return middleware

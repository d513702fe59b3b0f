"""The error pages: a 403 or 404 in the portal's frame with a way back; a 500 that renders with the
database down; JSON under /api/."""

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.template import loader
from django.urls import Resolver404, resolve

from core.api_path import is_api_request
from core.listing import FilteredListView

# An error under /api/ is JSON, in DRF's words, like every other API error.
ERROR_DETAILS = {
    403: "You do not have permission to perform this action.",
    404: "Not found.",
    500: "Server error.",
}


# The deepest page is a few levels down (/rounds/incidents/7/note/): a 404 of a longer path looks
# no further, so it costs a few URL resolutions, however long the path.
WAY_BACK_DEPTH = 6


def way_back(request: HttpRequest) -> tuple[str, str] | None:
    """The list a page belongs to, as (path, title), when the user may read it: the nearest list
    page above the request's path (/rounds/incidents/7/ is under /rounds/incidents/, and
    /tables/DLX1/configuration/ under /tables/). None when there is none, or none the user may read."""
    user = getattr(request, "user", None)
    if user is None:  # refused before the user was read (a middleware's 404)
        return None
    parts = request.path.strip("/").split("/")[:WAY_BACK_DEPTH]
    while parts:
        parts.pop()
        path = "/" + "".join(f"{part}/" for part in parts)
        try:
            match = resolve(path, getattr(request, "urlconf", None))
        except Resolver404:
            continue
        view_class = getattr(match.func, "view_class", None)
        if view_class is None or not issubclass(view_class, FilteredListView):
            continue
        perms = view_class.permission_required
        if user.has_perms((perms,) if isinstance(perms, str) else perms):
            return path, view_class.title
    return None


def error_page(request: HttpRequest, template_name: str, status: int) -> HttpResponse:
    """A 403 or 404 as a page of the portal: its frame and navigation, a link home and one back to
    the list the page belongs to."""
    if is_api_request(request):
        return JsonResponse({"detail": ERROR_DETAILS[status]}, status=status)
    return render(request, template_name, {"way_back": way_back(request)}, status=status)


def permission_denied(request: HttpRequest, exception: Exception) -> HttpResponse:
    return error_page(request, "403.html", 403)


def not_found(request: HttpRequest, exception: Exception) -> HttpResponse:
    """A URL nothing matches, or an object that is not there."""
    return error_page(request, "404.html", 404)


def server_error(request: HttpRequest) -> HttpResponse:
    """A 500: the portal's frame, with no request context (no context processor, no user, no
    query), so it renders when the database is down."""
    if is_api_request(request):
        return JsonResponse({"detail": ERROR_DETAILS[500]}, status=500)
    html = loader.get_template("500.html").render({"retry": request.get_full_path()})
    return HttpResponse(html, status=500)

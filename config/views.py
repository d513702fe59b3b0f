from collections.abc import Sequence

from django.contrib.auth import mixins
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.template import loader
from django.urls import Resolver404, resolve

from config.api_path import is_api_request
from config.listing import FilteredListView

# The methods a page may take: a browser's links and forms send GET or POST (HEAD and OPTIONS ask
# about a GET); never PUT, PATCH, DELETE or TRACE.
PAGE_METHODS = ["get", "post", "head", "options"]


def is_view_permission(perm: str) -> bool:
    """Django's read permission of a model, `<app>.view_<model>`: it never covers a write."""
    return perm.partition(".")[2].startswith("view_")


class PermissionRequiredMixin(mixins.PermissionRequiredMixin):
    """Django's PermissionRequiredMixin, per method: every page uses it, after LoginRequiredMixin.

    Reading a page (GET, HEAD, OPTIONS) needs `permission_required`. A POST needs it too, plus
    `post_permission_required` when the page declares one. A page whose permissions are only view
    permissions, with no `post_permission_required`, takes no POST: 405, whatever `post()` it
    inherits. So no page takes a write on a read permission, and none takes PUT, PATCH, DELETE or
    TRACE (a form page inherits a `put()` that Django's FormView would otherwise take).
    """

    http_method_names = PAGE_METHODS
    post_permission_required: str | Sequence[str] | None = None

    def get_post_permission_required(self) -> tuple[str, ...] | None:
        """What a POST needs besides `permission_required`; None: the page takes no POST."""
        perms = self.post_permission_required
        if perms is not None:
            return (perms,) if isinstance(perms, str) else tuple(perms)
        if all(is_view_permission(perm) for perm in self.get_permission_required()):
            return None
        return ()

    def setup(self, request, *args, **kwargs):
        super().setup(request, *args, **kwargs)
        if self.get_post_permission_required() is None:
            self.http_method_names = [method for method in self.http_method_names if method != "post"]

    def has_permission(self) -> bool:
        if self.request.method == "POST" and not self.request.user.has_perms(
            self.get_post_permission_required() or ()
        ):
            return False
        return super().has_permission()


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

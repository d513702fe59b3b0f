from collections.abc import Sequence

from django.contrib.auth import mixins
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.views import defaults
from django.views.decorators.http import require_safe

from accounts.roles import user_role

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


@login_required
@require_safe
def home(request: HttpRequest) -> HttpResponse:
    """Cards for what the signed-in user's role may use."""
    return render(request, "home.html", {"role": user_role(request.user)})


def not_found(request: HttpRequest, exception: Exception) -> HttpResponse:
    """A URL nothing matches: under /api/ a JSON message like every API error, elsewhere the page."""
    if request.path.startswith("/api/"):
        return JsonResponse({"detail": "Not found."}, status=404)
    return defaults.page_not_found(request, exception)

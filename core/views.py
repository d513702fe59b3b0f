"""The permission check every page makes."""

from collections.abc import Sequence

from django.contrib.auth import mixins

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

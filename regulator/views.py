"""The day's pack as a page's download: /reports/<day>/pack/ (regulator.pack)."""

from django.contrib.auth.mixins import LoginRequiredMixin
from django.http import StreamingHttpResponse
from django.shortcuts import render
from django.views import View

from core.views import PermissionRequiredMixin

from .pack import PACK_PERMISSIONS, PackRefused, day_pack, pack_zip

ZIP = "application/zip"


def pack_response(pack) -> StreamingHttpResponse:
    """The pack's ZIP, written as it is sent."""
    response = StreamingHttpResponse(pack_zip(pack), content_type=ZIP)
    response["Content-Disposition"] = f'attachment; filename="{pack.filename}"'
    return response


class DayPackView(LoginRequiredMixin, PermissionRequiredMixin, View):
    permission_required = PACK_PERMISSIONS

    def get(self, request, day):
        try:
            pack = day_pack(day, request.user)
        except PackRefused as refused:
            context = {"day": day, "message": refused.message}
            return render(request, "regulator/pack_refused.html", context, status=refused.status)
        return pack_response(pack)

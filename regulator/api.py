"""The day's pack in the API: GET /api/reports/<day>/pack/, the same ZIP as the page's."""

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework.response import Response
from rest_framework.views import APIView

from core.api import has_permission

from .pack import PACK_PERMISSIONS, PackRefused, day_pack
from .views import ZIP, pack_response


class DayPackView(APIView):
    """A closed gaming day's pack for the regulator, streamed: its current run's PDFs, the CSVs of its
    rounds, re-settlements, voids, refunds, incidents and alerts, manifest.json and SHA256SUMS."""

    permission_classes = [has_permission(permission) for permission in PACK_PERMISSIONS]

    @extend_schema(
        operation_id="reports_day_pack",
        responses={
            (200, ZIP): OpenApiResponse(OpenApiTypes.BINARY, description="The pack, a ZIP."),
            404: OpenApiResponse(description="No succeeded run of the daily job for the day."),
            409: OpenApiResponse(description="The day has not closed, or a PDF does not match its checksum."),
            410: OpenApiResponse(description="A PDF of the run is missing."),
        },
    )
    def get(self, request, day):
        try:
            pack = day_pack(day, request.user)
        except PackRefused as refused:
            return Response({"detail": refused.message}, status=refused.status)
        return pack_response(pack)

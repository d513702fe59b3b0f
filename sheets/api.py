"""GET /api/tables/<code>/rules/: a table's players' rule sheet, for a game server or a website.

Public, as the sheet pages are: no sign-in, no token (one sent is not read). The answer is the sheet in
force now, or at `?at=` (ISO 8601), in English or Filipino (`?lang=fil`), its body as the HTML the
sheet page shows; 404 for a table not open yet then (sheets.opening). It is cacheable: an ETag that is
the hash of the answer's body (Django's ConditionalGetMiddleware, on this view alone), a 304 to an
If-None-Match that names it, and Cache-Control public for a few minutes, so a new version or limit
reaches a cache at most that late.

The body does not depend on the time asked (only on the version and limits in force then), so a sheet
keeps one body and one ETag until its version or limits change; the sheet's HTML is rendered once per
sheet version and kept (sheets/kept.py). Requests count against their address's
allowance of public sheets a minute, with the sheet pages' (sheets/throttle.py): beyond it, 429 with
Retry-After.
"""

from django.middleware.http import ConditionalGetMiddleware
from django.shortcuts import get_object_or_404
from django.utils.cache import patch_cache_control
from django.utils.decorators import decorator_from_middleware, method_decorator
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers
from rest_framework.exceptions import NotFound
from rest_framework.permissions import AllowAny
from rest_framework.renderers import JSONRenderer
from rest_framework.response import Response
from rest_framework.views import APIView

from sheets.content import SHEET_LANGUAGES, NoSheet
from sheets.kept import kept_answer
from sheets.models import KeptSheet
from sheets.opening import NotOpenYet, public_sheet
from sheets.throttle import PublicSheetThrottle
from tables.models import Table

MAX_AGE = 300  # seconds a cache may serve a sheet without asking again


class RulesQuerySerializer(serializers.Serializer):
    lang = serializers.ChoiceField(
        choices=SHEET_LANGUAGES, default=SHEET_LANGUAGES[0], help_text="The sheet's language."
    )
    at = serializers.DateTimeField(
        required=False,
        help_text="The sheet in force at this time (ISO 8601; without an offset, UTC). Default: now.",
    )


class RuleSheetSerializer(serializers.Serializer):
    table = serializers.CharField(help_text="The table's code.")
    game = serializers.CharField()
    version = serializers.IntegerField(help_text="The configuration version the sheet is made from.")
    language = serializers.ChoiceField(choices=SHEET_LANGUAGES)
    in_force_from = serializers.DateTimeField(help_text="When that version came into force.")
    html = serializers.CharField(help_text="The sheet's body, as the sheet page shows it.")


@method_decorator(decorator_from_middleware(ConditionalGetMiddleware), name="dispatch")
class TableRulesView(APIView):
    """A table's rule sheet, in force now or at `at`, in English or Filipino (public: no sign-in)."""

    authentication_classes = []
    permission_classes = [AllowAny]
    throttle_classes = [PublicSheetThrottle]
    renderer_classes = [JSONRenderer]

    @extend_schema(
        parameters=[RulesQuerySerializer],
        responses={
            200: RuleSheetSerializer,
            304: OpenApiResponse(description="Not modified: the If-None-Match named this sheet's ETag."),
            429: OpenApiResponse(
                description="Too many requests from this address this minute (the sheet pages and PDFs "
                "count with them): wait Retry-After seconds."
            ),
        },
    )
    def get(self, request, code: str):
        query = RulesQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        table = get_object_or_404(Table, code=code)
        language = query.validated_data["lang"]
        try:
            public = public_sheet(table, at=query.validated_data.get("at"))
        except (NoSheet, NotOpenYet) as error:
            raise NotFound(str(error)) from error
        sheet = public.sheet
        body = {
            "table": sheet.table_code,
            "game": sheet.game,
            "version": sheet.version,
            "language": language,
            "in_force_from": serializers.DateTimeField().to_representation(sheet.valid_from),
            "html": kept_answer(public, language, KeptSheet.Form.BODY, dated=False).content.decode(),
        }
        response = Response(body)
        patch_cache_control(response, public=True, max_age=MAX_AGE)
        return response

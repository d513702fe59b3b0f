"""Rounds in the API: game servers send finished rounds (POST), compliance staff and supervisors
read them (GET). Thin: the ingest service does the work; these views only translate its answers.

POST /api/rounds/ takes one round document, or a batch `{"rounds": [document, ...]}`:
- one document: 201 and the stored round's summary (new); 200 and the stored round's summary
  (an identical resend: nothing more is stored); 409 naming `round_id` (a different document
  under a known round id, or a bet id another round holds) or `opened_at` (a round of a month the
  archive holds or is taking): nothing is stored; 400 naming the
  field (not a round document, or bad JSON: nothing is stored).
- a batch: every document is read first; one that is not a round refuses the whole batch with
  400 naming it (`rounds[3].bets[2].stake`) and nothing of the batch is stored. Otherwise the
  answer is 200 with one result per document, in order, each with its own `status` (201, 200
  or 409) and the round's summary or the errors, exactly as a single POST would have answered.

The body is read by `RoundsJSONParser`: the standard library's JSON reader, as DRF's, noting
whether the body held a float. Without one, ingest encodes each document for its digest and its
column with orjson, to the very text the standard library writes, in a tenth of the time. The body
may hold up to PITBOSS_ROUND_BODY_LIMIT bytes (32 MiB; a JSON 413 above it), where every other
route takes Django's DATA_UPLOAD_MAX_MEMORY_SIZE (2.5 MiB).

GET /api/rounds/ lists rounds, newest first, with the filters of the rounds page, in pages of
50 behind a cursor (`next`, `previous`): no COUNT and no OFFSET however many rounds there are.
"""

from django.conf import settings
from django.db.models import Prefetch
from django.http import Http404
from django_filters.rest_framework import DjangoFilterBackend
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiExample, OpenApiResponse, extend_schema
from rest_framework import mixins, pagination, status, viewsets
from rest_framework.exceptions import ValidationError
from rest_framework.parsers import FormParser, MultiPartParser
from rest_framework.response import Response

from core.api import refuse_unknown_fields
from core.parsers import JSONParser, json_load
from rounds.filtersets import RoundFilterSet
from rounds.ingest import RoundConflict, RoundFormatError, round_ingest, rounds_ingest
from rounds.models import Bet, Round
from rounds.outcome import outcome_expression
from rounds.recall import archived_round
from rounds.selectors import with_outcomes

from .serializers import RecalledRoundSerializer, RoundDetailSerializer, RoundSummarySerializer

ROUND_ID = "[^/]+"
MAX_BATCH = 1000


class RoundCursorPagination(pagination.CursorPagination):
    """Keyset pages over the newest rounds: `WHERE id < last ORDER BY id DESC LIMIT n`."""

    ordering = "-id"
    page_size = 50
    page_size_query_param = "page_size"
    max_page_size = 500


class RoundsJSONParser(JSONParser):
    """The API's JSON parser (core/parsers.py: the same data and errors, the same nesting limit)
    with a limit of its own, PITBOSS_ROUND_BODY_LIMIT, for a round of thousands of players; that
    also tells the view whether the body held no float (`view.json_without_floats`): orjson then
    writes the documents' text exactly as the standard library would (strings, integers, true,
    false, null and key order alike)."""

    def body_limit(self) -> int:
        return settings.PITBOSS_ROUND_BODY_LIMIT

    def load(self, text: str, parser_context: dict):
        view = parser_context.get("view")
        floats = []

        def parse_float(text):
            floats.append(text)
            return float(text)

        data = json_load(text, strict=self.strict, parse_float=parse_float)
        if view is not None:
            view.json_without_floats = not floats
        return data


def conflict_data(conflict: RoundConflict) -> dict:
    return {conflict.field: [conflict.message]}


class RoundViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    """Rounds: list (filters as on the rounds page), read one in full, ingest (game servers)."""

    queryset = (
        Round.objects.select_related("table", "shoe")
        .defer("document", "cards_taken")
        .annotate(outcome=outcome_expression())
    )
    serializer_class = RoundSummarySerializer
    filterset_class = RoundFilterSet
    filter_backends = [DjangoFilterBackend]  # no ordering parameter: the cursor orders by -id
    pagination_class = RoundCursorPagination
    lookup_field = "round_id"
    lookup_value_regex = ROUND_ID
    parser_classes = [RoundsJSONParser, FormParser, MultiPartParser]
    json_without_floats = False  # set by RoundsJSONParser for the request's body

    def get_queryset(self):
        queryset = super().get_queryset()
        if self.action == "retrieve":
            # Its spots are read from its document.
            queryset = queryset.select_related("configuration", "reviewed_by").defer(None)
            queryset = queryset.prefetch_related(
                Prefetch("bets", queryset=Bet.objects.select_related("player")),
                "findings__bet",
            )
        return queryset

    def get_serializer_class(self):
        return RoundDetailSerializer if self.action == "retrieve" else RoundSummarySerializer

    def retrieve(self, request, *args, **kwargs):
        """A round in full; one whose month is archived, read back from the archive in the same shape,
        with `archived` true and `archive` saying where it is."""
        try:
            return super().retrieve(request, *args, **kwargs)
        except Http404:
            recalled = archived_round(kwargs[self.lookup_field])
            if recalled is None:
                raise
        recalled.bets_all()  # every bet, as the API shows a round whole
        return Response(RecalledRoundSerializer(recalled.round, context=self.get_serializer_context()).data)

    @extend_schema(
        request=OpenApiTypes.OBJECT,
        responses={
            201: OpenApiResponse(RoundSummarySerializer, description="A new round: stored."),
            200: OpenApiResponse(
                RoundSummarySerializer,
                description="An identical resend (nothing more stored); for a batch, one result per round.",
            ),
            400: OpenApiResponse(description="Not a round document (or bad JSON): the field and why."),
            409: OpenApiResponse(
                description="A different document under a stored round id, a bet id another round "
                "holds, or a round of an archived month (`opened_at`, with the command that restores it)."
            ),
        },
        examples=[
            OpenApiExample(
                "A batch",
                value={
                    "rounds": [{"format": 1, "round_id": "DLX1-S0042-017", "table": "DLX1", "...": "..."}]
                },
                request_only=True,
            )
        ],
        description='Send one round document (format 1, docs/round-format.md), or `{"rounds": [...]}`.',
    )
    def create(self, request):
        data = request.data
        if isinstance(data, dict) and "rounds" in data and "round_id" not in data:
            return self.create_batch(data)
        try:
            result = round_ingest(document=data, plain_json=self.json_without_floats)
        except RoundFormatError as error:
            raise ValidationError({error.field: [error.message]}) from None
        except RoundConflict as conflict:
            return Response(conflict_data(conflict), status=status.HTTP_409_CONFLICT)
        with_outcomes([result.round])
        summary = RoundSummarySerializer(result.round, context=self.get_serializer_context()).data
        if result.created:
            return Response(summary, status=status.HTTP_201_CREATED, headers={"Location": summary["url"]})
        return Response(summary, status=status.HTTP_200_OK)

    def create_batch(self, data: dict):
        documents = data["rounds"]
        extra = sorted(set(data) - {"rounds"})
        if extra:
            refuse_unknown_fields(extra, 'a batch is {"rounds": [...]}')
        if not isinstance(documents, list) or not documents:
            raise ValidationError({"rounds": ["Must be a non-empty list of round documents."]})
        if len(documents) > MAX_BATCH:
            raise ValidationError({"rounds": [f"At most {MAX_BATCH} rounds in one request."]})
        try:
            results = rounds_ingest(documents=documents, plain_json=self.json_without_floats)
        except RoundFormatError as error:
            raise ValidationError({error.field: [error.message]}) from None
        context = self.get_serializer_context()
        with_outcomes([result.round for result in results if result.round is not None])  # one query
        answers = []
        for result in results:
            if result.conflict is not None:
                answers.append({"status": status.HTTP_409_CONFLICT, "errors": conflict_data(result.conflict)})
            else:
                answers.append(
                    {
                        "status": status.HTTP_201_CREATED if result.created else status.HTTP_200_OK,
                        "round": RoundSummarySerializer(result.round, context=context).data,
                    }
                )
        counts = {
            "stored": sum(1 for r in results if r.created),
            "already_stored": sum(1 for r in results if r.round is not None and not r.created),
            "conflicts": sum(1 for r in results if r.conflict is not None),
        }
        return Response({**counts, "results": answers}, status=status.HTTP_200_OK)

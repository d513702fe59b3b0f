"""Thin API views over players and limits: declare queryset, filterset and serializers; writes call
the services; the limit check calls the effective-limit selector."""

from django.shortcuts import get_object_or_404
from django.utils import timezone
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import generics, mixins, status, viewsets
from rest_framework.decorators import action
from rest_framework.response import Response
from rest_framework.views import APIView

from core.api import ModelPermissions, has_permission, validated, validation_error_data
from limits import services
from limits.filtersets import PersonalLimitFilterSet, PlayerFilterSet, TableLimitFilterSet
from limits.models import PersonalLimit, Player, TableLimit
from limits.selectors import effective_limit, personal_limit_settings

from .serializers import (
    LimitCheckResultSerializer,
    LimitCheckSerializer,
    PersonalLimitSerializer,
    PersonalLimitSetSerializer,
    PersonalLimitsOfPlayerSerializer,
    PlayerCreateSerializer,
    PlayerSerializer,
    PlayerUpdateSerializer,
    TableLimitHistorySerializer,
    TableLimitSerializer,
    TableLimitSetSerializer,
)

PLAYER_ID = "[^/]+"


class PlayerViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    """Players: list (filters as on the players page), create, read, change with a reason."""

    queryset = Player.objects.all()
    serializer_class = PlayerSerializer
    filterset_class = PlayerFilterSet
    ordering_fields = ["external_id", "display_name", "account_type", "currency", "status", "created_at"]
    lookup_field = "external_id"
    lookup_value_regex = PLAYER_ID

    @extend_schema(request=PlayerCreateSerializer, responses={201: PlayerSerializer})
    def create(self, request):
        player = services.player_create(**validated(PlayerCreateSerializer, request), created_by=request.user)
        return Response(PlayerSerializer(player).data, status=status.HTTP_201_CREATED)

    @extend_schema(request=PlayerUpdateSerializer, responses={200: PlayerSerializer})
    def partial_update(self, request, external_id: str):
        player = self.get_object()
        data = dict(validated(PlayerUpdateSerializer, request))
        player = services.player_update(player=player, changed_by=request.user, **data)
        return Response(PlayerSerializer(player).data)


class TableLimitPermissions(ModelPermissions):
    """Setting a table limit creates or changes it: POST needs both."""

    perms_map = {
        **ModelPermissions.perms_map,
        "POST": ["%(app_label)s.add_%(model_name)s", "%(app_label)s.change_%(model_name)s"],
    }


class TableLimitViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    """Table limits: list (filters as on the limits page), set (create or change), read, history."""

    queryset = TableLimit.objects.select_related("table")
    serializer_class = TableLimitSerializer
    filterset_class = TableLimitFilterSet
    ordering_fields = ["table__code", "kind", "min_stake", "max_stake"]
    permission_classes = [TableLimitPermissions]

    @extend_schema(
        request=TableLimitSetSerializer,
        responses={201: TableLimitSerializer, 200: TableLimitSerializer},
        description="Set a table's stake range for a bet kind: 201 when new, 200 when changed.",
    )
    def create(self, request):
        limit = services.table_limit_set(
            **validated(TableLimitSetSerializer, request), changed_by=request.user
        )
        created = limit.history.values_list("history_type", flat=True).first() == "+"
        return Response(
            TableLimitSerializer(limit).data,
            status=status.HTTP_201_CREATED if created else status.HTTP_200_OK,
        )

    @extend_schema(responses={200: TableLimitHistorySerializer(many=True)}, filters=False)
    @action(detail=True, methods=["get"], filterset_class=None, pagination_class=None)
    def history(self, request, pk=None):
        """Every setting of this limit, newest first: who, when, the range, why."""
        limit = self.get_object()
        records = limit.history.select_related("history_user").order_by("-history_date", "-history_id")
        return Response(TableLimitHistorySerializer(records, many=True).data)


def current_setting_ids(player_ids, now) -> set[int]:
    """Ids of the settings in force at `now` for every scope of these players (as
    `personal_limit_settings`, for many players in one query)."""
    latest: dict[tuple, int] = {}
    rows = PersonalLimit.objects.filter(
        player_id__in=player_ids, effective_from__lte=now, withdrawn_at__isnull=True
    ).order_by("effective_from", "id")
    for pk, player_id, kind, table_id, game in rows.values_list("id", "player", "kind", "table", "game"):
        latest[(player_id, kind, table_id, game)] = pk
    return set(latest.values())


PERSONAL_LIMIT_RELATED = ("player", "table", "replaces", "created_by")


class PersonalLimitViewSet(viewsets.ReadOnlyModelViewSet):
    """Every player's personal-limit settings (filters as on the personal limits page)."""

    queryset = PersonalLimit.objects.select_related(*PERSONAL_LIMIT_RELATED)
    serializer_class = PersonalLimitSerializer
    filterset_class = PersonalLimitFilterSet
    ordering_fields = ["effective_from", "created_at", "player__external_id"]

    def list(self, request, *args, **kwargs):
        queryset = self.filter_queryset(self.get_queryset())
        page = self.paginate_queryset(queryset)
        rows = list(page if page is not None else queryset)
        serializer = self.get_serializer(rows, many=True, context=self._state_context(rows))
        return self.get_paginated_response(serializer.data) if page is not None else Response(serializer.data)

    def retrieve(self, request, *args, **kwargs):
        row = self.get_object()
        return Response(self.get_serializer(row, context=self._state_context([row])).data)

    def _state_context(self, rows) -> dict:
        now = timezone.now()
        current = current_setting_ids({row.player_id for row in rows}, now)
        return {**self.get_serializer_context(), "now": now, "current_ids": current}


class PlayerPersonalLimitsView(generics.GenericAPIView):
    """A player's personal limits: in force, pending (raises wait 24 h), and every setting made.

    POST sets a new range for a scope; a lower limit is in force at once, a raise 24 hours later.
    It names in `seen_setting` the latest setting of the scope it looked at; when someone changed
    the scope since, it is refused with 409 (`seen_setting`: what is set now) and changes nothing.
    """

    queryset = PersonalLimit.objects.select_related(*PERSONAL_LIMIT_RELATED)
    serializer_class = PersonalLimitSerializer
    filter_backends = []
    pagination_class = None

    def get_player(self) -> Player:
        return get_object_or_404(Player, external_id=self.kwargs["external_id"])

    def _context(self, player: Player, now) -> dict:
        current = {row.pk for row in personal_limit_settings(player, now).values()}
        return {**self.get_serializer_context(), "now": now, "current_ids": current}

    @extend_schema(responses={200: PersonalLimitsOfPlayerSerializer})
    def get(self, request, external_id: str):
        player = self.get_player()
        now = timezone.now()
        context = self._context(player, now)
        history = list(self.get_queryset().filter(player=player).order_by("-created_at", "-id"))
        in_force = [
            row
            for row in history
            if row.pk in context["current_ids"] and (row.min_stake is not None or row.max_stake is not None)
        ]
        pending = sorted(
            (row for row in history if row.withdrawn_at is None and row.effective_from > now),
            key=lambda row: (row.effective_from, row.pk),
        )
        document = {"player": player, "in_force": in_force, "pending": pending, "history": history}
        return Response(PersonalLimitsOfPlayerSerializer(document, context=context).data)

    @extend_schema(
        request=PersonalLimitSetSerializer,
        responses={
            201: PersonalLimitSerializer,
            409: OpenApiResponse(
                description="Someone changed this scope since `seen_setting`: `seen_setting` says what "
                "is in force and pending now, and the latest setting to look at. Nothing was changed."
            ),
        },
    )
    def post(self, request, external_id: str):
        player = self.get_player()
        data = validated(PersonalLimitSetSerializer, request)
        try:
            setting = services.personal_limit_set(player=player, changed_by=request.user, **data)
        except services.PersonalLimitChanged as changed:
            return Response(validation_error_data(changed), status=changed.status_code)
        setting = self.get_queryset().get(pk=setting.pk)
        context = self._context(player, timezone.now())
        return Response(
            PersonalLimitSerializer(setting, context=context).data, status=status.HTTP_201_CREATED
        )


class LimitCheckView(APIView):
    """May this player stake this amount on this bet kind at this table now? For game servers."""

    permission_classes = [has_permission("limits.check_limits")]

    @extend_schema(request=LimitCheckSerializer, responses={200: LimitCheckResultSerializer})
    def post(self, request):
        data = validated(LimitCheckSerializer, request)
        limit = effective_limit(data["player"], data["table"], data["kind"])
        reason = limit.refuses(data["amount"])
        result = {
            "allowed": reason is None,
            "min_stake": limit.min_stake,
            "max_stake": limit.max_stake,
            "currency": limit.currency,
            "reason": reason,
            "sources": limit.sources,
        }
        return Response(LimitCheckResultSerializer(result).data)

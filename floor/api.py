"""The floor in the API: every table's tile (GET /api/floor/) and a table's live figures
(GET /api/floor/<code>/), the figures the pages show, from the primary database."""

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from core.api import MoneyField, has_permission
from tables.models import Table

from .tiles import floor_tiles, moment_now, table_live

VIEW_LIVE = "live.view_livefigures"
RTP = {"max_digits": None, "decimal_places": 4, "coerce_to_string": True, "read_only": True}


class KindSerializer(serializers.Serializer):
    kind = serializers.CharField()
    label = serializers.CharField()
    rounds = serializers.IntegerField()
    bets = serializers.IntegerField()
    wagered = MoneyField(read_only=True)
    returned = MoneyField(read_only=True)
    ggr = MoneyField(read_only=True)
    rtp = serializers.DecimalField(**RTP, allow_null=True, help_text="Observed RTP, percent.")
    theoretical = serializers.DecimalField(
        **RTP, allow_null=True, help_text="Theoretical RTP, percent, weighted by handle across versions."
    )
    interval95 = serializers.ListField(
        child=serializers.DecimalField(**RTP), allow_null=True, help_text="95% interval of the observed RTP."
    )
    band = serializers.CharField(
        help_text='"within": the theoretical RTP lies in the 99% interval of the observed one; "high" or '
        '"low": the whole interval lies above or below it; "" when there is no interval yet.'
    )
    hits = serializers.IntegerField(help_text="Side options: bets the engine found paying a pattern.")
    expected_hits = serializers.FloatField(allow_null=True)


class FiguresSerializer(serializers.Serializer):
    rounds = serializers.IntegerField(help_text="Rounds received, cancelled and voided ones included.")
    cancelled = serializers.IntegerField()
    voided = serializers.IntegerField()
    player_rounds = serializers.IntegerField(help_text="Each round's players, summed.")
    wagered = MoneyField(read_only=True, help_text="The handle of the rounds played.")
    returned = MoneyField(read_only=True)
    ggr = MoneyField(read_only=True)
    findings = serializers.DictField(
        child=serializers.IntegerField(), help_text="By class: money, limit, dealer, other."
    )
    kinds = KindSerializer(many=True)


class TileSerializer(serializers.Serializer):
    table = serializers.CharField(source="table.code")
    status = serializers.CharField(source="table.status")
    currency = serializers.CharField(source="table.currency")
    alerts = serializers.SerializerMethodField()
    dealer = serializers.CharField(
        help_text="Who deals: the latest round's dealt_by, else the hand-set name."
    )
    today = FiguresSerializer()
    last_hour = FiguresSerializer()

    def get_alerts(self, tile) -> list[str]:
        return [alert.label for alert in tile.alerts]


class FloorSerializer(serializers.Serializer):
    day = serializers.DateField()
    since = serializers.DateTimeField(help_text="Where the last hour starts.")
    tables = TileSerializer(many=True)


class TableLiveSerializer(TileSerializer):
    day = serializers.DateField()
    since = serializers.DateTimeField()
    shoes = serializers.DictField(child=FiguresSerializer())
    dealers = serializers.DictField(child=FiguresSerializer(), help_text='By dealt_by ("": not sent).')


class FloorView(APIView):
    """Every table's figures: its day so far and its last hour."""

    permission_classes = [has_permission(VIEW_LIVE)]

    @extend_schema(responses=FloorSerializer, operation_id="floor_tables")
    def get(self, request):
        moment = moment_now()
        tiles = floor_tiles(moment)
        return Response(FloorSerializer({"day": moment.day, "since": moment.since, "tables": tiles}).data)


class TableLiveView(APIView):
    """A table's figures: its day so far and its last hour, per bet kind, per shoe and per dealer."""

    permission_classes = [has_permission(VIEW_LIVE)]

    @extend_schema(responses=TableLiveSerializer, operation_id="floor_table")
    def get(self, request, code: str):
        table = get_object_or_404(Table, code=code)
        return Response(TableLiveSerializer(table_live(table, moment_now())).data)

"""The floor: every table as a tile that refreshes itself (htmx polls its part every 5 s), and each
table's live page. Both read the primary database (live.selectors.PRIMARY)."""

from urllib.parse import urlencode

from django.contrib.auth.mixins import LoginRequiredMixin
from django.http import HttpResponse
from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.views.generic import TemplateView

from core.views import PermissionRequiredMixin
from tables.models import Table

from .chart import rtp_chart
from .tiles import floor_tiles, moment_now, table_live

REFRESH_SECONDS = 5


class PolledMixin:
    """A part of a page that htmx polls. When the session has ended, htmx is told to take the whole
    page to the sign-in (HX-Redirect) instead of swapping the sign-in page into the part."""

    page_url_name = ""

    def handle_no_permission(self):
        if self.request.headers.get("HX-Request") and not self.request.user.is_authenticated:
            page = reverse(self.page_url_name, kwargs=self.kwargs)
            response = HttpResponse()
            response["HX-Redirect"] = f"{reverse('login')}?{urlencode({'next': page})}"
            return response
        return super().handle_no_permission()


class FloorView(LoginRequiredMixin, PermissionRequiredMixin, TemplateView):
    permission_required = "live.view_livefigures"
    template_name = "floor/floor.html"

    def get_context_data(self, **kwargs):
        moment = moment_now()
        return super().get_context_data(
            moment=moment, tiles=floor_tiles(moment), refresh_seconds=REFRESH_SECONDS, **kwargs
        )


class FloorTilesView(PolledMixin, FloorView):
    """The tiles alone: what the floor page polls."""

    page_url_name = "floor:floor"
    template_name = "floor/tiles.html"


class TableLiveView(LoginRequiredMixin, PermissionRequiredMixin, TemplateView):
    permission_required = "live.view_livefigures"
    template_name = "floor/table_live.html"

    def get_context_data(self, **kwargs):
        table = get_object_or_404(Table, code=self.kwargs["code"])
        moment = moment_now()
        live = table_live(table, moment)
        return super().get_context_data(
            moment=moment,
            live=live,
            table=live.table,
            chart=rtp_chart(live.chart, live.chart_theoretical),
            refresh_seconds=REFRESH_SECONDS,
            **kwargs,
        )


class TableLiveFiguresView(PolledMixin, TableLiveView):
    """A table's figures alone: what its live page polls."""

    page_url_name = "floor:table_live"
    template_name = "floor/table_live_figures.html"

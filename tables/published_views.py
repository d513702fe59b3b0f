"""The operator's published RTPs, for compliance (tables.published).

`/tables/<code>/published-rtp/` is one version's page (`?version=N`, default: the version in force):
each bet kind it offers with its computed maximum RTP, its published figure of record and its source,
what the players' sheet states, and every entry made for the version, newest first. Compliance
(`tables.add_publishedrtp`) enters a figure with the form on the page; the service decides and
refuses. `/tables/published-rtp/` lists the figures of record of every version in force or approved
to start later (filters, CSV, XLSX); the home queue of compliance links to it for the figures above
the game's.
"""

from django.contrib import messages
from django.http import Http404
from django.shortcuts import redirect
from django.urls import reverse
from django.utils import timezone

from core.filters import positive_number
from core.form_views import ServiceFormView
from core.listing import FilteredListView

from .choices import ConfigurationStatus
from .filtersets import PublishedFigureFilterSet
from .forms import PublishedRtpForm
from .models import TableConfiguration
from .published import ENTER, figures_of_record, published_rtp_enter, watched_configurations
from .tables import PublishedFigureTable
from .views import TableMixin, version_states

VIEW = "tables.view_publishedrtp"


def published_page_url(configuration: TableConfiguration) -> str:
    url = reverse("tables:published_rtp", args=[configuration.table.code])
    return f"{url}?version={configuration.version}"


class PublishedRtpView(TableMixin, ServiceFormView):
    """One version's figures and entries; compliance's form posts here."""

    permission_required = VIEW
    post_permission_required = ENTER
    form_class = PublishedRtpForm
    template_name = "tables/published_rtp.html"

    def get_versions(self) -> tuple[list[TableConfiguration], TableConfiguration | None]:
        """Every version of the table, newest first, each with its `state`; the one in force."""
        if not hasattr(self, "_versions"):
            table = self.get_table()
            versions = list(table.configurations.order_by("-version"))
            for version in versions:
                version.table = table
            self._versions = versions, version_states(versions, timezone.now())
        return self._versions

    def get_configuration(self) -> TableConfiguration:
        """`?version=N` (on the form's post too), else the version in force."""
        versions, in_force = self.get_versions()
        asked = self.request.GET.get("version")
        if not asked:
            if in_force is None:
                raise Http404(f"{self.get_table().code} has no version in force.")
            return in_force
        number = positive_number(asked)
        configuration = next((version for version in versions if version.version == number), None)
        if configuration is None:
            raise Http404(f"{self.get_table().code} has no version {asked}.")
        return configuration

    def get_form_kwargs(self):
        kwargs = super().get_form_kwargs()
        kwargs["kinds"] = self.get_configuration().rule_set.offered_kinds
        return kwargs

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        configuration = self.get_configuration()
        versions, in_force = self.get_versions()
        entries = configuration.published_rtps.select_related(
            "entered_by", "carried_from__configuration"
        ).order_by("-entered_at", "-pk")
        context.update(
            configuration=configuration,
            versions=versions[::-1],
            in_force=in_force,
            figures=figures_of_record(configuration),
            entries=entries,
            may_enter=self.request.user.has_perm(ENTER)
            and configuration.status != ConfigurationStatus.REJECTED,
            page_url=published_page_url(configuration),
        )
        return context

    def form_invalid(self, form):
        response = super().form_invalid(form)
        response.status_code = self.refusal_status()
        return response

    def perform(self, form):
        configuration = self.get_configuration()
        entry = published_rtp_enter(
            configuration=configuration, entered_by=self.request.user, **form.cleaned_data
        )
        messages.success(
            self.request,
            f"{configuration.table.code} version {configuration.version}: {entry.get_kind_display()} "
            f"published at {entry.rtp} % in {entry.source_document}, the figure of record from now on.",
        )
        return redirect(published_page_url(configuration))


class PublishedFigureListView(FilteredListView):
    """The figures of record of every version in force or approved to start later, a row per bet
    kind (tables.filtersets.PublishedFigureFilterSet.rows)."""

    permission_required = VIEW
    filterset_class = PublishedFigureFilterSet
    table_class = PublishedFigureTable
    template_name = "tables/published_rtp_list.html"
    title = "Published RTP"
    export_name = "published-rtp"

    def get_queryset(self):
        return watched_configurations()

    def get_table_data(self):
        if not hasattr(self, "rows"):
            self.rows = [] if self.filter_refused() else self.filterset.rows()
        return self.rows

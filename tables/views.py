"""The table pages: thin views over the services (writes) and selectors (reads)."""

from django.contrib import messages
from django.contrib.auth.mixins import LoginRequiredMixin
from django.db.models import OuterRef, Subquery
from django.shortcuts import get_object_or_404, redirect
from django.urls import reverse
from django.utils import timezone
from django.views.generic import DetailView

from blackjack.rules import SIDE_OPTION_PATTERNS, kind_label
from core.form_views import ServiceFormView
from core.listing import PAGE_SIZE, FilteredListView, LazyListPaginator
from core.templatetags.pitboss import odds_text
from core.views import PermissionRequiredMixin

from . import services
from .choices import AUTO_PLAY_LABELS, ConfigurationStatus, TableStatus
from .filtersets import TableFilterSet
from .forms import (
    ConfigurationForm,
    TableCreateForm,
    TableStatusForm,
    TableUpdateForm,
    pattern_label,
)
from .history import with_changes
from .models import ConfigurationOdds, Table, TableConfiguration
from .odds import chart_differences, chart_groups, chart_legend, main_game_lines, rtp_lines
from .selectors import (
    dealer_on_duty,
    latest_approved,
    latest_version,
    open_proposal,
    table_alerts,
    table_page_panels,
    with_alerts,
    with_dealers,
)
from .tables import TableTable


def tables_with_version():
    """Tables with the version of their configuration in force now (one query, sortable)."""
    in_force = (
        TableConfiguration.objects.in_force()
        .filter(table=OuterRef("pk"))
        .order_by("-valid_from")
        .values("version")[:1]
    )
    return Table.objects.annotate(current_version=Subquery(in_force))


class TableListView(FilteredListView):
    """Each table with its status and, beside it, what other apps say of it (an open incident)."""

    permission_required = "tables.view_table"
    queryset = tables_with_version()
    filterset_class = TableFilterSet
    table_class = TableTable
    table_pagination = {"per_page": PAGE_SIZE, "paginator_class": LazyListPaginator}
    title = "Tables"
    export_name = "tables"
    actions = (("tables.add_table", "tables:table_create", "New table"),)

    def get_queryset(self):
        return with_dealers(with_alerts(super().get_queryset()))


class TableMixin(LoginRequiredMixin, PermissionRequiredMixin):
    """A page about one table, found by its code."""

    def get_table(self) -> Table:
        if not hasattr(self, "_table"):
            self._table = get_object_or_404(Table, code=self.kwargs["code"])
        return self._table

    def get_context_data(self, **kwargs):
        kwargs.setdefault("table", self.get_table())
        return super().get_context_data(**kwargs)


def describe_rules(rule_set, patterns: dict | None = None) -> dict:
    """A configuration in words, for the detail page; `patterns` are the stored pattern
    probabilities of its theoretical odds, when known."""
    side_options = []
    for option in rule_set.side_options:
        chances = (patterns or {}).get(option.kind, {})
        side_options.append(
            {
                "label": kind_label(option.kind),
                "max_round": option.max_round,
                "lines": [
                    (pattern_label(pattern), odds_text(odds), chances.get(pattern))
                    for pattern in SIDE_OPTION_PATTERNS[option.kind]
                    if (odds := option.odds(pattern)) is not None
                ],
                "with_chances": bool(chances),
            }
        )
    return {
        "seats": rule_set.seats,
        "auto_play": AUTO_PLAY_LABELS.get(rule_set.auto_play, rule_set.auto_play),
        "side_options": side_options,
        "strategy_overrides": rule_set.strategy_overrides,
        "rule_set": rule_set,
    }


def version_states(versions: list[TableConfiguration], now) -> TableConfiguration | None:
    """Each version's `state` (proposed, rejected, pending, in force, past); the one in force."""
    approved = [v for v in versions if v.status == ConfigurationStatus.APPROVED]
    in_force = max((v for v in approved if v.valid_from <= now), key=lambda v: v.valid_from, default=None)
    for version in versions:
        if version.status != ConfigurationStatus.APPROVED:
            version.state = version.get_status_display().lower()
        else:
            version.state = "pending" if version.valid_from > now else "past"
    if in_force:
        in_force.state = "in force"
    return in_force


class TableDetailView(LoginRequiredMixin, PermissionRequiredMixin, DetailView):
    permission_required = "tables.view_table"
    model = Table
    slug_field = slug_url_kwarg = "code"
    template_name = "tables/table_detail.html"
    context_object_name = "table"

    def get_queryset(self):
        return with_dealers(with_alerts(Table.objects.all()))

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        table = self.object
        now = timezone.now()
        versions = list(table.configurations.select_related("created_by", "decided_by").order_by("-version"))
        in_force = version_states(versions, now)
        pending = [v for v in versions if v.state == "pending"][::-1]
        history = list(table.history.select_related("history_user").order_by("-history_date", "-history_id"))
        kept = (
            ConfigurationOdds.objects.select_related("copied_from__configuration__table")
            .filter(configuration=in_force)
            .first()
            if in_force
            else None
        )
        # Figures of an older method are not shown: they are being worked out again.
        odds = kept if kept and kept.current else None
        context.update(
            configuration=in_force,
            odds=odds,
            odds_outdated=kept is not None and odds is None,
            **(odds_context(odds) if odds else {}),
            rules=describe_rules(in_force.rule_set, odds and odds.figures["patterns"]) if in_force else None,
            pending=[(v, describe_rules(v.rule_set)) for v in pending],
            versions=versions,
            panels=table_page_panels(table, in_force),
            status_changes=table.status_changes.select_related("changed_by"),
            history=with_changes(history, skip_unchanged=True),
            statuses=[choice for choice in TableStatus if choice != table.status],
            alerts=table_alerts(table),
            on_duty=dealer_on_duty(table),
            proposal=next((v for v in versions if v.status == ConfigurationStatus.PROPOSED), None),
        )
        return context


def odds_context(odds: ConfigurationOdds) -> dict:
    """The version's figures for the table page: each kind's RTP, the main game's maximum beside its RTP
    under automatic play, and the strategy chart of best play with the strategy table's differences."""
    chart = odds.figures["chart"]
    return {
        "rtp_lines": rtp_lines(odds),
        "main_game": main_game_lines(odds),
        "chart": {
            "columns": chart["columns"],
            "groups": chart_groups(chart),
            "legend": chart_legend(),
            "card_dependent": any(any(row["card_dependent"]) for row in chart["rows"]),
            "strategy_table": odds.configuration.rule_set.auto_play == "strategy",
            "differences": chart_differences(chart),
        },
    }


class TableCreateView(LoginRequiredMixin, PermissionRequiredMixin, ServiceFormView):
    permission_required = "tables.add_table"
    form_class = TableCreateForm
    template_name = "tables/table_form.html"
    extra_context = {"title": "New table", "submit": "Create the table"}

    def perform(self, form):
        table = services.table_create(created_by=self.request.user, **form.cleaned_data)
        messages.success(
            self.request, f"Table {table.code} created, closed, with the {table.get_game_display()} rules."
        )
        return redirect(table)


class TableUpdateView(TableMixin, ServiceFormView):
    permission_required = "tables.change_table"
    form_class = TableUpdateForm
    template_name = "tables/table_form.html"

    def get_initial(self):
        table = self.get_table()
        return {"name": table.name, "studio": table.studio, "dealer": table.dealer}

    def get_context_data(self, **kwargs):
        table = self.get_table()
        kwargs.update(title=f"Edit {table.code}", submit="Save", cancel=table.get_absolute_url())
        return super().get_context_data(**kwargs)

    def perform(self, form):
        table = self.get_table()
        services.table_update(table=table, changed_by=self.request.user, **form.cleaned_data)
        messages.success(self.request, f"{table.code} saved.")
        return redirect(table)


class TableStatusView(TableMixin, ServiceFormView):
    permission_required = "tables.add_tablestatuschange"
    form_class = TableStatusForm
    template_name = "tables/table_status_form.html"

    def get_initial(self):
        return {"status": self.request.GET.get("status")}

    def perform(self, form):
        table = self.get_table()
        change = services.table_set_status(table=table, changed_by=self.request.user, **form.cleaned_data)
        messages.success(self.request, f"{table.code} is now {change.get_to_status_display().lower()}.")
        return redirect(table)


class ConfigurationChangeView(TableMixin, ServiceFormView):
    """Propose a configuration change: the form starts from the last approved version's rules and
    carries the latest version number seen; while a proposal is open, the page links to it instead."""

    permission_required = "tables.add_tableconfiguration"
    form_class = ConfigurationForm
    template_name = "tables/configuration_form.html"

    def get_versions(self) -> tuple[TableConfiguration, TableConfiguration]:
        """The latest version (whatever its status) and the last approved one (in force or pending)."""
        if not hasattr(self, "_versions"):
            table = self.get_table()
            self._versions = latest_version(table), latest_approved(table)
        return self._versions

    def get_initial(self):
        return {"seen_version": self.get_versions()[0].version}

    def get_form_kwargs(self):
        kwargs = super().get_form_kwargs()
        kwargs.update(table=self.get_table(), rule_set=self.get_versions()[1].rule_set)
        return kwargs

    def get_context_data(self, **kwargs):
        latest, configuration = self.get_versions()
        kwargs.update(
            configuration=configuration,
            latest=latest,
            pending=configuration.valid_from > timezone.now(),
            proposal=open_proposal(self.get_table()),
        )
        return super().get_context_data(**kwargs)

    def service_error_aliases(self, form):
        return form.error_aliases()

    def perform(self, form):
        table = self.get_table()
        version = services.configuration_propose(
            table=table,
            changes=form.changes(),
            proposed_by=self.request.user,
            reason=form.cleaned_data["reason"],
            valid_from=form.cleaned_data["valid_from"],
            seen_version=form.cleaned_data["seen_version"],
            rtp_fall_reason=form.cleaned_data["rtp_fall_reason"],
        )
        messages.success(
            self.request,
            f"{table.code}: version {version.version} proposed. Its odds are worked out in the background; "
            "a second supervisor approves it once they are shown.",
        )
        return redirect(
            reverse("tables:configuration_proposal", args=[table.code]) + f"?version={version.version}"
        )

"""Player, table-limit and personal-limit pages: thin views over the services and selectors."""

from django.contrib import messages
from django.contrib.auth.mixins import LoginRequiredMixin, PermissionRequiredMixin
from django.core.exceptions import ValidationError
from django.db.models import Exists, OuterRef, Q, Value
from django.db.models.functions import Coalesce
from django.shortcuts import get_object_or_404, redirect
from django.urls import reverse
from django.utils import timezone
from django.views.generic import DetailView, FormView

from config.forms import add_service_errors
from config.listing import FilteredListView
from tables.models import Table
from tables.selectors import configuration_in_force
from tables.views import with_changes

from . import services
from .choices import TABLE_LIMIT_KINDS
from .filtersets import PersonalLimitFilterSet, PlayerFilterSet, TableLimitFilterSet
from .forms import (
    PersonalLimitForm,
    PersonalLimitScopeForm,
    PlayerCreateForm,
    PlayerUpdateForm,
    TableLimitForm,
)
from .models import PersonalLimit, Player, TableLimit
from .selectors import effective_limits, pending_personal_limits, personal_limit_settings
from .tables import PersonalLimitTable, PlayerTable, TableLimitTable, personal_limit_state


def personal_limits_with_state():
    """Personal limit settings, each marked `superseded` when a later setting of the same scope is
    in force (one query)."""
    now = timezone.now()
    later = (
        PersonalLimit.objects.annotate(scope_table=Coalesce("table_id", Value(0)))
        .filter(
            player=OuterRef("player"),
            kind=OuterRef("kind"),
            game=OuterRef("game"),
            scope_table=OuterRef("scope_table"),
            effective_from__lte=now,
            withdrawn_at__isnull=True,
        )
        .filter(
            Q(effective_from__gt=OuterRef("effective_from"))
            | Q(effective_from=OuterRef("effective_from"), pk__gt=OuterRef("pk"))
        )
    )
    return (
        PersonalLimit.objects.annotate(scope_table=Coalesce("table_id", Value(0)))
        .annotate(superseded=Exists(later))
        .select_related("player", "table", "created_by", "replaces__player", "replaces__table")
    )


class PlayerListView(FilteredListView):
    permission_required = "limits.view_player"
    queryset = Player.objects.all()
    filterset_class = PlayerFilterSet
    table_class = PlayerTable
    title = "Players"
    export_name = "players"
    actions = (("limits.add_player", "limits:player_create", "New player"),)


class TableLimitListView(FilteredListView):
    permission_required = "limits.view_tablelimit"
    queryset = TableLimit.objects.select_related("table")
    filterset_class = TableLimitFilterSet
    table_class = TableLimitTable
    title = "Table limits"
    export_name = "table-limits"


class PersonalLimitListView(FilteredListView):
    permission_required = "limits.view_personallimit"
    queryset = personal_limits_with_state()
    filterset_class = PersonalLimitFilterSet
    table_class = PersonalLimitTable
    title = "Personal limits"
    export_name = "personal-limits"

    def get_queryset(self):
        return personal_limits_with_state()  # "now" is read per request


class PlayerMixin(LoginRequiredMixin, PermissionRequiredMixin):
    def get_player(self) -> Player:
        if not hasattr(self, "_player"):
            self._player = get_object_or_404(Player, external_id=self.kwargs["external_id"])
        return self._player


class PlayerCreateView(LoginRequiredMixin, PermissionRequiredMixin, FormView):
    permission_required = "limits.add_player"
    form_class = PlayerCreateForm
    template_name = "limits/player_form.html"

    def form_valid(self, form):
        try:
            player = services.player_create(created_by=self.request.user, **form.cleaned_data)
        except ValidationError as error:
            add_service_errors(form, error)
            return self.form_invalid(form)
        messages.success(self.request, f"Player {player.external_id} created.")
        return redirect(player)


class PlayerUpdateView(LoginRequiredMixin, PermissionRequiredMixin, FormView):
    permission_required = "limits.change_player"
    form_class = PlayerUpdateForm
    template_name = "limits/player_update_form.html"

    def dispatch(self, request, *args, **kwargs):
        self.player = get_object_or_404(Player, external_id=kwargs["external_id"])
        return super().dispatch(request, *args, **kwargs)

    def get_initial(self):
        player = self.player
        return {
            "display_name": player.display_name,
            "account_type": player.account_type,
            "status": player.status,
        }

    def get_context_data(self, **kwargs):
        return super().get_context_data(player=self.player, **kwargs)

    def form_valid(self, form):
        data = dict(form.cleaned_data)
        reason = data.pop("reason")
        try:
            services.player_update(player=self.player, changed_by=self.request.user, reason=reason, **data)
        except ValidationError as error:
            add_service_errors(form, error)
            return self.form_invalid(form)
        messages.success(self.request, f"Player {self.player.external_id} changed.")
        return redirect(self.player)


class PlayerDetailView(LoginRequiredMixin, PermissionRequiredMixin, DetailView):
    permission_required = "limits.view_player"
    model = Player
    slug_field = slug_url_kwarg = "external_id"
    template_name = "limits/player_detail.html"
    context_object_name = "player"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        player = self.object
        user = self.request.user
        history = list(player.history.select_related("history_user").order_by("-history_date", "-history_id"))
        context["history"] = with_changes(history)
        if user.has_perm("limits.view_personallimit"):
            settings = personal_limit_settings(player)
            changes = list(personal_limits_with_state().filter(player=player).order_by("-created_at", "-id"))
            for row in changes:
                row.state = personal_limit_state(row)
            context.update(
                in_force=[
                    row for row in settings.values() if row.min_stake is not None or row.max_stake is not None
                ],
                pending=pending_personal_limits(player),
                limit_changes=changes,
            )
        if user.has_perm("limits.check_limits"):
            tables = Table.objects.order_by("code")
            context["effective"] = effective_limits(player, tables)
        return context


class TableLimitSetView(LoginRequiredMixin, PermissionRequiredMixin, FormView):
    permission_required = ("limits.add_tablelimit", "limits.change_tablelimit")
    form_class = TableLimitForm
    template_name = "limits/table_limit_form.html"

    def get_table(self) -> Table:
        if not hasattr(self, "_table"):
            self._table = get_object_or_404(Table, code=self.kwargs["code"])
        return self._table

    def get_form_kwargs(self):
        table = self.get_table()
        configuration = configuration_in_force(table)
        offered = configuration.rule_set.offered_kinds if configuration else ()
        kwargs = super().get_form_kwargs()
        kwargs["kinds"] = [(kind, label) for kind, label in TABLE_LIMIT_KINDS if kind in offered]
        return kwargs

    def get_initial(self):
        kind = self.request.GET.get("kind", "main")
        limit = TableLimit.objects.filter(table=self.get_table(), kind=kind).first()
        initial = {"kind": kind}
        if limit:
            initial.update(min_stake=limit.min_stake, max_stake=limit.max_stake)
        return initial

    def get_context_data(self, **kwargs):
        table = self.get_table()
        kwargs.update(table=table, limits=table.limits.all())
        return super().get_context_data(**kwargs)

    def form_valid(self, form):
        table = self.get_table()
        try:
            limit = services.table_limit_set(table=table, changed_by=self.request.user, **form.cleaned_data)
        except ValidationError as error:
            add_service_errors(form, error)
            return self.form_invalid(form)
        messages.success(self.request, f"{limit}.")
        return redirect(table)


class PersonalLimitSetView(PlayerMixin, FormView):
    """Pick a scope (GET), see what is in force and pending for it, then set a new range (POST)."""

    permission_required = "limits.add_personallimit"
    form_class = PersonalLimitForm
    template_name = "limits/personal_limit_form.html"

    def scope(self) -> dict:
        if not hasattr(self, "_scope"):
            player = self.get_player()
            source = self.request.POST if self.request.method == "POST" else self.request.GET
            self.scope_form = PersonalLimitScopeForm(source or None, player=player)
            if self.scope_form.is_bound and self.scope_form.is_valid():
                data = self.scope_form.cleaned_data
                self._scope = {"kind": data["kind"], "table": data["table"], "game": data["game"]}
            else:
                self._scope = {"kind": "", "table": None, "game": ""}
        return self._scope

    def current_and_pending(self):
        if not hasattr(self, "_current_and_pending"):
            player, scope = self.get_player(), self.scope()
            key = (scope["kind"], scope["table"].pk if scope["table"] else None, scope["game"])
            current = personal_limit_settings(player).get(key)
            pending = [row for row in pending_personal_limits(player) if row.scope == key]
            self._current_and_pending = current, pending
        return self._current_and_pending

    def latest_seen(self) -> int:
        current, pending = self.current_and_pending()
        return max([row.pk for row in pending] + ([current.pk] if current else []), default=0)

    def get_initial(self):
        scope = self.scope()
        current, _ = self.current_and_pending()
        initial = {
            "kind": scope["kind"],
            "table": scope["table"].code if scope["table"] else "",
            "game": scope["game"],
            "seen_setting": self.latest_seen(),
        }
        if current:
            initial.update(min_stake=current.min_stake, max_stake=current.max_stake)
        return initial

    def get_context_data(self, **kwargs):
        current, pending = self.current_and_pending()
        scope = self.scope()
        label = PersonalLimit(kind=scope["kind"], table=scope["table"], game=scope["game"]).scope_label
        kwargs.update(
            player=self.get_player(),
            scope_form=self.scope_form,
            scope_label=label,
            current=current,
            pending=pending,
        )
        return super().get_context_data(**kwargs)

    def form_valid(self, form):
        player = self.get_player()
        try:
            setting = services.personal_limit_set(
                player=player, changed_by=self.request.user, **form.cleaned_data
            )
        except ValidationError as error:
            add_service_errors(form, error)
            if "__all__" in getattr(error, "error_dict", {}):
                # Someone else changed it: show their value, and let a second try go through.
                form.data = form.data.copy()
                form.data["seen_setting"] = str(self.latest_seen())
            return self.form_invalid(form)
        if setting.effective_from > timezone.now():
            messages.warning(
                self.request,
                f"Raise recorded: {setting.scope_label} {setting.range_label}, pending until "
                f"{setting.effective_from:%Y-%m-%d %H:%M} UTC.",
            )
        else:
            messages.success(self.request, f"In force now: {setting.scope_label} {setting.range_label}.")
        return redirect(reverse("limits:player_detail", args=[player.external_id]))

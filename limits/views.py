"""Player, table-limit and personal-limit pages: thin views over the services and selectors."""

from django.contrib import messages
from django.contrib.auth.mixins import LoginRequiredMixin
from django.core.exceptions import ValidationError
from django.db.models import Exists, OuterRef, Q, Value
from django.db.models.functions import Coalesce
from django.shortcuts import get_object_or_404, redirect
from django.urls import reverse
from django.utils import timezone
from django.views.generic import DetailView, TemplateView

from core.form_views import ServiceFormMixin, ServiceFormView
from core.listing import FilteredListView
from core.templatetags.pitboss import local_time_text
from core.views import PermissionRequiredMixin
from tables.history import with_changes
from tables.models import Table
from tables.selectors import configuration_in_force

from . import services
from .filtersets import PersonalLimitFilterSet, PlayerFilterSet, TableLimitFilterSet
from .forms import (
    PersonalLimitForm,
    PersonalLimitScopeForm,
    PlayerCreateForm,
    PlayerUpdateForm,
    TableLimitForm,
    scope_values,
)
from .models import PersonalLimit, Player, TableLimit
from .player_panels import player_page_panels
from .selectors import (
    ScopeSettings,
    effective_limits,
    pending_personal_limits,
    personal_limit_scope_settings,
    personal_limit_settings,
)
from .table_panels import table_limit_rows
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


class PlayerCreateView(LoginRequiredMixin, PermissionRequiredMixin, ServiceFormView):
    permission_required = "limits.add_player"
    form_class = PlayerCreateForm
    template_name = "limits/player_form.html"

    def perform(self, form):
        player = services.player_create(created_by=self.request.user, **form.cleaned_data)
        messages.success(self.request, f"Player {player.external_id} created.")
        return redirect(player)


class PlayerUpdateView(LoginRequiredMixin, PermissionRequiredMixin, ServiceFormView):
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

    def perform(self, form):
        data = dict(form.cleaned_data)
        reason = data.pop("reason")
        services.player_update(player=self.player, changed_by=self.request.user, reason=reason, **data)
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
        context["panels"] = player_page_panels(player, user)  # from apps above limits (player_panels)
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


class TableLimitSetView(LoginRequiredMixin, PermissionRequiredMixin, ServiceFormView):
    permission_required = ("limits.add_tablelimit", "limits.change_tablelimit")
    form_class = TableLimitForm
    template_name = "limits/table_limit_form.html"

    def get_table(self) -> Table:
        if not hasattr(self, "_table"):
            self._table = get_object_or_404(Table, code=self.kwargs["code"])
        return self._table

    def get_rows(self) -> list[dict]:
        """Each kind offered or limited, with its limit (limits.table_panels, as on the table page)."""
        if not hasattr(self, "_rows"):
            table = self.get_table()
            self._rows = table_limit_rows(table, configuration_in_force(table))["rows"]
        return self._rows

    def get_kinds(self) -> list[tuple[str, str]]:
        """The bet kinds the configuration in force offers: (kind, label)."""
        return [(row["kind"], row["label"]) for row in self.get_rows() if row["offered"]]

    def get_form_kwargs(self):
        kwargs = super().get_form_kwargs()
        kwargs["kinds"] = self.get_kinds()
        return kwargs

    def get_initial(self):
        """The form filled with the current limit of the kind in the query (?kind=, from the limits
        listed beside the form, or static/js/reload-on-change.js when the kind select changes); an
        unknown kind, or one not offered: the first kind offered."""
        offered = [kind for kind, label in self.get_kinds()]
        kind = self.request.GET.get("kind", "main")
        if kind not in offered:
            kind = "main" if "main" in offered or not offered else offered[0]
        limit = TableLimit.objects.filter(table=self.get_table(), kind=kind).first()
        initial = {"kind": kind}
        if limit:
            initial.update(min_stake=limit.min_stake, max_stake=limit.max_stake)
        return initial

    def get_context_data(self, **kwargs):
        table = self.get_table()
        kwargs.update(table=table, rows=self.get_rows())
        return super().get_context_data(**kwargs)

    def perform(self, form):
        table = self.get_table()
        limit = services.table_limit_set(table=table, changed_by=self.request.user, **form.cleaned_data)
        messages.success(self.request, f"{limit}.")
        return redirect(table)


EVERY_SCOPE = {"kind": "", "table": None, "game": ""}  # all kinds at every table


def scope_label(scope: dict) -> str:
    return PersonalLimit(**scope).scope_label


class PersonalLimitSetView(PlayerMixin, ServiceFormMixin, TemplateView):
    """Set a player's personal limit for the scope on screen.

    The scope selects are in the form that saves. The page shows what is set for one scope (the
    `seen_*` fields and `seen_setting`); Save with other selects saves nothing: it shows what is set
    for the scope chosen, keeping what was typed, and a second Save saves it. So the scope saved is
    always the one the selects show, and the stale check is for that scope. "Show this limit" shows
    the scope chosen without saving.
    """

    permission_required = "limits.add_personallimit"
    template_name = "limits/personal_limit_form.html"

    def get(self, request, *args, **kwargs):
        player = self.get_player()
        scope_form = PersonalLimitScopeForm(request.GET or None, player=player)
        scope = scope_form.scope() if scope_form.is_bound and scope_form.is_valid() else EVERY_SCOPE
        settings = self.settings(scope)
        initial = self.seen(scope, settings)
        if settings.current:
            initial.update(min_stake=settings.current.min_stake, max_stake=settings.current.max_stake)
        return self.page(scope_form, PersonalLimitForm(initial=initial), scope, settings)

    def post(self, request, *args, **kwargs):
        player = self.get_player()
        scope_form = PersonalLimitScopeForm(request.POST, player=player)
        form = PersonalLimitForm(request.POST)
        seen_form = PersonalLimitScopeForm(form.seen_scope_values(), player=player)
        seen = seen_form.scope() if seen_form.is_valid() else None
        looking = "show" in request.POST
        typed = {name: request.POST.get(name, "") for name in ("min_stake", "max_stake", "reason")}
        if not scope_form.is_valid():
            shown = seen or EVERY_SCOPE
            if looking:  # only the scope is checked when looking
                form = PersonalLimitForm(initial={**typed, **self.seen(shown, self.settings(shown))})
            return self.page(scope_form, form, shown, self.settings(shown))
        scope = scope_form.scope()
        settings = self.settings(scope)
        if looking:
            form = PersonalLimitForm(initial={**typed, **self.seen(scope, settings)})
            return self.page(scope_form, form, scope, settings)
        if scope != seen:
            form.is_valid()
            self.now_seeing(form, scope, settings)
            before = scope_label(seen) if seen else "another limit"
            form.add_error(
                None,
                f"Nothing was saved: the page was showing {before}, and the scope chosen is "
                f"{scope_label(scope)}. Check what is set for it, then save again.",
            )
            return self.page(scope_form, form, scope, settings)
        self.scope = scope
        return self.submit(form) or self.page(scope_form, form, scope, self.settings(scope))

    def perform(self, form):
        player, scope = self.get_player(), self.scope
        try:
            setting = services.personal_limit_set(
                player=player, changed_by=self.request.user, **scope, **form.limit_data()
            )
        except services.PersonalLimitChanged as changed:
            # Someone else changed it: show their value above the form, and let a second try go through.
            self.now_seeing(form, scope, self.settings(scope))
            raise ValidationError(changed.messages) from None
        if setting.effective_from > timezone.now():
            messages.warning(
                self.request,
                f"Raise recorded: {setting.scope_label} {setting.range_label}, pending until "
                f"{local_time_text(setting.effective_from)}.",
            )
        else:
            messages.success(self.request, f"In force now: {setting.scope_label} {setting.range_label}.")
        return redirect(reverse("limits:player_detail", args=[player.external_id]))

    def settings(self, scope: dict) -> ScopeSettings:
        return personal_limit_scope_settings(self.get_player(), **scope)

    def seen(self, scope: dict, settings: ScopeSettings) -> dict:
        """The hidden fields saying which scope, and which setting of it, the page shows."""
        values = {f"seen_{name}": value for name, value in scope_values(scope).items()}
        return {**values, "seen_setting": settings.latest_id}

    def now_seeing(self, form: PersonalLimitForm, scope: dict, settings: ScopeSettings) -> None:
        """Show `scope` in a bound form, as what the agent has now seen."""
        form.data = form.data.copy()
        for name, value in self.seen(scope, settings).items():
            form.data[name] = str(value)

    def page(self, scope_form, form, scope: dict, settings: ScopeSettings):
        return self.render_to_response(
            self.get_context_data(
                player=self.get_player(),
                scope_form=scope_form,
                form=form,
                scope_label=scope_label(scope),
                current=settings.current,
                pending=settings.pending,
            )
        )

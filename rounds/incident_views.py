"""The incident pages: list (filters, CSV), open, and one incident with its timeline, refunds and
the forms that end it. Thin: the services do every write and every refusal."""

import django_tables2 as tables
from django import forms
from django.contrib import messages
from django.contrib.auth.mixins import LoginRequiredMixin
from django.core.exceptions import ValidationError
from django.db.models import Count, Sum
from django.shortcuts import get_object_or_404, redirect
from django.urls import path, reverse
from django.utils.functional import cached_property
from django.views.generic import DetailView
from django_tables2 import RequestConfig

from blackjack.rules import kind_label
from core.form_views import ServiceFormMixin, ServiceFormView
from core.forms import ReasonField
from core.listing import (
    PAGE_SIZE,
    BadgeColumn,
    CellColumn,
    FilteredListView,
    ListPaginator,
    LocalTimeColumn,
    MoneyColumn,
)
from core.templatetags.pitboss import local_time_text
from core.views import PermissionRequiredMixin
from tables.models import Table

from . import services
from .choices import IncidentKind, IncidentStatus
from .filtersets import IncidentFilterSet, RefundFilterSet
from .models import Incident, Refund, Round
from .recall import archived_rounds, corrected_round, incident_rounds
from .tables import RoundLinks, round_url


class IncidentTable(tables.Table):
    id = tables.Column("Incident", linkify=("rounds:incident_detail", [tables.A("pk")]))
    table = tables.Column(accessor="table__code", verbose_name="Table", order_by="table__code")
    kind = tables.Column()
    status = BadgeColumn()
    # The round as the registry keeps it (CorrectionQuerySet.with_round_key): archived rounds too.
    round = tables.Column(
        accessor="game_round_id",
        verbose_name="Round",
        linkify=lambda record: (
            reverse("rounds:round_detail", args=[record.game_round_id]) if record.game_round_id else None
        ),
    )
    opened_by = tables.Column(default="game server")
    opened_at = LocalTimeColumn()
    closed_by = tables.Column(default="—")
    closed_at = LocalTimeColumn(default="—")

    class Meta:
        model = Incident
        fields = [
            "id",
            "table",
            "kind",
            "status",
            "round",
            "opened_by",
            "opened_at",
            "closed_by",
            "closed_at",
        ]
        order_by = "-opened_at"
        empty_text = "No incident matches."


class IncidentListView(FilteredListView):
    permission_required = "rounds.view_incident"
    queryset = Incident.objects.with_round_key().select_related("table", "opened_by", "closed_by")
    filterset_class = IncidentFilterSet
    table_class = IncidentTable
    title = "Incidents"
    export_name = "incidents"
    actions = (("rounds.add_incident", "rounds:incident_open", "Open an incident"),)


class RefundTable(RoundLinks, tables.Table):
    """An incident's refunds, a bet a row: by round, then as they were recorded."""

    # Sorted by round, then as recorded: a page boundary never falls among equal rows.
    round = tables.Column(
        "Round",
        accessor="bet__round__round_id",
        order_by=("bet__round__round_id", "id"),
        linkify=round_url,
        attrs={"td": {"class": "code nowrap"}},
    )
    bet = tables.Column("Bet", accessor="bet__bet_id", attrs={"td": {"class": "code nowrap"}})
    player = tables.Column("Player", accessor="bet__player__external_id")
    kind = tables.Column("Kind", accessor="bet__kind")
    wagered = MoneyColumn("Wagered", accessor="bet__wagered", currency="incident__table__currency")
    amount = CellColumn(
        "Refunded",
        template_name="cells/refund_amount.html",
        attrs={"th": {"class": "number"}, "td": {"class": "number"}},
    )
    currency = tables.Column(accessor="incident__table__currency", visible=False)

    class Meta:
        model = Refund
        fields = []
        sequence = ["round", "bet", "player", "kind", "wagered", "amount", "currency"]
        order_by = "round"
        empty_text = "No refund: no round has been cancelled in this incident."
        template_name = "rounds/includes/refund_table.html"  # the rows drawn from their records

    @cached_property
    def shown(self) -> list[tuple]:
        """Every value the page's rows show, row by row: the key of the rows in the cache
        (templates/rounds/includes/refund_table.html). A column that shows another value must add it
        here."""
        return [
            (
                refund.pk,
                refund.bet.round.round_id,
                refund.bet.bet_id,
                refund.bet.player.external_id,
                refund.bet.kind,
                refund.bet.wagered,
                refund.incident.table.currency,
                refund.amount,
            )
            for refund in (row.record for row in self.paginated_rows)
        ]

    def render_kind(self, value):
        return kind_label(value)

    def value_kind(self, value):
        return value

    def value_amount(self, value):
        return str(value)

    def value_currency(self, record):
        return record.incident.table.currency  # the code, not its display name


def listed_refunds():
    """Refunds as RefundTable reads them: an incident's page, and a day's in the regulator's pack."""
    return Refund.objects.select_related("bet__round", "bet__player", "incident__table").defer(
        "bet__round__document"  # a Boundless round's document is hundreds of kB
    )


def incident_refunds(incident_id: int):
    return listed_refunds().filter(incident_id=incident_id)


class RefundListView(FilteredListView):
    """Every refund of one incident, filtered by player or bet kind, and exported whole."""

    permission_required = "rounds.view_incident"
    filterset_class = RefundFilterSet
    table_class = RefundTable
    template_name = "rounds/incident_refunds.html"

    def get_queryset(self):
        self.incident = get_object_or_404(Incident.objects.select_related("table"), pk=self.kwargs["pk"])
        return incident_refunds(self.incident.pk)

    @property
    def title(self) -> str:
        return f"Refunds of incident {self.incident.pk}"

    @property
    def export_name(self) -> str:
        return f"incident-{self.incident.pk}-refunds"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        context.update(incident=self.incident, archived=archived_rounds(incident_rounds(self.incident)))
        return context


class IncidentOpenForm(forms.Form):
    table = forms.ModelChoiceField(queryset=Table.objects.order_by("code"), to_field_name="code")
    kind = forms.ChoiceField(choices=IncidentKind.choices)
    round = forms.CharField(
        label="Affected round id", required=False, help_text="Optional: the round the incident concerns."
    )
    note = ReasonField(label="What happened", help_text="The first note of the timeline, with your name.")

    def clean_round(self):
        round_id = self.cleaned_data["round"]
        if not round_id:
            return None
        try:
            return services.round_to_correct(round_id)
        except ValidationError as refusal:
            raise ValidationError(refusal.message_dict["round"]) from None


class IncidentOpenView(LoginRequiredMixin, PermissionRequiredMixin, ServiceFormView):
    permission_required = "rounds.add_incident"
    form_class = IncidentOpenForm
    template_name = "rounds/incident_open.html"

    def get_initial(self):
        return {"table": self.request.GET.get("table"), "kind": self.request.GET.get("kind")}

    def perform(self, form):
        data = form.cleaned_data
        incident = services.incident_open(
            table=data["table"],
            kind=data["kind"],
            note=data["note"],
            round_=data["round"],
            opened_by=self.request.user,
        )
        table = Table.objects.get(pk=incident.table_id)
        messages.success(
            self.request, f"Incident {incident.pk} opened; {table.code} is {table.get_status_display()}."
        )
        return redirect("rounds:incident_detail", pk=incident.pk)


class NoteForm(forms.Form):
    text = forms.CharField(label="Note", widget=forms.Textarea(attrs={"rows": 2}))


class ResumeForm(forms.Form):
    note = ReasonField(label="Why play can resume")


class CancelRoundForm(forms.Form):
    """Only the rounds the game server sent as cancelled that joined the incident and await their
    refunds: a completed round was settled, and is voided from its page instead."""

    round = forms.ModelChoiceField(
        queryset=Round.objects.none(),
        to_field_name="round_id",
        label="Round the game server cancelled",
        error_messages={
            "invalid_choice": "Only a round the game server sent as cancelled, awaiting its refunds, is "
            "cancelled here: a completed round hit by a malfunction is voided from its page."
        },
    )
    reason = ReasonField(label="Why the round is cancelled")

    def __init__(self, *args, incident: Incident, **kwargs):
        super().__init__(*args, **kwargs)
        field = self.fields["round"]
        field.queryset = (
            services.unrefunded_server_cancelled_rounds(incident)
            .defer("document")
            .order_by("-opened_at", "-id")
        )
        field.label_from_instance = lambda r: (
            f"{r.round_id} — {local_time_text(r.opened_at)}, {r.bet_count} bets, sent as cancelled"
            + (f" ({r.get_cancel_reason_display().lower()})" if r.cancel_reason else "")
        )
        field.initial = incident.game_round_id  # IncidentDetailView reads it with_round_key()


STEPS = {
    # step: (permission, form)
    "note": ("rounds.add_incidentnote", NoteForm),
    "resume": ("rounds.change_incident", ResumeForm),
    "cancel": ("rounds.change_incident", CancelRoundForm),
}


class IncidentDetailView(LoginRequiredMixin, PermissionRequiredMixin, ServiceFormMixin, DetailView):
    """The incident; with `step`, a POST of one of its forms (note, resume, cancel). A GET of a
    step's URL shows the incident page, to those who may take that step."""

    model = Incident
    template_name = "rounds/incident_detail.html"
    context_object_name = "incident"
    step = None

    def get_queryset(self):
        return Incident.objects.with_round_key().select_related("table", "opened_by", "closed_by")

    def get_permission_required(self):
        return [STEPS[self.step][0] if self.step else "rounds.view_incident"]

    def forms(self, incident, bound=None) -> dict:
        forms_ = {
            "note": NoteForm(prefix="note"),
            "resume": ResumeForm(prefix="resume"),
            "cancel": CancelRoundForm(prefix="cancel", incident=incident),
        }
        if bound is not None:
            forms_[self.step] = bound
        return forms_

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        incident = self.object
        refunds = RefundTable(incident_refunds(incident.pk), prefix="refunds-")
        RequestConfig(
            self.request, paginate={"per_page": PAGE_SIZE, "paginator_class": ListPaginator}
        ).configure(refunds)
        bound = kwargs.pop("bound", None)
        forms_ = self.forms(incident, bound)
        affected = corrected_round(incident.round_id) if incident.round_id else None
        context.update(
            notes=incident.notes.select_related("author"),
            affected_round=affected.round if affected else None,
            archived=archived_rounds(incident_rounds(incident)),
            refunds=refunds,
            refund_summary=incident.refunds.aggregate(count=Count("id"), total=Sum("amount")),
            waiting=services.unrefunded_server_cancelled_rounds(incident).defer("document"),
            voids=incident.voids.with_round_key().select_related("proposed_by", "decided_by"),
            # A completed round named by the incident is voided from its page, never cancelled here.
            void_round=affected.round
            if affected and not affected.archived and affected.round.status == "completed"
            else None,
            note_form=forms_["note"],
            resume_form=forms_["resume"],
            cancel_form=forms_["cancel"],
            is_open=incident.status == IncidentStatus.OPEN,
            refused=bound if bound is not None and incident.status != IncidentStatus.OPEN else None,
        )
        return context

    def post(self, request, *args, **kwargs):
        self.object = incident = get_object_or_404(self.get_queryset(), pk=kwargs["pk"])
        form_class = STEPS[self.step][1]
        extra = {"incident": incident} if form_class is CancelRoundForm else {}
        form = form_class(request.POST, prefix=self.step, **extra)
        if answer := self.submit(form):
            return answer
        self.object.refresh_from_db()
        context = self.get_context_data(object=self.object, bound=form)
        return self.render_to_response(context)

    def perform(self, form):
        messages.success(self.request, self.run(self.object, form.cleaned_data))
        return redirect("rounds:incident_detail", pk=self.object.pk)

    def run(self, incident, data) -> str:
        user = self.request.user
        if self.step == "note":
            services.incident_note_add(incident=incident, author=user, text=data["text"])
            return "Note added."
        if self.step == "resume":
            incident = services.incident_resume(incident=incident, resumed_by=user, note=data["note"])
            table = Table.objects.get(pk=incident.table_id)
            return (
                f"Incident {incident.pk} ended: play resumed; {table.code} is {table.get_status_display()}."
            )
        incident = services.incident_cancel_round(
            incident=incident, round_=data["round"], cancelled_by=user, reason=data["reason"]
        )
        count = incident.refunds.count()
        return (
            f"Round {data['round'].round_id} cancelled: {count} refund(s) recorded; the incident has ended."
        )


urlpatterns = [
    path("incidents/", IncidentListView.as_view(), name="incident_list"),
    path("incidents/new/", IncidentOpenView.as_view(), name="incident_open"),
    path("incidents/<int:pk>/", IncidentDetailView.as_view(), name="incident_detail"),
    path("incidents/<int:pk>/refunds/", RefundListView.as_view(), name="incident_refunds"),
    path("incidents/<int:pk>/note/", IncidentDetailView.as_view(step="note"), name="incident_note_add"),
    path("incidents/<int:pk>/resume/", IncidentDetailView.as_view(step="resume"), name="incident_resume"),
    path(
        "incidents/<int:pk>/cancel-round/",
        IncidentDetailView.as_view(step="cancel"),
        name="incident_cancel_round",
    ),
]

"""The void pages: list (filters, CSV), propose (a supervisor, from the round page), one void with its
lines and the approve/reject forms (another supervisor). Thin: the services do every write and every
refusal. The approve and reject routes take a POST only, each needing `rounds.decide_void`; every
other route here takes GET (and the propose form its POST, needing `rounds.propose_void`)."""

import django_tables2 as tables
from django import forms
from django.contrib import messages
from django.contrib.auth.mixins import LoginRequiredMixin
from django.core.paginator import Paginator
from django.db.models import F, Q, Sum, Value
from django.db.models.functions import Coalesce
from django.http import Http404
from django.shortcuts import redirect
from django.urls import path, reverse
from django.views.generic import DetailView

from accounts.second_factor import FreshCodeRequiredMixin
from core.form_views import ServiceFormView
from core.forms import ReasonField
from core.listing import BadgeColumn, FilteredListView, LocalTimeColumn
from core.views import PermissionRequiredMixin

from . import services
from .choices import IncidentStatus, ProposalStatus
from .correction_policy import round_corrections, void_refusal
from .filtersets import VoidFilterSet
from .models import Bet, Incident, Round, Void, money_total
from .proposal_views import APPROVE, REJECT, DecisionForm, ProposalDecisionMixin, ProposedRoundMixin
from .recall import corrected_round

LINES_PER_PAGE = 100
MONEY = money_total()


class VoidTable(tables.Table):
    id = tables.Column("Void", linkify=("rounds:void_detail", [tables.A("pk")]))
    # The round as the registry keeps it (CorrectionQuerySet.with_round_key): archived rounds too.
    round = tables.Column(
        accessor="game_round_id",
        verbose_name="Round",
        linkify=("rounds:round_detail", [tables.A("game_round_id")]),
    )
    table = tables.Column(accessor="round_table_code", verbose_name="Table")
    status = BadgeColumn()
    incident = tables.Column(
        accessor="incident_id",
        verbose_name="Incident",
        default="—",
        linkify=lambda record: (
            reverse("rounds:incident_detail", args=[record.incident_id]) if record.incident_id else None
        ),
    )
    reason = tables.Column(attrs={"td": {"class": "reason"}})
    proposed_by = tables.Column()
    proposed_at = LocalTimeColumn()
    decided_by = tables.Column(default="—")
    decided_at = LocalTimeColumn(default="—")

    class Meta:
        model = Void
        fields = ["id", "round", "table", "status", "incident", "reason", "proposed_by", "proposed_at"]
        sequence = [*fields, "decided_by", "decided_at"]
        order_by = "-proposed_at"
        empty_text = "No void matches."


class VoidListView(FilteredListView):
    permission_required = "rounds.view_void"
    queryset = Void.objects.with_round_key().select_related("proposed_by", "decided_by")
    filterset_class = VoidFilterSet
    table_class = VoidTable
    title = "Voids"
    export_name = "voids"


def bet_lines(round_: Round, params, void: Void | None = None) -> dict:
    """A page of the round's bets as a void records them (the payout reversed, the stake returned,
    the change to what the bet was returned, and what it ends with: its wager), and the totals over
    every bet (one aggregate query)."""
    bets = Bet.objects.of_round(round_).select_related("player").order_by("id")
    page = Paginator(bets, LINES_PER_PAGE).get_page(params.get("lines"))
    zero = Value(0, output_field=MONEY)
    totals = bets.aggregate(
        bets=Coalesce(Sum(Value(1)), 0),
        wagered=Coalesce(Sum("wagered"), zero),
        returned=Coalesce(Sum("returned"), zero),
    )
    totals.update(payout_reversed=-totals["returned"], net=totals["wagered"] - totals["returned"])
    recorded = {}
    if void is not None and void.status == ProposalStatus.APPROVED:
        recorded = {line.bet_id: line for line in void.lines.filter(bet__in=[b.pk for b in page])}
    rows = []
    for bet in page:
        line = recorded.get(bet.pk)
        reversed_returned = line.reversed_returned if line else bet.returned
        returned_stake = line.returned_stake if line else bet.wagered
        net = returned_stake - reversed_returned
        rows.append(
            {
                "bet": bet,
                "payout_reversed": -reversed_returned,
                "returned_stake": returned_stake,
                "net": net,
                "ends_with": bet.returned + net,
            }
        )
    return {"lines": rows, "lines_page": page, "totals": totals}


class VoidProposeForm(forms.Form):
    round = forms.CharField(label="Round id", widget=forms.HiddenInput)
    incident = forms.ModelChoiceField(
        queryset=Incident.objects.none(),
        required=False,
        label="The malfunction's incident",
        help_text="Optional: the incident opened for the malfunction at this round's table.",
    )
    reason = ReasonField(
        label="Why void the round", help_text="The malfunction, kept with the proposal and your name."
    )

    def __init__(self, *args, round_: Round | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        if round_ is None:
            self.fields["round"].widget = forms.TextInput()
            return
        field = self.fields["incident"]
        field.queryset = Incident.objects.filter(table=round_.table_id).filter(
            Q(status=IncidentStatus.OPEN) | Q(round=round_)
        )
        field.label_from_instance = lambda i: (
            f"Incident {i.pk}: {i.get_kind_display().lower()}, {i.get_status_display().lower()}"
        )


class VoidProposeView(ProposedRoundMixin, LoginRequiredMixin, PermissionRequiredMixin, ServiceFormView):
    """GET ?round=<round id>: the bets the void would reverse and the form; POST proposes."""

    permission_required = "rounds.propose_void"
    form_class = VoidProposeForm
    template_name = "rounds/void_propose.html"

    rounds = Round.objects.select_related("table").defer("document")

    def get_form_kwargs(self):
        return {**super().get_form_kwargs(), "round_": self.named_round}

    def get_initial(self):
        round_ = self.named_round
        initial = {"round": round_.round_id if round_ else self.request.GET.get("round", "")}
        if round_ is not None:
            initial["incident"] = Incident.objects.filter(
                table=round_.table_id, status=IncidentStatus.OPEN
            ).first()
        return initial

    def get_context_data(self, **kwargs):
        round_ = self.named_round
        if round_ is not None:
            kwargs.update(round=round_, currency=round_.table.currency, **bet_lines(round_, self.request.GET))
            if self.request.method == "GET":  # a refused POST shows the reason as the form's error
                kwargs["refusal"] = void_refusal(round_corrections(round_, shown=False))
        return super().get_context_data(**kwargs)

    def perform(self, form):
        round_ = self.round_to_correct(form)
        void = services.void_propose(
            round_=round_,
            proposed_by=self.request.user,
            reason=form.cleaned_data["reason"],
            incident=form.cleaned_data["incident"],
        )
        messages.success(
            self.request, f"Void {void.pk} of {round_.round_id} proposed: another supervisor decides."
        )
        return redirect("rounds:void_detail", pk=void.pk)


class VoidDetailView(LoginRequiredMixin, PermissionRequiredMixin, DetailView):
    """The void, its lines, and (to another supervisor, while proposed) the decision form, which
    posts to the approve or reject route."""

    model = Void
    template_name = "rounds/void_detail.html"
    context_object_name = "void"
    permission_required = "rounds.view_void"
    http_method_names = ["get", "head", "options"]

    def get_queryset(self):
        return Void.objects.select_related("incident", "proposed_by", "decided_by")

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        void = self.object
        user = self.request.user
        corrected = corrected_round(void.round_id)
        if corrected is None:  # its month's archive deleted under retention
            raise Http404(f"Void {void.pk}'s round is no longer kept anywhere.")
        round_, archived = corrected.round, corrected.archived
        context.update(
            round=round_,
            archived=archived,
            currency=round_.table.currency,
            decision_form=kwargs.get("decision_form") or DecisionForm(),
            may_decide=not archived and void.may_be_decided_by(user),
            own_proposal=void.proposed_by_id == user.pk,
        )
        if not archived:  # an archived round's bets are on its page, read back from the archive
            context.update(bet_lines(round_, self.request.GET, void))
        if void.status == ProposalStatus.APPROVED:
            context["recorded"] = void.lines.aggregate(
                lines=Coalesce(Sum(Value(1)), 0),
                net=Coalesce(Sum(F("returned_stake") - F("reversed_returned")), Value(0, output_field=MONEY)),
            )
        return context


class VoidDecisionView(FreshCodeRequiredMixin, ProposalDecisionMixin, VoidDetailView):
    """POST only: approve or reject (`step`); a refusal shows the void page with the message."""

    permission_required = "rounds.decide_void"
    http_method_names = ["post"]
    detail_route = "rounds:void_detail"

    def decide(self, proposal, decided_by, comment: str):
        decide = services.void_approve if self.step == APPROVE else services.void_reject
        return decide(void=proposal, decided_by=decided_by, comment=comment)

    def decided_message(self, decided) -> str:
        if self.step == APPROVE:
            return (
                f"Void {decided.pk} approved: {decided.lines.count()} bet(s) voided, each returned what it "
                "wagered."
            )
        return f"Void {decided.pk} rejected."


urlpatterns = [
    path("voids/", VoidListView.as_view(), name="void_list"),
    path("voids/new/", VoidProposeView.as_view(), name="void_propose"),
    path("voids/<int:pk>/", VoidDetailView.as_view(), name="void_detail"),
    path("voids/<int:pk>/approve/", VoidDecisionView.as_view(step=APPROVE), name="void_approve"),
    path("voids/<int:pk>/reject/", VoidDecisionView.as_view(step=REJECT), name="void_reject"),
]

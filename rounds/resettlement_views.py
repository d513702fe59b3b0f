"""The re-settlement pages: list (filters, CSV), propose (Compliance), one re-settlement with its
adjustments and the approve/reject forms (a Supervisor who did not propose it)."""

import django_tables2 as tables
from django import forms
from django.contrib import messages
from django.contrib.auth.mixins import LoginRequiredMixin
from django.http import Http404
from django.shortcuts import redirect
from django.urls import path
from django.views.generic import DetailView

from accounts.second_factor import FreshCodeRequiredMixin
from core.form_views import ServiceFormView
from core.forms import ReasonField
from core.listing import BadgeColumn, FilteredListView, LocalTimeColumn
from core.views import PermissionRequiredMixin

from . import services
from .choices import ProposalStatus
from .correction_policy import resettlement_refusal, round_corrections
from .filtersets import ResettlementFilterSet
from .models import Bet, Resettlement
from .proposal_views import APPROVE, REJECT, DecisionForm, ProposalDecisionMixin, ProposedRoundMixin
from .recall import corrected_round


class ResettlementTable(tables.Table):
    id = tables.Column("Re-settlement", linkify=("rounds:resettlement_detail", [tables.A("pk")]))
    # The round as the registry keeps it (CorrectionQuerySet.with_round_key): archived rounds too.
    round = tables.Column(
        accessor="game_round_id",
        verbose_name="Round",
        linkify=("rounds:round_detail", [tables.A("game_round_id")]),
    )
    table = tables.Column(accessor="round_table_code", verbose_name="Table")
    status = BadgeColumn()
    reason = tables.Column(attrs={"td": {"class": "reason"}})
    proposed_by = tables.Column()
    proposed_at = LocalTimeColumn()
    decided_by = tables.Column(default="—")
    decided_at = LocalTimeColumn(default="—")

    class Meta:
        model = Resettlement
        fields = ["id", "round", "table", "status", "reason", "proposed_by", "proposed_at", "decided_by"]
        sequence = [*fields, "decided_at"]
        order_by = "-proposed_at"
        empty_text = "No re-settlement matches."


class ResettlementListView(FilteredListView):
    permission_required = "rounds.view_resettlement"
    queryset = Resettlement.objects.with_round_key().select_related("proposed_by", "decided_by")
    filterset_class = ResettlementFilterSet
    table_class = ResettlementTable
    title = "Re-settlements"
    export_name = "resettlements"


class ProposeForm(forms.Form):
    round = forms.CharField(label="Round id")
    reason = ReasonField(label="Why re-settle", help_text="Kept with the proposal, with your name.")


class ResettlementProposeView(
    ProposedRoundMixin, LoginRequiredMixin, PermissionRequiredMixin, ServiceFormView
):
    """GET ?round=<round id>: the bets that would be adjusted and the form (without a round, the
    form asks for its id); POST proposes."""

    permission_required = "rounds.add_resettlement"
    form_class = ProposeForm
    template_name = "rounds/resettlement_propose.html"

    def get_form(self, form_class=None):
        form = super().get_form(form_class)
        if self.named_round is not None:
            form.fields["round"].widget = forms.HiddenInput()
        return form

    def get_initial(self):
        round_ = self.named_round
        return {"round": round_.round_id if round_ else self.request.GET.get("round", "")}

    def get_context_data(self, **kwargs):
        round_ = self.named_round
        if round_ is not None:
            kwargs.update(
                round=round_,
                differing=services.bets_to_adjust(round_).select_related("player"),
                uncomputed=Bet.objects.of_round(round_).uncomputed().count(),
            )
            if self.request.method == "GET":  # a refused POST shows the reason as the form's error
                kwargs["refusal"] = resettlement_refusal(round_corrections(round_, shown=False))
        return super().get_context_data(**kwargs)

    def perform(self, form):
        round_ = self.round_to_correct(form)
        resettlement = services.resettlement_propose(
            round_=round_, proposed_by=self.request.user, reason=form.cleaned_data["reason"]
        )
        messages.success(
            self.request,
            f"Re-settlement {resettlement.pk} of {round_.round_id} proposed: a supervisor decides.",
        )
        return redirect("rounds:resettlement_detail", pk=resettlement.pk)


class ResettlementDetailView(LoginRequiredMixin, PermissionRequiredMixin, DetailView):
    """The re-settlement, its adjustments, and the approve/reject form to a supervisor who did not
    propose it. Read only: the form posts to the step's URL (ResettlementDecisionView)."""

    permission_required = "rounds.view_resettlement"
    model = Resettlement
    template_name = "rounds/resettlement_detail.html"
    context_object_name = "resettlement"

    def get_queryset(self):
        return Resettlement.objects.select_related("proposed_by", "decided_by")

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        resettlement = self.object
        corrected = corrected_round(resettlement.round_id)
        if corrected is None:  # its month's archive deleted under retention
            raise Http404(f"Re-settlement {resettlement.pk}'s round is no longer kept anywhere.")
        round_, archived = corrected.round, corrected.archived
        approved = resettlement.status == ProposalStatus.APPROVED
        user = self.request.user
        # A round whose month is archived: its bets and adjustments are on its page, read back from
        # the archive; here, how to restore its month.
        bets = Bet.objects.none() if archived else Bet.objects.of_round(round_)
        context.update(
            round=round_,
            archived=archived,
            currency=round_.table.currency,
            adjustments=resettlement.adjustments.filter(gaming_day=round_.gaming_day).select_related(
                "bet__player"
            ),
            differing=[]
            if approved or archived
            else services.bets_to_adjust(round_).select_related("player"),
            uncomputed=bets.uncomputed().select_related("player"),
            decision_form=kwargs.get("decision_form") or DecisionForm(),
            may_decide=not archived and resettlement.may_be_decided_by(user),
            own_proposal=resettlement.proposed_by_id == user.pk,
        )
        return context


class ResettlementDecisionView(FreshCodeRequiredMixin, ProposalDecisionMixin, ResettlementDetailView):
    """`step` ("approve" or "reject"): a POST of the decision form, by those who may decide (the
    service refuses the proposer). A GET shows the re-settlement page, to them only."""

    permission_required = "rounds.decide_resettlement"
    detail_route = "rounds:resettlement_detail"

    def decide(self, proposal, decided_by, comment: str):
        decide = services.resettlement_approve if self.step == APPROVE else services.resettlement_reject
        return decide(resettlement=proposal, decided_by=decided_by, comment=comment)

    def decided_message(self, decided) -> str:
        if self.step == APPROVE:
            return (
                f"Re-settlement {decided.pk} approved: {decided.adjustments.count()} adjustment(s) recorded."
            )
        return f"Re-settlement {decided.pk} rejected."


urlpatterns = [
    path("resettlements/", ResettlementListView.as_view(), name="resettlement_list"),
    path("resettlements/new/", ResettlementProposeView.as_view(), name="resettlement_propose"),
    path("resettlements/<int:pk>/", ResettlementDetailView.as_view(), name="resettlement_detail"),
    path(
        "resettlements/<int:pk>/approve/",
        ResettlementDecisionView.as_view(step=APPROVE),
        name="resettlement_approve",
    ),
    path(
        "resettlements/<int:pk>/reject/",
        ResettlementDecisionView.as_view(step=REJECT),
        name="resettlement_reject",
    ),
]

"""The thresholds page: what is in force for each game and monitor (the default or a change), each
table's own, the changes awaiting compliance with their decision forms, the propose form
(supervisors), and every change (filters, CSV, XLSX). The forms post to routes of their own (POST
only); thresholds.py decides and refuses, this page shows its refusals."""

from django.contrib import messages
from django.shortcuts import get_object_or_404, redirect
from django.urls import path

from core.listing import FilteredListView
from tables.choices import Game

from .choices import ThresholdStatus
from .definitions import DEFINITIONS
from .filtersets import ThresholdFilterSet
from .forms import ThresholdDecisionForm, ThresholdProposeForm
from .list_forms import ListFormMixin
from .models import Threshold
from .tables import ThresholdTable, number_text
from .thresholds import APPROVE, threshold_decide, threshold_propose

VIEW = "alerts.view_threshold"
PROPOSE = "alerts.add_threshold"
APPROVE_STEP, REJECT_STEP = "approve", "reject"


def in_force_now() -> dict:
    """`games`: a row per monitor, a cell per game, each the threshold its tables use unless they have
    their own (`set`: the change that put it in force; None: the default); `tables`: each table's own
    in force, by table and monitor. As thresholds.thresholds_in_force reads them: the latest wins."""
    in_force = Threshold.objects.filter(status=ThresholdStatus.IN_FORCE).select_related(
        "table", "proposed_by", "decided_by"
    )
    by_game, by_table = {}, {}
    for change in in_force.order_by("decided_at", "id"):
        if change.table_id is None:
            by_game[(change.game, change.monitor)] = change
        else:
            change.unit = DEFINITIONS[change.monitor].unit
            by_table[(change.table.code, change.monitor)] = change
    rows = []
    for definition in DEFINITIONS.values():
        cells = []
        for game in Game.values:
            change = by_game.get((game, definition.monitor))
            value = change.value if change else definition.default
            cells.append({"value": number_text(value), "set": change})
        rows.append({"definition": definition, "cells": cells})
    return {"games": Game.choices, "rows": rows, "tables": [by_table[key] for key in sorted(by_table)]}


class ThresholdListView(FilteredListView):
    permission_required = VIEW
    queryset = Threshold.objects.select_related("table", "proposed_by", "decided_by")
    filterset_class = ThresholdFilterSet
    table_class = ThresholdTable
    template_name = "alerts/threshold_list.html"
    title = "Thresholds"
    export_name = "threshold-changes"
    refused_form = None  # a refused POST of one of its forms (ListFormMixin)
    decided_pk = None  # the change whose decision was refused

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        user = self.request.user
        refused = self.refused_form
        if user.has_perm(PROPOSE):
            propose = refused if isinstance(refused, ThresholdProposeForm) else None
            context["propose_form"] = propose or ThresholdProposeForm(prefix="propose")
        pending = list(
            Threshold.objects.filter(status=ThresholdStatus.PENDING)
            .select_related("table", "proposed_by")
            .order_by("proposed_at", "id")
        )
        may_decide = user.has_perm(APPROVE)
        for change in pending:
            change.unit = DEFINITIONS[change.monitor].unit
            change.own = change.proposed_by_id == user.pk
            if may_decide:
                bound = refused if self.decided_pk == change.pk else None
                change.form = bound or ThresholdDecisionForm(auto_id=f"id_decide_{change.pk}_%s")
        context.update(in_force_now(), pending=pending, may_decide=may_decide)
        return context


class ThresholdProposeView(ListFormMixin, ThresholdListView):
    permission_required = (VIEW, PROPOSE)
    http_method_names = ["post"]

    def bound_form(self):
        return ThresholdProposeForm(self.request.POST, prefix="propose")

    def perform(self, form):
        data = form.cleaned_data
        change = threshold_propose(
            monitor=data["monitor"],
            value=data["value"],
            reason=data["reason"],
            by=self.request.user,
            table=data["table"],
            game=data["game"],
        )
        scope = change.table.code if change.table_id else f"every {change.get_game_display()} table"
        values = f"{number_text(change.previous)} → {number_text(change.value)}"
        if change.status == ThresholdStatus.PENDING:
            message = (
                f"{change.get_monitor_display()} for {scope}: {values} is less sensitive and awaits a "
                "compliance officer's approval."
            )
        else:
            message = f"{change.get_monitor_display()} for {scope}: {values}, in force now."
        messages.success(self.request, message)
        return redirect("alerts:threshold_list")


class ThresholdDecisionView(ListFormMixin, ThresholdListView):
    """POST only: approve or refuse (`step`) a pending change; a refusal (one's own proposal, a change
    decided already, a refusal without a note) shows the page with the message on that change's form."""

    permission_required = (VIEW, APPROVE)
    http_method_names = ["post"]
    step = None

    def bound_form(self):
        self.change = get_object_or_404(Threshold, pk=self.kwargs["pk"])
        self.decided_pk = self.change.pk
        return ThresholdDecisionForm(self.request.POST, auto_id=f"id_decide_{self.change.pk}_%s")

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        pending = {change.pk for change in context["pending"]}
        if self.refused_form is not None and self.decided_pk not in pending:
            context["decision_refused"] = self.refused_form  # decided meanwhile: the message above the list
        return context

    def perform(self, form):
        decided = threshold_decide(
            threshold=self.change,
            by=self.request.user,
            approve=self.step == APPROVE_STEP,
            note=form.cleaned_data["note"],
        )
        values = f"{number_text(decided.previous)} → {number_text(decided.value)}"
        what = f"{decided.get_monitor_display()} {values}"
        if decided.status == ThresholdStatus.IN_FORCE:
            messages.success(self.request, f"Approved: {what} is in force.")
        else:
            messages.success(self.request, f"Refused: {what} is not in force.")
        return redirect("alerts:threshold_list")


DECIDE = {step: ThresholdDecisionView.as_view(step=step) for step in (APPROVE_STEP, REJECT_STEP)}
urlpatterns = [
    path("thresholds/", ThresholdListView.as_view(), name="threshold_list"),
    path("thresholds/new/", ThresholdProposeView.as_view(), name="threshold_propose"),
    path("thresholds/<int:pk>/approve/", DECIDE[APPROVE_STEP], name="threshold_approve"),
    path("thresholds/<int:pk>/reject/", DECIDE[REJECT_STEP], name="threshold_reject"),
]

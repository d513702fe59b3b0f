"""The proposal page of a configuration version: what it changes against the version it was proposed
on, the RTP of every bet kind before and after with warnings, the approvals it still needs
(tables.guardrail), and its forms: the proposer's reason for a fall past the guardrail, a compliance
officer's approval or rejection of such a version, a supervisor's (not the proposer's) decision.

`/tables/<code>/proposal/` shows the table's open proposal (`?version=N`: any version, against the
approved one before it); its `approve/` and `reject/` (supervisors), `compliance-approve/` and
`compliance-reject/` (compliance) take the decision form by POST, `fall-reason/` the proposer's reason.
"""

from django.contrib import messages
from django.http import Http404
from django.shortcuts import redirect
from django.urls import reverse
from django.views.generic import TemplateView

from accounts.second_factor import FreshCodeRequiredMixin
from core.filters import positive_number
from core.form_views import ServiceFormMixin
from core.templatetags.pitboss import local_time_text

from . import services
from .choices import ConfigurationStatus
from .forms import ConfigurationDecisionForm, FallReasonForm
from .guardrail import APPROVE_RTP_FALL, approvals_of
from .models import TableConfiguration
from .proposals import rtp_preview, rule_changes
from .selectors import configuration_in_force, open_proposal, previous_approved
from .views import TableMixin, describe_rules


class ConfigurationProposalView(TableMixin, TemplateView):
    """The page: the open proposal, or `?version=N`."""

    permission_required = "tables.view_tableconfiguration"
    template_name = "tables/configuration_proposal.html"

    def get_configuration(self) -> TableConfiguration | None:
        table = self.get_table()
        version = self.request.GET.get("version") or self.request.POST.get("version")
        if not version:
            return open_proposal(table)
        number = positive_number(version)
        if number is None:
            raise Http404("No such version.")
        configuration = (
            table.configurations.select_related("created_by", "decided_by").filter(version=number).first()
        )
        if configuration is None:
            raise Http404(f"{table.code} has no version {version}.")
        return configuration

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        table = self.get_table()
        configuration = kwargs.get("configuration", self.get_configuration())
        context["configuration"] = configuration
        context["in_force"] = configuration_in_force(table)
        if configuration is None:
            context["recent"] = table.configurations.exclude(version=1).select_related("created_by")[:10]
            return context
        base = previous_approved(configuration)
        user = self.request.user
        preview = rtp_preview(base, configuration)
        proposed = configuration.status == ConfigurationStatus.PROPOSED
        approvals = approvals_of(configuration, preview)
        own = configuration.created_by_id == user.pk
        context.update(
            approvals=approvals,
            may_explain=proposed and own and "reason" in approvals.still_needed,
            may_clear=proposed
            and "compliance" in approvals.still_needed
            and user.has_perm(APPROVE_RTP_FALL)
            and not own,
            fall_form=kwargs.get("fall_form")
            or FallReasonForm(initial={"rtp_fall_reason": configuration.rtp_fall_reason}),
        )
        context.update(
            base=base,
            changes=rule_changes(base.rule_set, configuration.rule_set) if base else [],
            rules=describe_rules(configuration.rule_set),
            preview=preview,
            proposed=proposed,
            own_proposal=own,
            may_decide=proposed and user.has_perm(services.DECIDE) and not own,
            odds_ready=not any(line.computing_after for line in preview.lines),
            decision_form=kwargs.get("decision_form")
            or ConfigurationDecisionForm(initial={"version": configuration.version}),
        )
        return context


# Each decision the page's forms post, the service that makes it and the permission it needs.
STEPS = {
    "approve": (services.configuration_approve, services.DECIDE),
    "reject": (services.configuration_reject, services.DECIDE),
    "compliance_approve": (services.configuration_compliance_approve, APPROVE_RTP_FALL),
    "compliance_reject": (services.configuration_compliance_reject, APPROVE_RTP_FALL),
}


class ConfigurationDecisionView(FreshCodeRequiredMixin, ServiceFormMixin, ConfigurationProposalView):
    """GET: the same page, to those who may decide. POST: the decision `step` (STEPS) on the version the
    page showed (its `version` field)."""

    step = "approve"

    def get_permission_required(self):
        return [STEPS[self.step][1]]

    def decision_page(self) -> str:
        return reverse("tables:configuration_proposal", args=[self.kwargs["code"]])

    def post(self, request, *args, **kwargs):
        table = self.get_table()
        form = ConfigurationDecisionForm(request.POST)
        self.configuration = configuration = (
            self.get_configuration() if form.is_valid() else open_proposal(table)
        )
        if form.is_valid() and configuration is None:
            form.add_error(None, f"{table.code} has no proposal awaiting a decision.")
        elif answer := self.submit(form):
            return answer
        context = self.get_context_data(
            configuration=configuration,
            decision_form=form,
            compliance_step=self.step.startswith("compliance"),
        )
        return self.render_to_response(context, status=self.refusal_status())  # 403: one's own proposal

    def perform(self, form):
        decide = STEPS[self.step][0]
        decided = decide(
            configuration=self.configuration,
            decided_by=self.request.user,
            comment=form.cleaned_data["comment"],
        )
        messages.success(self.request, decided_message(decided, self.step))
        url = reverse("tables:configuration_proposal", args=[self.get_table().code])
        return redirect(f"{url}?version={decided.version}")


class FallReasonView(ServiceFormMixin, ConfigurationProposalView):
    """POST: the proposer says why the open proposal's RTP falls past the guardrail."""

    permission_required = "tables.add_tableconfiguration"

    def post(self, request, *args, **kwargs):
        form = FallReasonForm(request.POST)
        self.configuration = open_proposal(self.get_table())
        if self.configuration is None:
            raise Http404("No proposal awaits a decision.")
        if answer := self.submit(form):
            return answer
        context = self.get_context_data(configuration=self.configuration, fall_form=form)
        return self.render_to_response(context, status=self.refusal_status())

    def perform(self, form):
        services.configuration_explain_fall(
            configuration=self.configuration,
            proposer=self.request.user,
            reason=form.cleaned_data["rtp_fall_reason"],
        )
        messages.success(self.request, "Your reason is kept with the proposal: compliance reads it.")
        return redirect(reverse("tables:configuration_proposal", args=[self.get_table().code]))


def decided_message(configuration: TableConfiguration, step: str = "approve") -> str:
    code, version = configuration.table.code, configuration.version
    if step == "compliance_approve":
        return f"{code}: version {version} approved for compliance; a supervisor's approval puts it in force."
    if configuration.status == ConfigurationStatus.REJECTED:
        return f"{code}: version {version} rejected; it never comes into force."
    return f"{code}: version {version} approved, in force from {local_time_text(configuration.valid_from)}."

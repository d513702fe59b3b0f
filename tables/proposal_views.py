"""The proposal page of a configuration version: what it changes against the version it was proposed
on, the RTP of every bet kind before and after with warnings, and the approve and reject forms (a
supervisor who did not propose it).

`/tables/<code>/proposal/` shows the table's open proposal (`?version=N`: any version, against the
approved one before it); its `approve/` and `reject/` take the decision form by POST.
"""

from django.contrib import messages
from django.http import Http404
from django.shortcuts import redirect
from django.urls import reverse
from django.views.generic import TemplateView

from core.filters import positive_number
from core.form_views import ServiceFormMixin
from core.templatetags.pitboss import local_time_text

from . import services
from .choices import ConfigurationStatus
from .forms import ConfigurationDecisionForm
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
        context.update(
            base=base,
            changes=rule_changes(base.rule_set, configuration.rule_set) if base else [],
            rules=describe_rules(configuration.rule_set),
            preview=preview,
            proposed=proposed,
            own_proposal=configuration.created_by_id == user.pk,
            may_decide=proposed
            and user.has_perm("tables.decide_tableconfiguration")
            and configuration.created_by_id != user.pk,
            odds_ready=not any(line.computing_after for line in preview.lines),
            decision_form=kwargs.get("decision_form")
            or ConfigurationDecisionForm(initial={"version": configuration.version}),
        )
        return context


class ConfigurationDecisionView(ServiceFormMixin, ConfigurationProposalView):
    """GET: the same page, to those who may decide. POST: approve or reject (`step`) the version the
    page showed (its `version` field)."""

    permission_required = "tables.decide_tableconfiguration"
    step = "approve"  # or "reject"

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
        context = self.get_context_data(configuration=configuration, decision_form=form)
        return self.render_to_response(context, status=self.refusal_status())  # 403: one's own proposal

    def perform(self, form):
        decide = services.configuration_approve if self.step == "approve" else services.configuration_reject
        decided = decide(
            configuration=self.configuration,
            decided_by=self.request.user,
            comment=form.cleaned_data["comment"],
        )
        messages.success(self.request, decided_message(decided))
        url = reverse("tables:configuration_proposal", args=[self.get_table().code])
        return redirect(f"{url}?version={decided.version}")


def decided_message(configuration: TableConfiguration) -> str:
    code, version = configuration.table.code, configuration.version
    if configuration.status == ConfigurationStatus.REJECTED:
        return f"{code}: version {version} rejected; it never comes into force."
    return f"{code}: version {version} approved, in force from {local_time_text(configuration.valid_from)}."

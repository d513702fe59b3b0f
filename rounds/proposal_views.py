"""What the re-settlement and void pages share: the round a proposal form names, the decision form,
and its POST to a proposal's approve or reject route (rounds.resettlement_views,
rounds.void_views). The services decide, or refuse with the reason; the views only show it."""

from django import forms
from django.contrib import messages
from django.shortcuts import get_object_or_404, redirect
from django.urls import reverse
from django.utils.functional import cached_property

from core.form_views import ServiceFormMixin
from core.forms import ReasonField

from . import services
from .models import Round
from .recall import archived_refusal
from .selectors import round_named

APPROVE, REJECT = "approve", "reject"


class ProposedRoundMixin:
    """On a proposal's form page: the round it names (the posted `round`, or `?round=`), read once a
    request from `rounds`. A GET naming a round that is not stored says why when its month is
    archived (`archived` in the context: how to restore it)."""

    rounds = Round.objects.select_related("table")

    @cached_property
    def named_round(self) -> Round | None:
        round_id = self.request.POST.get("round") or self.request.GET.get("round", "")
        return round_named(round_id, self.rounds.all())

    def round_to_correct(self, form) -> Round:
        """The round named, or the refusal (a ValidationError naming `round`) of why none is."""
        return self.named_round or services.round_to_correct(form.cleaned_data["round"], self.rounds.all())

    def get_context_data(self, **kwargs):
        if self.named_round is None and self.request.method == "GET" and self.request.GET.get("round"):
            kwargs["archived"] = archived_refusal(round_id=self.request.GET["round"])
        return super().get_context_data(**kwargs)


class DecisionForm(forms.Form):
    comment = ReasonField(label="Comment", help_text="Kept with the decision, with your name.")


class ProposalDecisionMixin(ServiceFormMixin):
    """On a proposal's page view: a POST of the decision form for `step` ("approve" or "reject"). A
    decision redirects to the proposal's page with `decided_message`; a refusal shows the page with
    its message, answering 400 (the form), 403 (one's own proposal) or 409 (already decided)."""

    step = None
    detail_route = ""  # the proposal's page, to which a decision redirects

    def decide(self, proposal, decided_by, comment: str):
        """The service's decision of `step` on `proposal` (raises ValidationError on a refusal)."""
        raise NotImplementedError

    def decided_message(self, decided) -> str:
        raise NotImplementedError

    def decision_page(self) -> str:
        """Where one comes back to after giving a code (accounts.second_factor.FreshCodeRequiredMixin)."""
        return reverse(self.detail_route, kwargs={"pk": self.kwargs["pk"]})

    def post(self, request, *args, **kwargs):
        self.object = get_object_or_404(self.get_queryset(), pk=kwargs["pk"])
        form = DecisionForm(request.POST)
        if answer := self.submit(form):
            return answer
        self.object.refresh_from_db()  # as it stands now, decided by another meanwhile or not
        context = self.get_context_data(object=self.object, decision_form=form)
        return self.render_to_response(context, status=self.refusal_status())

    def perform(self, form):
        decided = self.decide(self.object, self.request.user, form.cleaned_data["comment"])
        messages.success(self.request, self.decided_message(decided))
        return redirect(self.detail_route, pk=decided.pk)

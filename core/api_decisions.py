"""The API's decision on a proposal by a second person, shared by the apps that ask for one.

Apart from core.api, which REST framework's settings import before its views exist."""

from django.shortcuts import get_object_or_404
from rest_framework import generics
from rest_framework.response import Response
from rest_framework.views import set_rollback

from core.api import validated, validation_error_data
from core.refusals import TransitionRefused


class TransitionRefusalMixin:
    """A service's TransitionRefused answers with its status (409, or 403 for your own decision)."""

    def handle_exception(self, exc):
        if isinstance(exc, TransitionRefused):
            set_rollback()
            return Response(validation_error_data(exc), status=exc.status_code)
        return super().handle_exception(exc)


class DecisionView(TransitionRefusalMixin, generics.GenericAPIView):
    """POST: a second person's decision on the proposal `pk` (a re-settlement, a void, a configuration
    version). `decision_serializer` reads its body, `decide` (the service that approves or rejects,
    taking the proposal as `proposal_argument`) records it or refuses, and the answer is the proposal
    as it now stands, read through `queryset` and `serializer_class`. A refusal of the step answers its
    status: 409 (already decided, say) or 403 (one's own proposal). Each subclass documents its
    request and answers with `extend_schema_view`."""

    filter_backends = []
    pagination_class = None
    decision_serializer = None
    proposal_argument = ""
    decide = None

    def post(self, request, pk: int):
        proposal = get_object_or_404(self.get_queryset().model, pk=pk)
        data = validated(self.decision_serializer, request)
        self.decide(**{self.proposal_argument: proposal}, decided_by=request.user, comment=data["comment"])
        return Response(self.get_serializer(self.get_queryset().get(pk=pk)).data)

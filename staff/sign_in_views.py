"""The sign-in record's pages (administrators and compliance): every sign-in event, the days summed,
the API tokens' uses, each with its filters and exports; and compliance's review of a break-glass
sign-in (accounts/sign_in_record.py does the writing and the refusing)."""

from django import forms
from django.contrib import messages
from django.contrib.auth.mixins import LoginRequiredMixin
from django.shortcuts import get_object_or_404, redirect
from django.utils.functional import cached_property

from accounts.models import SignInEvent, TokenUse
from accounts.sign_in_record import NOTE_LENGTH, break_glass_review, sign_in_days
from core.form_views import ServiceFormView
from core.listing import FilteredListView
from core.views import PermissionRequiredMixin

from .sign_in_filtersets import SignInDayFilterSet, SignInEventFilterSet, TokenUseFilterSet
from .sign_in_tables import SignInDayTable, SignInEventTable, TokenUseTable

VIEW = "accounts.view_signinevent"
REVIEW = "accounts.review_signinevent"
RECORD_ACTIONS = (
    (VIEW, "staff:sign_ins", "Sign-ins"),
    (VIEW, "staff:sign_in_days", "By day"),
    (VIEW, "staff:token_uses", "Token uses"),
)


class SignInListView(FilteredListView):
    permission_required = VIEW
    queryset = SignInEvent.objects.select_related("reviewed_by")
    filterset_class = SignInEventFilterSet
    table_class = SignInEventTable
    template_name = "staff/sign_in_list.html"
    title = "Sign-ins"
    export_name = "sign-ins"
    actions = RECORD_ACTIONS[1:]

    def get_table_kwargs(self):
        kwargs = super().get_table_kwargs()
        if not self.request.user.has_perm(REVIEW):
            kwargs["exclude"] = ("review",)
        return kwargs


class SignInDayListView(FilteredListView):
    """A row a gaming day: the days of the filter's range that had an event or a token use."""

    permission_required = VIEW
    queryset = SignInEvent.objects.none()  # the filter's form only: the rows are sign_in_days()
    filterset_class = SignInDayFilterSet
    table_class = SignInDayTable
    template_name = "staff/sign_in_days.html"
    title = "Sign-ins by day"
    export_name = "sign-ins-by-day"
    actions = (RECORD_ACTIONS[0], RECORD_ACTIONS[2])

    def get_table_data(self):
        if self.filter_refused():
            return []
        wanted = self.filterset.form.cleaned_data if self.filterset.is_bound else {}
        return sign_in_days(wanted.get("day_from"), wanted.get("day_to"))


class TokenUseListView(FilteredListView):
    permission_required = VIEW
    queryset = TokenUse.objects.select_related("token__user")
    filterset_class = TokenUseFilterSet
    table_class = TokenUseTable
    template_name = "staff/sign_in_token_uses.html"
    title = "API token uses"
    export_name = "token-uses"
    actions = RECORD_ACTIONS[:2]


class ReviewForm(forms.Form):
    note = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 4}),
        max_length=NOTE_LENGTH,
        help_text="What you found: who signed in and why, and whether the provider was really down.",
        error_messages={"required": "Say what you found: the review is kept with its note."},
    )


class SignInReviewView(LoginRequiredMixin, PermissionRequiredMixin, ServiceFormView):
    """A break-glass sign-in, and compliance's review of it (once). A refused review shows the page
    again with the reason, answering 409 (reviewed already, not break-glass) or 403 (one's own)."""

    permission_required = (VIEW, REVIEW)
    form_class = ReviewForm
    template_name = "staff/sign_in_review.html"

    @cached_property
    def event(self) -> SignInEvent:
        # Read after the permission check (dispatch): who may not review learns nothing of the ids.
        return get_object_or_404(
            SignInEvent.objects.select_related("user", "reviewed_by"), pk=self.kwargs["pk"]
        )

    def get_context_data(self, **kwargs):
        event = self.event
        reviewable = event.break_glass and event.reviewed_at is None
        return super().get_context_data(event=event, reviewable=reviewable, **kwargs)

    def form_valid(self, form):
        answer = self.submit(form)
        if answer is not None:
            return answer
        del self.event  # as it stands now
        return self.render_to_response(self.get_context_data(form=form), status=self.refusal_status())

    def perform(self, form):
        event = break_glass_review(event=self.event, by=self.request.user, note=form.cleaned_data["note"])
        messages.success(self.request, f"Break-glass sign-in of {event.username} reviewed.")
        return redirect("staff:sign_in_review", pk=event.pk)

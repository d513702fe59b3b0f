"""The administrators' pages (issue 54): the accounts, one account with its tokens and changes and
the forms that change it, a new account, and the record of every change with the decisions on those
that need a second administrator. Thin: staff.services makes every change and every refusal; each
form posts to a route of its own and a refusal shows the account's (or the change's) page again with
the form and the service's words. A key or a first password is shown once, on the answer to the post
that made it (never stored, never redirected to)."""

from datetime import timedelta

from django.contrib import messages
from django.contrib.auth.mixins import LoginRequiredMixin
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.generic import DetailView

from accounts.models import ApiToken
from accounts.roles import GAME_SERVER
from accounts.second_factor import FreshCodeRequiredMixin
from accounts.token_lifetime import token_refusal
from core.form_views import ServiceFormMixin, ServiceFormView
from core.listing import FilteredListView
from core.views import PermissionRequiredMixin

from . import services
from .filtersets import ChangeFilterSet, UserFilterSet
from .forms import DecisionForm, ReasonForm, RoleForm, TokenIssueForm, TokenRotateForm, UserCreateForm
from .models import AccountChange, ChangeKind, ChangeStatus
from .selectors import users_listed
from .services import CHANGE, DECIDE, VIEW
from .tables import ChangeTable, UserTable

OWN_ACCOUNT = "This is your own account: another administrator changes it."


class UserListView(FilteredListView):
    permission_required = CHANGE
    filterset_class = UserFilterSet
    table_class = UserTable
    template_name = "staff/user_list.html"
    title = "Staff accounts"
    export_name = "users"
    actions = ((CHANGE, "staff:user_create", "Create a user"),)

    def get_queryset(self):
        return users_listed()


class UserCreateView(LoginRequiredMixin, PermissionRequiredMixin, ServiceFormView):
    permission_required = CHANGE
    form_class = UserCreateForm
    template_name = "staff/user_form.html"

    def perform(self, form):
        created = services.account_create(actor=self.request.user, **form.cleaned_data)
        return render(self.request, "staff/user_created.html", {"created": created, "change": created.change})


# The form each of an account's routes posts (`step`).
STEPS = {
    "role": RoleForm,
    "deactivate": ReasonForm,
    "reactivate": ReasonForm,
    "second_factor_reset": ReasonForm,
    "token_issue": TokenIssueForm,
    "token_rotate": TokenRotateForm,
    "token_revoke": ReasonForm,
}


def token_rows(account) -> list[dict]:
    now = timezone.now()
    rows = []
    for token in ApiToken.objects.filter(user=account).order_by("-created_at", "-id"):
        token.user = account  # its lifetime reads the role, already read with the account
        rows.append({"token": token, "refusal": token_refusal(token, now)})
    return rows


class UserDetailView(LoginRequiredMixin, PermissionRequiredMixin, ServiceFormMixin, DetailView):
    """The account; with `step`, a POST of one of its forms (routes that take a POST only)."""

    permission_required = CHANGE
    template_name = "staff/user_detail.html"
    context_object_name = "account"  # not "user": the signed-in user's, on every page
    http_method_names = ["get", "head", "options"]  # its forms post to the steps' routes
    step = None
    token = None

    def get_queryset(self):
        return users_listed()

    def forms(self, account, tokens: list[dict], bound=None) -> dict:
        forms_ = {
            step: form_class(prefix=step) for step, form_class in STEPS.items() if step != "token_revoke"
        }
        if bound is not None and self.step != "token_revoke":
            forms_[self.step] = bound
        for row in tokens:
            own = bound is not None and self.token is not None and self.token.pk == row["token"].pk
            row["form"] = bound if own else ReasonForm(prefix=f"revoke_{row['token'].pk}")
        return forms_

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        account, me = self.object, self.request.user
        bound = kwargs.get("bound")
        own = account.pk == me.pk
        tokens = token_rows(account)
        changes = AccountChange.objects.filter(user=account).select_related(
            "requested_by", "decided_by", "token"
        )
        pending = [change for change in changes if change.status == ChangeStatus.PENDING]
        refused = self.step if bound is not None else None
        may = not own
        context.update(
            own=own,
            own_text=OWN_ACCOUNT,
            tokens=tokens,
            pending=pending,
            history=[change for change in changes if change.status != ChangeStatus.PENDING],
            forms=self.forms(account, tokens, bound),
            refused=refused,
            show={
                "role": may and account.is_active and not account.single_sign_on or refused == "role",
                "deactivate": may and account.is_active or refused == "deactivate",
                "reactivate": may
                and not account.is_active
                and account.role is not None
                or refused == "reactivate",
                "second_factor_reset": may and account.second_factor or refused == "second_factor_reset",
                "tokens": may
                and account.role == GAME_SERVER
                and account.is_active
                or refused in ("token_issue", "token_rotate"),
                "revoke": may,
            },
        )
        return context

    def post(self, request, *args, **kwargs):
        user_pk = kwargs["pk"]
        if self.step == "token_revoke":
            self.token = get_object_or_404(ApiToken, pk=kwargs["pk"])
            user_pk = self.token.user_id
        self.object = get_object_or_404(self.get_queryset(), pk=user_pk)
        prefix = f"revoke_{self.token.pk}" if self.token is not None else self.step
        form = STEPS[self.step](request.POST, prefix=prefix)
        if answer := self.submit(form):
            return answer
        self.object = self.get_queryset().get(pk=user_pk)  # as it stands now
        context = self.get_context_data(object=self.object, bound=form)
        return self.render_to_response(context, status=self.refusal_status())

    def perform(self, form):
        actor, account, data = self.request.user, self.object, form.cleaned_data
        reason = data["reason"]
        if self.step in ("token_issue", "token_rotate"):
            grace_ends = None
            if self.step == "token_issue":
                issued = services.token_issue(actor=actor, user=account, name=data["name"], reason=reason)
            else:
                grace = timedelta(hours=data["grace_hours"])
                issued = services.token_rotate(actor=actor, user=account, grace=grace, reason=reason)
                grace_ends = issued.token.created_at + grace
            context = {"account": account, "issued": issued, "grace_ends": grace_ends}
            return render(self.request, "staff/user_token_key.html", context)
        if self.step == "role":
            change = services.role_give(actor=actor, user=account, role=data["role"], reason=reason)
        elif self.step == "deactivate":
            change = services.deactivate(actor=actor, user=account, reason=reason)
        elif self.step == "reactivate":
            change = services.reactivate(actor=actor, user=account, reason=reason)
        elif self.step == "second_factor_reset":
            change = services.second_factor_reset(actor=actor, user=account, reason=reason)
        else:
            change = services.token_revoke(actor=actor, token=self.token, reason=reason)
        messages.success(self.request, change_message(change))
        return redirect("staff:user", pk=account.pk)


class UserStepView(UserDetailView):
    """POST only: one of the account's forms (`step`)."""

    http_method_names = ["post"]


def change_message(change: AccountChange) -> str:
    if change.status == ChangeStatus.PENDING:
        what = change.get_kind_display().lower()
        return f"Change {change.pk} ({what}) awaits a second administrator's approval."
    user = change.user
    if change.kind == ChangeKind.ROLE_GIVEN:
        return f"{user} holds the role {change.role} now: their sessions ended."
    if change.kind == ChangeKind.DEACTIVATED:
        return f"{user} is deactivated: signed out, their tokens revoked."
    if change.kind == ChangeKind.REACTIVATED:
        return f"{user} is active again."
    if change.kind == ChangeKind.TOKEN_REVOKED:
        return f"Token {change.token.prefix}… of {user} is revoked."
    return f"Change {change.pk} applied."


class ChangeListView(FilteredListView):
    permission_required = VIEW
    queryset = AccountChange.objects.select_related("user", "requested_by", "decided_by")
    filterset_class = ChangeFilterSet
    table_class = ChangeTable
    template_name = "staff/change_list.html"
    title = "Account changes"
    export_name = "account-changes"


class ChangeDetailView(LoginRequiredMixin, PermissionRequiredMixin, DetailView):
    """One change; approve and reject for another administrator, withdraw for the one who asked."""

    permission_required = VIEW
    template_name = "staff/change_detail.html"
    context_object_name = "change"
    queryset = AccountChange.objects.select_related("user", "requested_by", "decided_by", "token")

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        change, me = self.object, self.request.user
        pending = change.status == ChangeStatus.PENDING
        own_account = change.user_id == me.pk
        own_request = change.requested_by_id == me.pk
        bound = kwargs.get("bound")
        step = getattr(self, "step", None) if bound is not None else None
        context.update(
            pending=pending,
            own_account=own_account,
            own_request=own_request,
            may_decide=pending
            and me.has_perm(DECIDE)
            and not own_account
            and not own_request
            or step in ("approve", "reject"),
            may_withdraw=pending and own_request and me.has_perm(CHANGE) or step == "withdraw",
            decision_form=bound if step in ("approve", "reject") else DecisionForm(prefix="decision"),
            withdraw_form=bound if step == "withdraw" else DecisionForm(prefix="withdraw"),
        )
        return context


DECISIONS = {
    "approve": (services.change_approve, DECIDE),
    "reject": (services.change_reject, DECIDE),
    "withdraw": (services.change_withdraw, CHANGE),
}


class ChangeStepView(ServiceFormMixin, ChangeDetailView):
    """POST only: withdraw a change one asked for (`step`); ChangeDecisionView decides."""

    http_method_names = ["post"]
    step = "withdraw"

    def get_permission_required(self):
        return [VIEW, DECISIONS[self.step][1]]

    def post(self, request, *args, **kwargs):
        self.object = self.get_object()
        form = DecisionForm(request.POST, prefix="withdraw" if self.step == "withdraw" else "decision")
        if answer := self.submit(form):
            return answer
        self.object = self.get_object()
        context = self.get_context_data(object=self.object, bound=form)
        return self.render_to_response(context, status=self.refusal_status())

    def perform(self, form):
        decide = DECISIONS[self.step][0]
        change = decide(actor=self.request.user, change=self.object, note=form.cleaned_data["note"])
        messages.success(self.request, f"Change {change.pk}: {change.get_status_display().lower()}.")
        return redirect("staff:change", pk=change.pk)


class ChangeDecisionView(FreshCodeRequiredMixin, ChangeStepView):
    """Approve or reject: a code checked within the last minutes, as every decision."""

    step = "approve"

    def decision_page(self) -> str:
        return reverse("staff:change", args=[self.kwargs["pk"]])

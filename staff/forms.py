"""The forms of the administrators' pages. They read what was typed; staff.services decides and
refuses, and the pages show its refusals on these forms."""

from django import forms

from accounts.roles import ROLES, ROLES_GRANTED_BY_TWO
from core.forms import ReasonField

# A rotation's grace: how long a game server's older tokens keep working, in hours (a month at most).
GRACE_HOURS_MAX = 24 * 30


def role_choices():
    return [
        (role, f"{role} (a second administrator approves)" if role in ROLES_GRANTED_BY_TWO else role)
        for role in ROLES
    ]


def reason_field(**kwargs) -> ReasonField:
    return ReasonField(help_text="Kept with the change, with your name; compliance reads it.", **kwargs)


class UserCreateForm(forms.Form):
    username = forms.CharField(max_length=150, help_text="What they sign in with.")
    email = forms.EmailField(required=False, label="E-mail address")
    role = forms.ChoiceField(choices=role_choices, help_text="Their one role.")
    reason = reason_field()


class RoleForm(forms.Form):
    role = forms.ChoiceField(choices=role_choices, help_text="In place of the role they hold.")
    reason = reason_field()


class ReasonForm(forms.Form):
    """Deactivate, reactivate, reset a second factor, revoke a token: only why."""

    reason = reason_field()


class TokenIssueForm(forms.Form):
    name = forms.CharField(
        max_length=100, required=False, help_text="What it is for, e.g. the server that uses it."
    )
    reason = reason_field()


class TokenRotateForm(forms.Form):
    grace_hours = forms.IntegerField(
        label="Grace (hours)",
        min_value=0,
        max_value=GRACE_HOURS_MAX,
        initial=24,
        help_text="How long its other tokens keep working, so that the server switches without a gap.",
    )
    reason = reason_field()


class DecisionForm(forms.Form):
    note = forms.CharField(
        required=False,
        widget=forms.Textarea(attrs={"rows": 2}),
        help_text="Kept with the decision, with your name; required to reject.",
    )

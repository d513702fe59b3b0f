"""Every change an administrator makes to a staff account (issue 54): who asked, when and why, and,
for the changes a second administrator approves, who decided and when. Applied at once (`applied`),
or `pending` until approved (applied then), rejected or withdrawn. A change in its final state is in
the ledger (chain "account_change", staff.ledger_chains) and never changes again."""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone

from accounts.models import ApiToken
from accounts.roles import ROLES


class ChangeKind(models.TextChoices):
    CREATED = "created", "Account created"
    ROLE_GIVEN = "role_given", "Role given"
    DEACTIVATED = "deactivated", "Deactivated"
    REACTIVATED = "reactivated", "Reactivated"
    SECOND_FACTOR_RESET = "second_factor_reset", "Second factor reset"
    TOKEN_ISSUED = "token_issued", "API token issued"
    TOKEN_ROTATED = "token_rotated", "API token rotated"
    TOKEN_REVOKED = "token_revoked", "API token revoked"


class ChangeStatus(models.TextChoices):
    APPLIED = "applied", "Applied"  # done at once
    PENDING = "pending", "Awaiting a second administrator"
    APPROVED = "approved", "Approved and applied"
    REJECTED = "rejected", "Rejected"
    WITHDRAWN = "withdrawn", "Withdrawn"


FINAL_STATUSES = (ChangeStatus.APPLIED, ChangeStatus.APPROVED, ChangeStatus.REJECTED, ChangeStatus.WITHDRAWN)


def _user_link(**kwargs) -> models.ForeignKey:
    return models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, **kwargs)


class AccountChange(models.Model):
    user = _user_link(related_name="account_changes", help_text="The account changed.")
    kind = models.CharField(max_length=24, choices=ChangeKind.choices)
    role = models.CharField(
        max_length=40, blank=True, choices=[(role, role) for role in ROLES], help_text="The role given."
    )
    token = models.ForeignKey(ApiToken, on_delete=models.PROTECT, null=True, blank=True, related_name="+")
    reason = models.TextField()
    requested_by = _user_link(
        related_name="+", null=True, blank=True, help_text="The administrator; empty: a command."
    )
    requested_at = models.DateTimeField(default=timezone.now)
    status = models.CharField(max_length=16, choices=ChangeStatus.choices)
    decided_by = _user_link(related_name="+", null=True, blank=True)
    decided_at = models.DateTimeField(null=True, blank=True)
    decision_note = models.TextField(blank=True)

    class Meta:
        ordering = ["-requested_at", "-id"]
        permissions = [
            ("decide_accountchange", "Can approve or reject another administrator's account change")
        ]
        indexes = [
            models.Index(fields=["requested_at"], name="account_change_at"),
            models.Index(fields=["status", "requested_at"], name="account_change_status"),
            models.Index(fields=["kind", "requested_at"], name="account_change_kind"),
            models.Index(fields=["user", "requested_at"], name="account_change_user"),
            models.Index(fields=["requested_by", "requested_at"], name="account_change_requester"),
        ]
        constraints = [
            models.UniqueConstraint(
                fields=["user", "kind"],
                condition=Q(status=ChangeStatus.PENDING),
                name="account_change_one_pending",
            )
        ]

    def __str__(self) -> str:
        return f"Change {self.pk}: {self.get_kind_display()} of {self.user}"

    @property
    def pending(self) -> bool:
        return self.status == ChangeStatus.PENDING

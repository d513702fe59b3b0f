"""The home page's queues about staff accounts: an administrator's account changes awaiting a
second administrator (staff.services.changes_awaiting), and compliance's break-glass sign-ins not
yet reviewed (accounts.sign_in_record.break_glass_unreviewed). Each is one query."""

from django.db.models import Count, Window

from accounts.sign_in_record import break_glass_unreviewed
from staff.models import ChangeKind, ChangeStatus
from staff.services import changes_awaiting

from .queue_items import SHOWN, Item, Queue, url


def account_changes_to_decide(user) -> Queue:
    """The pending account changes `user` may decide: neither asked for by them nor of their account."""
    rows = list(
        changes_awaiting(user)
        .annotate(total=Window(Count("pk")))
        .values("pk", "total", "user__username", "kind", "role", "requested_by__username", "requested_at")
        .order_by("requested_at", "pk")[:SHOWN]
    )
    count = rows[0]["total"] if rows else 0
    return Queue(
        key="account-changes",
        title="Account changes to decide",
        count=count,
        url=url("staff:changes", status=ChangeStatus.PENDING),
        noun="awaiting a second administrator",
        items=[
            Item(
                f"{row['user__username']} · {ChangeKind(row['kind']).label}"
                + (f" · {row['role']}" if row["role"] else ""),
                url("staff:change", row["pk"]),
                note=f"asked by {row['requested_by__username'] or 'a command'}",
                when=row["requested_at"],
            )
            for row in rows
        ],
        rows=count,
    )


def break_glass_sign_ins(user) -> Queue:
    """Administrators' sign-ins with a local password while single sign-on is set up, not reviewed
    yet: whether the provider answered at that moment says how urgent each is."""
    rows = list(
        break_glass_unreviewed()
        .annotate(total=Window(Count("pk")))
        .values("pk", "total", "username", "address", "at", "provider_answered")[:SHOWN]
    )
    count = rows[0]["total"] if rows else 0
    answered = {True: "the provider answered", False: "the provider did not answer", None: ""}
    return Queue(
        key="break-glass",
        title="Break-glass sign-ins to review",
        count=count,
        url=url("staff:sign_ins", break_glass="unreviewed"),
        noun="not reviewed",
        items=[
            Item(
                f"{row['username']} from {row['address'] or 'an unknown address'}",
                url("staff:sign_in_review", row["pk"]),
                note=answered[row["provider_answered"]],
                when=row["at"],
            )
            for row in rows
        ],
        rows=count,
    )


# Each queue, the permission that shows it, in the order the page shows them; each takes the user.
USER_QUEUES = (
    ("staff.decide_accountchange", account_changes_to_decide),
    ("accounts.review_signinevent", break_glass_sign_ins),
)

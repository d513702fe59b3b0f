"""The administrators' lists as django-tables2 tables: the accounts, and every account change."""

import django_tables2 as tables

from core.listing import BadgeColumn, LocalTimeColumn

from .models import AccountChange

NUMBER = {"th": {"class": "number"}, "td": {"class": "number"}}


class YesNoColumn(tables.Column):
    """A yes or no, in words on the page and in exports."""

    def __init__(self, *args, yes: str = "Yes", no: str = "No", **kwargs):
        self.yes, self.no = yes, no
        super().__init__(*args, **kwargs)

    def render(self, value):
        return self.yes if value else self.no

    def value(self, value):
        return self.yes if value else self.no


class UserTable(tables.Table):
    username = tables.Column("Username", linkify=("staff:user", [tables.A("pk")]))
    role = tables.Column("Role", default="—")
    is_active = YesNoColumn("Active")
    second_factor = YesNoColumn("Second factor", yes="Enrolled", no="None")
    single_sign_on = YesNoColumn("Signs in", yes="Single sign-on", no="Local")
    pending = tables.Column("Changes awaiting", attrs=NUMBER)
    last_login = LocalTimeColumn("Last sign-in", default="—")
    date_joined = LocalTimeColumn("Created")

    class Meta:
        fields = ["username", "role", "is_active", "second_factor", "single_sign_on", "pending"]
        sequence = [*fields, "last_login", "date_joined"]
        order_by = "username"
        empty_text = "No account matches."


class ChangeTable(tables.Table):
    id = tables.Column("Change", linkify=("staff:change", [tables.A("pk")]))
    requested_at = LocalTimeColumn("Asked")
    user = tables.Column("Account", accessor="user__username", order_by="user__username")
    kind = tables.Column("What")
    role = tables.Column(default="—")
    status = BadgeColumn()
    requested_by = tables.Column(
        "Asked by", accessor="requested_by__username", order_by="requested_by__username", default="a command"
    )
    reason = tables.Column(attrs={"td": {"class": "reason"}})
    decided_by = tables.Column(
        "Decided by", accessor="decided_by__username", order_by="decided_by__username", default="—"
    )
    decided_at = LocalTimeColumn("Decided", default="—")
    decision_note = tables.Column("Note", default="—", attrs={"td": {"class": "reason"}})

    class Meta:
        model = AccountChange
        fields = [
            "id",
            "requested_at",
            "user",
            "kind",
            "role",
            "status",
            "requested_by",
            "reason",
            "decided_by",
            "decided_at",
            "decision_note",
        ]
        empty_text = "No account change matches."

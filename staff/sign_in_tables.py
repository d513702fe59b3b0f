"""The sign-in record's lists as django-tables2 tables: the events, the days, the API tokens' uses."""

from urllib.parse import urlencode

import django_tables2 as tables
from django.urls import reverse

from accounts.models import SignInEvent, TokenUse
from core.listing import CellColumn, LocalTimeColumn

NUMBER = {"th": {"class": "number"}, "td": {"class": "number"}}


def yes_no(value) -> str:
    return "—" if value is None else ("yes" if value else "no")


class SignInEventTable(tables.Table):
    at = LocalTimeColumn("When")
    day = tables.DateColumn(format="Y-m-d", verbose_name="Gaming day")
    kind = tables.Column()
    username = tables.Column(default="—")
    address = tables.Column(default="—")
    method = tables.Column(default="—")
    second_factor = tables.Column("Second factor", default="—")
    detail = tables.Column(default="—", attrs={"td": {"class": "reason"}})
    break_glass = CellColumn(
        "Break-glass", template_name="staff/sign_in_break_glass_cell.html", empty_values=()
    )
    provider_answered = tables.Column("Provider answered", empty_values=())
    reviewed_by = tables.Column("Reviewed by", visible=False)
    reviewed_at = LocalTimeColumn("Reviewed at", visible=False)
    review_note = tables.Column("Review note", visible=False)
    # The link to review a flagged sign-in: for who may review (SignInListView), never exported.
    review = CellColumn(
        "",
        template_name="staff/sign_in_review_cell.html",
        accessor="pk",
        orderable=False,
        exclude_from_export=True,
        empty_values=(),
    )

    class Meta:
        model = SignInEvent
        fields = [
            "at",
            "day",
            "kind",
            "username",
            "address",
            "method",
            "second_factor",
            "detail",
            "break_glass",
            "provider_answered",
            "reviewed_by",
            "reviewed_at",
            "review_note",
            "review",
        ]
        order_by = "-at"
        empty_text = "No sign-in matches."

    def render_provider_answered(self, value, record):
        return yes_no(value) if record.break_glass else "—"

    def value_provider_answered(self, value, record):
        return yes_no(value) if record.break_glass else ""

    def value_break_glass(self, value):
        return "yes" if value else "no"


def day_events_url(record) -> str:
    """The sign-ins of the row's day."""
    day = record["day"].isoformat()
    return f"{reverse('staff:sign_ins')}?{urlencode({'day_from': day, 'day_to': day})}"


class SignInDayTable(tables.Table):
    day = tables.Column("Gaming day", linkify=day_events_url)
    successes = tables.Column(attrs=NUMBER)
    failures = tables.Column(attrs=NUMBER)
    lockouts = tables.Column(attrs=NUMBER)
    second_factor_failures = tables.Column("Second-factor failures", attrs=NUMBER)
    break_glass = tables.Column("Break-glass", attrs=NUMBER)
    token_minutes = tables.Column("Token uses (minutes)", attrs=NUMBER)
    tokens = tables.Column("Tokens used", attrs=NUMBER)

    class Meta:
        order_by = "-day"
        empty_text = "No sign-in nor token use in these days."


class TokenUseTable(tables.Table):
    prefix = tables.Column("Token", accessor="token__prefix", order_by="token__prefix")
    name = tables.Column("Token name", accessor="token__name", order_by="token__name", default="—")
    user = tables.Column("User", accessor="token__user__username", order_by="token__user__username")
    day = tables.DateColumn(format="Y-m-d", verbose_name="Gaming day")
    address = tables.Column()
    first_at = LocalTimeColumn("First")
    last_at = LocalTimeColumn("Last")
    minutes = tables.Column(attrs=NUMBER)

    class Meta:
        model = TokenUse
        fields = ["prefix", "name", "user", "day", "address", "first_at", "last_at", "minutes"]
        order_by = ("-day", "-last_at")
        empty_text = "No token use matches."

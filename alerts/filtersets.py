"""The filters of the alerts' lists: the same for each page, its exports and the API."""

from datetime import date, datetime, time, timedelta

import django_filters
from django.db.models import Q
from django.utils import timezone

from accounts.roles import COMPLIANCE, SUPERVISOR
from blackjack.rules import BET_KIND_LABELS
from core.filters import in_utc
from core.forms import IsoDateInput
from tables.choices import Game

from .choices import AlertStatus, Monitor, Severity, ThresholdStatus
from .models import Alert, ReportableFault, Silence, Threshold
from .services import reaching

SILENCE_STATES = [
    ("in_force", "In force"),
    ("to_come", "To come"),
    ("ended", "Ended early"),
    ("over", "Over"),
]


def day_start(day) -> datetime | None:
    """Midnight of `day` in the active time zone (the user's on a page, UTC in the API), in UTC; None
    when that moment is no date in UTC (the calendar's first or last day)."""
    return in_utc(timezone.make_aware(datetime.combine(day, time.min)))


class LocalDateFilter(django_filters.DateFilter):
    """A date typed as YYYY-MM-DD, read as a day in the user's time zone: `end=False`, the moments
    from its start; `end=True`, up to its end (both days count)."""

    def __init__(self, *args, end: bool = False, **kwargs):
        self.end = end
        kwargs.setdefault("widget", IsoDateInput())
        super().__init__(*args, **kwargs)

    def filter(self, qs, value):
        if value is None:
            return qs
        # A day whose bound is no moment in UTC is at the calendar's first or last day: everything is
        # after the first, and before the last.
        late = value.year == date.max.year
        if self.end:
            bound = None if late else day_start(value + timedelta(days=1))
            if bound is None:
                return qs if late else qs.none()
            return qs.filter(**{f"{self.field_name}__lt": bound})
        bound = day_start(value)
        if bound is None:
            return qs.none() if late else qs
        return qs.filter(**{f"{self.field_name}__gte": bound})


class AlertFilterSet(django_filters.FilterSet):
    table = django_filters.CharFilter(field_name="table__code", label="Table code")
    monitor = django_filters.MultipleChoiceFilter(choices=Monitor.choices)
    status = django_filters.MultipleChoiceFilter(choices=AlertStatus.choices)
    severity = django_filters.MultipleChoiceFilter(choices=Severity.choices)
    subject = django_filters.CharFilter(
        method="by_subject", label="Subject", help_text="A bet kind (RTP drift) or a dealer's id."
    )
    first_seen_from = LocalDateFilter(field_name="first_seen", label="First seen from")
    first_seen_to = LocalDateFilter(field_name="first_seen", end=True, label="First seen to")
    claimed = django_filters.ChoiceFilter(
        choices=[("me", "By me")], empty_label="Any", method="claimed_by_me", label="Claimed"
    )
    reaches = django_filters.ChoiceFilter(
        choices=[(SUPERVISOR.lower(), "Supervisors"), (COMPLIANCE.lower(), "Compliance")],
        empty_label="Anyone",
        method="reaching_role",
        label="Reaches",
        help_text="Its monitors' warnings and every critical alert; silenced tables left out.",
    )

    class Meta:
        model = Alert
        fields = ["table", "monitor", "status", "severity", "subject"]

    def by_subject(self, queryset, name, value):
        """The subject as stored, or a bet kind by its label ("21+3")."""
        kinds = [kind for kind, label in BET_KIND_LABELS.items() if label.lower() == value.lower()]
        return queryset.filter(Q(subject=value) | Q(subject__in=kinds))

    def reaching_role(self, queryset, name, value):
        return reaching(queryset, next(role for role in (SUPERVISOR, COMPLIANCE) if role.lower() == value))

    def claimed_by_me(self, queryset, name, value):
        user = getattr(self.request, "user", None)
        if user is None or not user.is_authenticated:
            return queryset.none()
        return queryset.filter(claimed_by=user)


class SilenceFilterSet(django_filters.FilterSet):
    table = django_filters.CharFilter(field_name="table__code", label="Table code")
    monitor = django_filters.ChoiceFilter(
        choices=[("all", "All monitors"), *Monitor.choices],
        method="by_monitor",
        empty_label="Any",
        help_text="A silence of every monitor counts for each.",
    )
    state = django_filters.MultipleChoiceFilter(choices=SILENCE_STATES, label="State")

    class Meta:
        model = Silence
        fields = ["table", "monitor", "state"]

    def by_monitor(self, queryset, name, value):
        if value == "all":
            return queryset.filter(monitor="")
        return queryset.filter(Q(monitor="") | Q(monitor=value))


class ThresholdFilterSet(django_filters.FilterSet):
    monitor = django_filters.MultipleChoiceFilter(choices=Monitor.choices)
    status = django_filters.MultipleChoiceFilter(choices=ThresholdStatus.choices)
    game = django_filters.ChoiceFilter(choices=Game.choices, empty_label="Any")
    table = django_filters.CharFilter(field_name="table__code", label="Table code")

    class Meta:
        model = Threshold
        fields = ["monitor", "status", "game", "table"]


class FaultFilterSet(django_filters.FilterSet):
    table = django_filters.CharFilter(field_name="table__code", label="Table code")
    game = django_filters.MultipleChoiceFilter(choices=Game.choices)
    marked_from = LocalDateFilter(field_name="marked_at", label="Marked from")
    marked_to = LocalDateFilter(field_name="marked_at", end=True, label="Marked to")

    class Meta:
        model = ReportableFault
        fields = ["table", "game"]

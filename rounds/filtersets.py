from functools import reduce
from operator import or_

import django_filters
from django.db.models import Exists, F, OuterRef, Q

from blackjack.rules import BET_KIND_LABELS
from core.filters import UtcDateTimeFilter
from core.templatetags.pitboss import zoned_label
from live.choices import FindingClass
from tables.choices import Game

from .choices import (
    FindingCode,
    IncidentKind,
    IncidentStatus,
    ProposalStatus,
    RoundStatus,
    codes_of_classes,
)
from .models import Bet, Finding, Incident, Refund, Resettlement, Round, Void
from .outcome import RoundOutcome, outcome_q
from .selectors import breached_limit


def outcome_filter(prefix: str = "") -> django_filters.MultipleChoiceFilter:
    """Rounds (or bets, through `prefix`) of any of the chosen outcomes (rounds.outcome)."""

    def by_outcome(queryset, name, value):
        return queryset.filter(reduce(or_, (outcome_q(outcome, prefix) for outcome in value)))

    return django_filters.MultipleChoiceFilter(
        method=by_outcome,
        choices=RoundOutcome.choices,
        label="Outcome",
        help_text="As sent by the game server and corrected since (re-settled, cancelled, voided).",
    )


class RoundFilterSet(django_filters.FilterSet):
    table = django_filters.CharFilter(field_name="table__code", label="Table code")
    game = django_filters.MultipleChoiceFilter(field_name="table__game", choices=Game.choices)
    day = django_filters.DateFilter(field_name="gaming_day", label="Gaming day")
    opened_after = UtcDateTimeFilter(
        field_name="opened_at", lookup_expr="gte", label=zoned_label("Opened from")
    )
    opened_before = UtcDateTimeFilter(
        field_name="opened_at", lookup_expr="lt", label=zoned_label("Opened before")
    )
    player = django_filters.CharFilter(method="by_player", label="Player id")
    outcome = outcome_filter()
    status = django_filters.MultipleChoiceFilter(choices=RoundStatus.choices, label="Status sent")
    shoe = django_filters.CharFilter(field_name="shoe__code", label="Shoe")
    dealt_by = django_filters.CharFilter(label="Dealt by", help_text="The game server's id of who dealt.")
    has_findings = django_filters.BooleanFilter(method="by_findings", label="Has findings")
    finding = django_filters.MultipleChoiceFilter(method="by_finding_code", choices=FindingCode.choices)
    finding_class = django_filters.MultipleChoiceFilter(
        method="by_finding_class", choices=FindingClass.choices, label="Finding class"
    )
    reviewed = django_filters.BooleanFilter(field_name="reviewed_at", lookup_expr="isnull", exclude=True)

    class Meta:
        model = Round
        fields = [
            "table",
            "game",
            "day",
            "player",
            "outcome",
            "status",
            "shoe",
            "dealt_by",
            "has_findings",
            "reviewed",
        ]

    def by_player(self, queryset, name, value):
        return queryset.filter(
            Exists(
                Bet.objects.filter(
                    round=OuterRef("pk"), gaming_day=OuterRef("gaming_day"), player__external_id=value
                )
            )
        )

    def by_findings(self, queryset, name, value):
        return queryset.filter(finding_count__gt=0) if value else queryset.filter(finding_count=0)

    def by_finding_class(self, queryset, name, value):
        return self.by_finding_code(queryset, name, codes_of_classes(value))

    def by_finding_code(self, queryset, name, value):
        return queryset.filter(
            Exists(
                Finding.objects.filter(
                    round=OuterRef("pk"), gaming_day=OuterRef("gaming_day"), code__in=value
                )
            )
        )


class BetFilterSet(django_filters.FilterSet):
    """A player's play record, and bets in general."""

    player = django_filters.CharFilter(field_name="player__external_id", label="Player id")
    table = django_filters.CharFilter(field_name="round__table__code", label="Table code")
    # One round's bets: how customer service reaches a round (rounds.access.play_record_at).
    round = django_filters.CharFilter(field_name="round__round_id", label="Round id")
    kind = django_filters.CharFilter()
    day = django_filters.DateFilter(field_name="gaming_day", label="Gaming day")
    placed_after = UtcDateTimeFilter(
        field_name="round__opened_at", lookup_expr="gte", label=zoned_label("Placed from")
    )
    placed_before = UtcDateTimeFilter(
        field_name="round__opened_at", lookup_expr="lt", label=zoned_label("Placed before")
    )
    differs = django_filters.BooleanFilter(method="by_difference", label="Computed differs from reported")
    outcome = outcome_filter("round__")
    breached = django_filters.ChoiceFilter(
        choices=[("yes", "Yes")], empty_label="Any", method="by_breach", label="Breached a limit"
    )

    class Meta:
        model = Bet
        fields = ["player", "table", "round", "kind", "day", "differs", "outcome", "breached"]

    def by_difference(self, queryset, name, value):
        differs = ~Q(computed_returned=F("returned")) | ~Q(computed_wagered=F("wagered"))
        return queryset.filter(differs) if value else queryset.exclude(differs)

    def by_breach(self, queryset, name, value):
        return queryset.filter(breached_limit())  # only "yes" reaches here: "Any" filters nothing


class ResettlementFilterSet(django_filters.FilterSet):
    # On Resettlement.objects.with_round_key(): the round as the registry keeps it, archived or not.
    table = django_filters.CharFilter(field_name="round_table_code", label="Table code")
    status = django_filters.MultipleChoiceFilter(choices=ProposalStatus.choices)
    round = django_filters.CharFilter(field_name="game_round_id", label="Round id")

    class Meta:
        model = Resettlement
        fields = ["table", "status", "round"]


class VoidFilterSet(django_filters.FilterSet):
    # On Void.objects.with_round_key(): the round as the registry keeps it, archived or not.
    table = django_filters.CharFilter(field_name="round_table_code", label="Table code")
    status = django_filters.MultipleChoiceFilter(choices=ProposalStatus.choices)
    round = django_filters.CharFilter(field_name="game_round_id", label="Round id")

    class Meta:
        model = Void
        fields = ["table", "status", "round"]


class IncidentFilterSet(django_filters.FilterSet):
    table = django_filters.CharFilter(field_name="table__code", label="Table code")
    kind = django_filters.MultipleChoiceFilter(choices=IncidentKind.choices)
    status = django_filters.MultipleChoiceFilter(choices=IncidentStatus.choices)
    opened_after = UtcDateTimeFilter(
        field_name="opened_at", lookup_expr="gte", label=zoned_label("Opened from")
    )
    opened_before = UtcDateTimeFilter(
        field_name="opened_at", lookup_expr="lt", label=zoned_label("Opened before")
    )

    class Meta:
        model = Incident
        fields = ["table", "kind", "status"]


class RefundFilterSet(django_filters.FilterSet):
    round = django_filters.CharFilter(field_name="bet__round__round_id", label="Round id")
    player = django_filters.CharFilter(field_name="bet__player__external_id", label="Player id")
    kind = django_filters.ChoiceFilter(
        field_name="bet__kind", label="Bet kind", choices=list(BET_KIND_LABELS.items()), empty_label="Any"
    )

    class Meta:
        model = Refund
        fields = ["round", "player", "kind"]

import django_filters
from django.db.models import Q

from tables.choices import Currency, Game

from .choices import TABLE_LIMIT_KINDS, AccountType, BetKind, PlayerStatus
from .models import PersonalLimit, Player, TableLimit


class PlayerFilterSet(django_filters.FilterSet):
    q = django_filters.CharFilter(method="search", label="Search")
    account_type = django_filters.MultipleChoiceFilter(choices=AccountType.choices)
    status = django_filters.MultipleChoiceFilter(choices=PlayerStatus.choices)
    currency = django_filters.MultipleChoiceFilter(choices=Currency.choices)

    class Meta:
        model = Player
        fields = ["q", "account_type", "status", "currency"]

    def search(self, queryset, name, value):
        return queryset.filter(Q(external_id__icontains=value) | Q(display_name__icontains=value))


class TableLimitFilterSet(django_filters.FilterSet):
    table = django_filters.CharFilter(field_name="table__code", label="Table code")
    game = django_filters.MultipleChoiceFilter(field_name="table__game", choices=Game.choices)
    kind = django_filters.MultipleChoiceFilter(choices=TABLE_LIMIT_KINDS)

    class Meta:
        model = TableLimit
        fields = ["table", "game", "kind"]


class PersonalLimitFilterSet(django_filters.FilterSet):
    player = django_filters.CharFilter(field_name="player__external_id", label="Player id")
    kind = django_filters.MultipleChoiceFilter(choices=BetKind.choices)
    table = django_filters.CharFilter(field_name="table__code", label="Table code")
    game = django_filters.MultipleChoiceFilter(choices=Game.choices)
    state = django_filters.ChoiceFilter(
        method="by_state",
        choices=[("pending", "Pending"), ("withdrawn", "Withdrawn"), ("effective", "In force or past")],
        label="State",
    )

    class Meta:
        model = PersonalLimit
        fields = ["player", "kind", "table", "game"]

    def by_state(self, queryset, name, value):
        from django.utils import timezone

        now = timezone.now()
        if value == "pending":
            return queryset.filter(effective_from__gt=now, withdrawn_at__isnull=True)
        if value == "withdrawn":
            return queryset.filter(withdrawn_at__isnull=False)
        return queryset.filter(effective_from__lte=now, withdrawn_at__isnull=True)

"""The RTP the operator publishes for each bet kind, and the figure a players' sheet states.

Compliance enters, for a configuration version and a bet kind, the operator's published RTP and where it
is published (tables.models.PublishedRtp): entries are never changed, a later one replaces the figure of
record from its time on. A version approved with a kind's computed RTP unchanged takes the previous
version's figure for it (`carry_published_figures`), marked as carried.

The sheet never promises more than the game gives (`stated_rtp`, the one rule): it states the published
figure when that is at or below the computed maximum (best play), and otherwise the computed maximum,
rounded down to the sheet's two places. A published figure above the computed one is flagged to
compliance (`figures_above_the_game`, on its home queue).
"""

from dataclasses import dataclass
from datetime import date, datetime
from decimal import ROUND_FLOOR, Decimal

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.db.models import OuterRef, Q, Subquery
from django.db.models.functions import Now
from django.utils import timezone

from blackjack.rules import kind_label

from .choices import ConfigurationStatus
from .models import ConfigurationOdds, PublishedRtp, Table, TableConfiguration

ENTER = "tables.add_publishedrtp"  # compliance's permission
SHEET_PLACES = Decimal("0.01")


def stated_rtp(computed: Decimal, published: Decimal | None) -> Decimal:
    """The RTP a sheet states for a kind: the published figure when it is at or below the computed
    maximum, else the computed maximum rounded down to two places (99.5169 -> 99.51, never 99.52)."""
    if published is not None and published <= computed:
        return published.quantize(SHEET_PLACES)
    return computed.quantize(SHEET_PLACES, rounding=ROUND_FLOOR)


def promises_more(computed: Decimal | None, published: Decimal | None) -> bool:
    """A published figure above what the game gives at best play: flagged to compliance."""
    return computed is not None and published is not None and published > computed


def published_figures(
    configuration: TableConfiguration, at: datetime | None = None
) -> dict[str, PublishedRtp]:
    """The figure of record of each bet kind of `configuration` at `at` (default: now): its latest entry
    made by then."""
    entries = PublishedRtp.objects.filter(configuration=configuration).select_related("entered_by")
    if at is not None:
        entries = entries.filter(entered_at__lte=at)
    figures: dict[str, PublishedRtp] = {}
    for entry in entries.order_by("kind", "-entered_at", "-pk"):
        figures.setdefault(entry.kind, entry)
    return figures


@transaction.atomic
def published_rtp_enter(
    *,
    configuration: TableConfiguration,
    kind: str,
    rtp: Decimal,
    source_document: str,
    published_on: date,
    entered_by,
    source_url: str = "",
) -> PublishedRtp:
    """Compliance enters the operator's published RTP of a bet kind the version offers; it is the figure
    of record of that version and kind from now on."""
    if not entered_by.has_perm(ENTER):
        raise PermissionDenied("Compliance enters the published figures.")
    configuration = TableConfiguration.objects.select_related("table").get(pk=configuration.pk)
    errors = {}
    if configuration.status == ConfigurationStatus.REJECTED:
        errors["configuration"] = [f"Version {configuration.version} was rejected: it is never in force."]
    if kind not in configuration.rule_set.offered_kinds:
        errors["kind"] = [
            f"Version {configuration.version} of {configuration.table.code} offers no {kind_label(kind)} bet."
        ]
    if published_on is not None and published_on > timezone.localdate():
        errors["published_on"] = ["A document published later than today cannot be cited yet."]
    entry = PublishedRtp(
        configuration=configuration,
        kind=kind,
        rtp=rtp,
        source_document=(source_document or "").strip(),
        source_url=(source_url or "").strip(),
        published_on=published_on,
        entered_by=entered_by,
    )
    try:
        entry.full_clean()
    except ValidationError as refused:  # every field's message at once, the service's first
        for field, messages in refused.message_dict.items():
            errors.setdefault(field, messages)
    if errors:
        raise ValidationError(errors)
    entry.save()
    return entry


def carry_published_figures(configuration: TableConfiguration, base: TableConfiguration | None) -> list:
    """At `configuration`'s approval: `base`'s figure of record for each kind both offer whose computed
    RTP is unchanged, carried to it (the operator's figure still describes the game)."""
    if base is None:
        return []
    computed = {
        odds.configuration_id: odds
        for odds in ConfigurationOdds.objects.filter(configuration__in=[configuration, base])
    }
    if len(computed) < 2:
        return []
    offered = set(configuration.rule_set.offered_kinds)
    carried = []
    for kind, entry in published_figures(base).items():
        if kind in offered and computed[base.pk].rtp(kind) == computed[configuration.pk].rtp(kind):
            carried.append(
                PublishedRtp(
                    configuration=configuration,
                    kind=kind,
                    rtp=entry.rtp,
                    source_document=entry.source_document,
                    source_url=entry.source_url,
                    published_on=entry.published_on,
                    entered_by=entry.entered_by,
                    carried_from=entry.carried_from or entry,
                )
            )
    return PublishedRtp.objects.bulk_create(carried)


@dataclass(frozen=True)
class FigureOfRecord:
    """One bet kind of one version: what the game gives at best, what the operator publishes, and what
    the sheet states."""

    table: Table
    configuration: TableConfiguration
    kind: str
    computed: Decimal | None
    published: PublishedRtp | None

    @property
    def label(self) -> str:
        return kind_label(self.kind)

    @property
    def stated(self) -> Decimal | None:
        if self.computed is None:
            return None
        return stated_rtp(self.computed, self.published.rtp if self.published else None)

    @property
    def above_the_game(self) -> bool:
        return promises_more(self.computed, self.published.rtp if self.published else None)


def computed_rtp(configuration: TableConfiguration, kind: str) -> Decimal | None:
    """The kind's computed maximum RTP, from the version's odds (select_related `odds`); None while
    they are worked out (none yet, or of an older method)."""
    odds = getattr(configuration, "odds", None)
    return odds.rtp(kind) if odds is not None and odds.current else None


def figures_of_versions(configurations) -> list[FigureOfRecord]:
    """Every bet kind each of `configurations` (a queryset) offers, by table code, version and the
    rules' order, with its figures. Two queries, whatever the number of versions."""
    versions = list(configurations.select_related("table", "odds").order_by("table__code", "version"))
    entries = (
        PublishedRtp.objects.filter(configuration__in=versions)
        .select_related("entered_by", "carried_from__configuration")
        .order_by("configuration", "kind", "-entered_at", "-pk")
    )
    latest: dict[tuple[int, str], PublishedRtp] = {}
    for entry in entries:
        latest.setdefault((entry.configuration_id, entry.kind), entry)
    return [
        FigureOfRecord(
            configuration.table,
            configuration,
            kind,
            computed_rtp(configuration, kind),
            latest.get((configuration.pk, kind)),
        )
        for configuration in versions
        for kind in configuration.rule_set.offered_kinds
    ]


def figures_of_record(configuration: TableConfiguration) -> list[FigureOfRecord]:
    """Every bet kind `configuration` offers, in the rules' order, with its figures."""
    return figures_of_versions(TableConfiguration.objects.filter(pk=configuration.pk))


def watched_configurations():
    """The versions compliance watches, as a queryset (a subquery where it is used): each table's
    version in force now, and every version approved to start later."""
    in_force = (
        TableConfiguration.objects.in_force()
        .filter(table=OuterRef("table"))
        .order_by("-valid_from", "-pk")
        .values("pk")[:1]
    )
    return TableConfiguration.objects.approved().filter(Q(valid_from__gt=Now()) | Q(pk=Subquery(in_force)))


def figures_above_the_game() -> list[FigureOfRecord]:
    """The published figures of record above the computed maximum, of every version in force or approved
    to start later: compliance's queue. One query, whatever the number of tables."""
    entries = (
        PublishedRtp.objects.filter(configuration__in=watched_configurations())
        .select_related("configuration__table", "configuration__odds", "entered_by")
        .order_by("configuration__table__code", "configuration__version", "kind", "-entered_at", "-pk")
    )
    latest: dict[tuple[int, str], PublishedRtp] = {}
    for entry in entries:
        latest.setdefault((entry.configuration_id, entry.kind), entry)
    figures = [
        FigureOfRecord(
            entry.configuration.table,
            entry.configuration,
            entry.kind,
            computed_rtp(entry.configuration, entry.kind),
            entry,
        )
        for entry in latest.values()
    ]
    return [figure for figure in figures if figure.above_the_game]

"""Reads about tables that more than one place needs."""

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime

from django.db.models import QuerySet
from django.utils import timezone

from .choices import ConfigurationStatus
from .models import Table, TableConfiguration


def configuration_in_force(table: Table, at: datetime | None = None) -> TableConfiguration | None:
    """The configuration version a round played at `at` (default: now) is checked against: the latest
    approved version started by then. A proposed or rejected version never is."""
    return table.configurations.in_force(at).order_by("-valid_from").first()


def pending_configurations(table: Table):
    """Approved versions that start later."""
    return table.configurations.approved().filter(valid_from__gt=timezone.now()).order_by("valid_from")


def open_proposal(table: Table) -> TableConfiguration | None:
    """The table's proposed version awaiting a decision (one at most)."""
    return table.configurations.filter(status=ConfigurationStatus.PROPOSED).first()


def latest_version(table: Table) -> TableConfiguration:
    """The table's highest version, whatever its status: a form is based on it (its number is what the
    form has seen)."""
    return table.configurations.order_by("-version").first()


def latest_approved(table: Table) -> TableConfiguration | None:
    """The last approved version (in force, or pending): a new proposal changes its rules."""
    return table.configurations.approved().order_by("-version").first()


def previous_approved(configuration: TableConfiguration) -> TableConfiguration | None:
    """The approved version a proposal was made against: the last approved one before it."""
    return (
        TableConfiguration.objects.approved()
        .filter(table_id=configuration.table_id, version__lt=configuration.version)
        .order_by("-version")
        .first()
    )


# --- what other apps say about a table ------------------------------------------------------------


@dataclass(frozen=True)
class TableAlert:
    """Something about a table that its status alone does not say (an open incident), with a link."""

    label: str
    url: str


@dataclass(frozen=True)
class TableAlertSource:
    """Registered by an app above tables (apps depend downwards: tables never imports it).

    `annotate` adds what it needs to a queryset of tables (one query for any number of tables);
    `alert` reads it back from one table of that queryset: a TableAlert, or None.
    """

    annotate: Callable[[QuerySet], QuerySet]
    alert: Callable[[Table], TableAlert | None]


table_alert_sources: list[TableAlertSource] = []


def with_alerts(tables: QuerySet) -> QuerySet:
    """`tables` with what every registered source needs to say about each of them."""
    for source in table_alert_sources:
        tables = source.annotate(tables)
    return tables


def table_alerts(table: Table) -> list[TableAlert]:
    """What the sources say about a table read through `with_alerts`."""
    return [alert for source in table_alert_sources if (alert := source.alert(table)) is not None]


@dataclass(frozen=True)
class DealerOnDuty:
    """Who deals at a table now: the `dealt_by` of its latest round, which `round_id` names; else the
    table's hand-set `dealer` (`round_id` "")."""

    dealer: str
    round_id: str = ""


@dataclass(frozen=True)
class DealerSource:
    """Who dealt a table's latest round, registered by rounds (tables never imports it).

    `annotate` adds it to a queryset of tables (one query for any number of tables); `dealer` reads it
    back from a table of that queryset (from any other table, in a query of its own): a DealerOnDuty,
    or None when the table's latest round does not say who dealt it, or it has none."""

    annotate: Callable[[QuerySet], QuerySet]
    dealer: Callable[[Table], DealerOnDuty | None]


dealer_sources: list[DealerSource] = []


def with_dealers(tables: QuerySet) -> QuerySet:
    """`tables` with what the registered sources need to say who deals at each."""
    for source in dealer_sources:
        tables = source.annotate(tables)
    return tables


def dealer_on_duty(table: Table) -> DealerOnDuty:
    """Who deals at `table` now: as its latest round says, else as set by hand."""
    for source in dealer_sources:
        if (found := source.dealer(table)) is not None:
            return found
    return DealerOnDuty(dealer=table.dealer)


@dataclass(frozen=True)
class TablePanel:
    """A panel of the table page supplied by an app above tables, registered by its AppConfig.ready().

    The page includes `template` at `place` ("beside": next to the table's facts; "history": next to
    the table's changes), with `context(table, configuration in force or None)` as `panel`.
    """

    place: str
    template: str
    context: Callable[[Table, TableConfiguration | None], dict]


table_panels: list[TablePanel] = []


def table_page_panels(table: Table, configuration: TableConfiguration | None) -> dict[str, list]:
    """Each place's panels for the table page: (template, panel context) in the order registered."""
    shown: dict[str, list] = {}
    for panel in table_panels:
        shown.setdefault(panel.place, []).append((panel.template, panel.context(table, configuration)))
    return shown

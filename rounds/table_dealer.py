"""Who deals at a table now, for the table page and the tables API: the `dealt_by` of the table's
latest round (by opened_at), when it has one. Registered in tables.selectors.dealer_sources by
RoundsConfig.ready() (tables never imports rounds: apps depend downwards)."""

from django.db.models import OuterRef, QuerySet, Subquery

from tables.models import Table
from tables.selectors import DealerOnDuty, DealerSource

from .models import Round

# The table's rounds newest played first: read from the (table, -opened_at, -id) index.
NEWEST_FIRST = ("-opened_at", "-id")
ROUND_ID, DEALT_BY = "latest_round_id", "latest_round_dealt_by"


def with_latest_round(tables: QuerySet) -> QuerySet:
    latest = Round.objects.filter(table=OuterRef("pk")).order_by(*NEWEST_FIRST)
    return tables.annotate(
        **{
            ROUND_ID: Subquery(latest.values("round_id")[:1]),
            DEALT_BY: Subquery(latest.values("dealt_by")[:1]),
        }
    )


def latest_round_dealer(table: Table) -> DealerOnDuty | None:
    if hasattr(table, ROUND_ID):
        round_id, dealt_by = getattr(table, ROUND_ID), getattr(table, DEALT_BY)
    else:
        latest = (
            Round.objects.filter(table=table)
            .order_by(*NEWEST_FIRST)
            .values_list("round_id", "dealt_by")
            .first()
        )
        round_id, dealt_by = latest or (None, None)
    return DealerOnDuty(dealer=dealt_by, round_id=round_id) if dealt_by else None


LATEST_ROUND_DEALER = DealerSource(with_latest_round, latest_round_dealer)

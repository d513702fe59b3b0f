"""What one month of one casino table's round history is, file by file: which rows, in which order,
as which Parquet columns; and its counts and sums as the database has them.

Every partitioned round table (rounds.partitions.PARTITIONED) is one file of the month, its rows
sorted by round id (or bet id, or day) so that each row group holds a narrow range of them: a reader
(DuckDB) that looks a round up by id reads the one or two row groups whose statistics hold it. A
round is found by its game server id through the registry (rounds.registry.RoundKey), which stays in
the database and gives its id, gaming day and table: the file to read.
"""

from collections.abc import Callable
from dataclasses import dataclass
from datetime import date
from decimal import Decimal

import pyarrow as pa
from django.db import models
from django.db.models import Count, Sum
from django.db.models.functions import Cast

from rounds.fields import CompressedJsonField, compressed_json, json_of_compressed
from rounds.models import (
    Adjustment,
    Bet,
    Finding,
    PlayerDayTotal,
    Refund,
    Round,
    TableDayPatternHits,
    TableDayTotal,
)
from rounds.partitions import month_after
from tables.models import Table

CENT = Decimal("0.01")


@dataclass(frozen=True)
class Part:
    """One file of a month's export: a round table's rows of the slice."""

    name: str  # the file is <name>.parquet
    model: type[models.Model]
    order: tuple[str, ...]  # columns the rows are sorted by: the row groups' ranges
    rows_per_chunk: int  # rows fetched from the server-side cursor at a time
    rows_per_group: int  # rows of a Parquet row group at most
    bytes_per_group: int | None = None  # ... and text of a row group at most (characters)


PARTS = (
    # A round's document can be megabytes: few at a time, and row groups cut by size as well.
    Part("rounds", Round, ("id",), 16, 4_096, 16 * 2**20),
    Part("bets", Bet, ("round_id", "id"), 5_000, 250_000),
    Part("findings", Finding, ("round_id", "id"), 5_000, 250_000),
    Part("adjustments", Adjustment, ("bet_id", "id"), 5_000, 250_000),
    Part("refunds", Refund, ("bet_id", "id"), 5_000, 250_000),
    Part("table_day_totals", TableDayTotal, ("day", "id"), 5_000, 250_000),
    Part("table_day_pattern_hits", TableDayPatternHits, ("day", "id"), 5_000, 250_000),
    Part("player_day_totals", PlayerDayTotal, ("day", "player_id", "id"), 5_000, 250_000),
)
PART_OF_TABLE = {part.model._meta.db_table: part for part in PARTS}
# Columns added to a round table after months were first archived: {file: {column: value}}. A month
# exported before one was added has no such column in its file; it is restored with the column's
# database default and recalled with the value here, what the migration gave the rounds stored before.
ADDED_COLUMNS = {
    "rounds": {"dealt_by": ""},  # rounds/0026
}
# The sums a month's manifest keeps, from the files' columns: {file: {total: column}}.
SUMS = {
    "bets": {"wagered": "wagered", "returned": "returned"},
    "adjustments": {"adjustments": "amount"},
    "refunds": {"refunds": "amount"},
}


def slice_rows(part: Part, table: Table, month: date) -> models.QuerySet:
    """`part`'s rows of `table`'s rounds whose gaming day falls in `month`. Each condition names the
    month's days, so that PostgreSQL reads that month's partitions only."""
    after = month_after(month)
    day = {"gaming_day__gte": month, "gaming_day__lt": after}
    rounds = Round.objects.filter(table=table, **day)
    if part.model is Round:
        return rounds
    if part.model in (Bet, Finding):
        return part.model.objects.filter(round__in=rounds.values("pk"), **day)
    if part.model in (Adjustment, Refund):
        bets = Bet.objects.filter(round__in=rounds.values("pk"), **day)
        return part.model.objects.filter(bet__in=bets.values("pk"), **day)
    return part.model.objects.filter(table=table, day__gte=month, day__lt=after)


# --- columns ---------------------------------------------------------------------------------------

INTEGERS = {
    "SmallIntegerField": pa.int16(),
    "PositiveSmallIntegerField": pa.int16(),
    "IntegerField": pa.int32(),
    "PositiveIntegerField": pa.int32(),
    "AutoField": pa.int32(),
    "BigIntegerField": pa.int64(),
    "PositiveBigIntegerField": pa.int64(),
    "BigAutoField": pa.int64(),
}


@dataclass(frozen=True)
class Column:
    name: str  # the database column's name, kept in the file
    value: str | models.Expression  # what values_list() reads
    type: pa.DataType
    nullable: bool
    # For a column the database keeps otherwise than the file (a round's document, compressed): the
    # file's value from what values_list() reads, and what the database stores from the file's value.
    to_file: Callable | None = None
    from_file: Callable | None = None


def arrow_type(field: models.Field) -> pa.DataType:
    """The Parquet (Arrow) type of a model field: money as decimal128 of its width, never a float."""
    target = field.target_field if field.is_relation else field
    kind = target.get_internal_type()
    if kind in INTEGERS:
        return INTEGERS[kind]
    if kind == "DecimalField" and target.max_digits is None:
        return pa.string()  # an unconstrained NUMERIC (a moment): its exact text, as wide as it is
    if kind == "DecimalField":
        return pa.decimal128(target.max_digits, target.decimal_places)
    if kind == "DateField":
        return pa.date32()
    if kind == "DateTimeField":
        return pa.timestamp("us", tz="UTC")
    if kind == "BooleanField":
        return pa.bool_()
    if isinstance(target, CompressedJsonField) or kind == "TextField":
        return pa.large_string()  # a round document can be megabytes; many of them pass 2 GiB
    if kind in ("CharField", "JSONField"):
        return pa.string()
    raise TypeError(f"{field.model.__name__}.{field.name}: no Parquet type for a {kind}")


def part_columns(part: Part) -> list[Column]:
    """Every column of `part`'s table, as stored. JSON is kept as its text: a round's document as it
    was received (decompressed from rounds.fields.CompressedJsonField's bytes), other JSON columns
    as PostgreSQL writes them."""
    columns = []
    for field in part.model._meta.concrete_fields:
        if isinstance(field, CompressedJsonField):
            raw = Cast(field.attname, output_field=models.BinaryField())  # the bytes, not the value
            columns.append(
                Column(field.column, raw, arrow_type(field), field.null, json_of_compressed, compressed_json)
            )
            continue
        value = field.attname
        if isinstance(field, models.DecimalField) and field.max_digits is None:
            columns.append(
                Column(field.column, value, arrow_type(field), field.null, _decimal_text, _decimal_of_text)
            )
            continue
        if isinstance(field, models.JSONField):
            value = Cast(field.attname, output_field=models.TextField())
        columns.append(Column(field.column, value, arrow_type(field), field.null))
    return columns


def _decimal_text(value: Decimal | None) -> str | None:
    return None if value is None else str(value)


def _decimal_of_text(text: str | None) -> Decimal | None:
    return None if text is None else Decimal(text)


def part_schema(part: Part, metadata: dict[str, str]) -> pa.Schema:
    return pa.schema(
        [pa.field(column.name, column.type, nullable=column.nullable) for column in part_columns(part)],
        metadata=metadata,
    )


# --- the database's counts and sums ----------------------------------------------------------------


def amount_text(amount: Decimal | None) -> str:
    """An amount as the manifest keeps it: a string with two decimals ("0.00" for none)."""
    return str((amount or Decimal(0)).quantize(CENT))


def slice_facts(table: Table, month: date) -> dict:
    """The database's row count of each file of the month, and its totals: rounds, bets, wagered,
    returned, adjustments and refunds (amounts as strings)."""
    rows = {part.name: slice_rows(part, table, month).count() for part in PARTS}
    by_name = {part.name: part for part in PARTS}
    bets = slice_rows(by_name["bets"], table, month).aggregate(
        count=Count("id"), wagered=Sum("wagered"), returned=Sum("returned")
    )
    adjustments = slice_rows(by_name["adjustments"], table, month).aggregate(amount=Sum("amount"))
    refunds = slice_rows(by_name["refunds"], table, month).aggregate(amount=Sum("amount"))
    return {
        "rows": rows,
        "totals": {
            "rounds": rows["rounds"],
            "bets": bets["count"],
            "wagered": amount_text(bets["wagered"]),
            "returned": amount_text(bets["returned"]),
            "adjustments": amount_text(adjustments["amount"]),
            "refunds": amount_text(refunds["amount"]),
        },
    }


def month_tables(month: date) -> list[Table]:
    """The casino tables with rows of `month` in any round table: each needs a verified export
    before the month's partitions go."""
    after = month_after(month)
    ids = set()
    for model, key in (
        (Round, "gaming_day"),
        (TableDayTotal, "day"),
        (TableDayPatternHits, "day"),
        (PlayerDayTotal, "day"),
    ):
        rows = model.objects.filter(**{f"{key}__gte": month, f"{key}__lt": after}).order_by()
        ids.update(rows.values_list("table_id", flat=True).distinct())
    return list(Table.objects.filter(pk__in=ids).order_by("code"))

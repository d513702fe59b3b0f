"""A month archived before amounts were widened (issue 44) still restores: its files keep sums as
decimal128(24, 2) and moments as decimal128(32, 4), where the tables now keep sums 28 digits wide and
moments at any width (their exact text in the file). The restore's check takes a narrower decimal of
the same scale, and a decimal where the column now keeps any width; nothing else."""

import pyarrow as pa

from archive.restore import columns_fit
from archive.slices import PARTS, part_schema

TOTALS = next(part for part in PARTS if part.name == "table_day_totals")
MOMENTS = ("wagered_squared", "returned_squared", "wagered_returned")


def retyped(schema: pa.Schema, types: dict[str, pa.DataType]) -> pa.Schema:
    return pa.schema(
        [field.with_type(types[field.name]) if field.name in types else field for field in schema]
    )


def test_the_schema_of_a_month_archived_before_issue_44_fits():
    now = part_schema(TOTALS, {})
    assert all(pa.types.is_string(now.field(name).type) for name in MOMENTS)
    assert now.field("wagered").type == pa.decimal128(28, 2)
    before = retyped(
        now,
        {"wagered": pa.decimal128(24, 2), "stakes": pa.decimal128(24, 2)}
        | {name: pa.decimal128(32, 4) for name in MOMENTS},
    )
    assert columns_fit(now, now)
    assert columns_fit(before, now)


def test_a_wider_decimal_another_scale_or_another_type_does_not_fit():
    now = part_schema(TOTALS, {})
    assert not columns_fit(retyped(now, {"wagered": pa.decimal128(30, 2)}), now)
    assert not columns_fit(retyped(now, {"wagered": pa.decimal128(24, 4)}), now)
    assert not columns_fit(retyped(now, {"wagered": pa.float64()}), now)
    assert not columns_fit(retyped(now, {"wagered_squared": pa.float64()}), now)
    assert not columns_fit(pa.schema(list(now)[:-1]), now)

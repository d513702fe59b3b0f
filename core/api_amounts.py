"""The API's field for an amount a request sends (a limit's stake, the limit check's amount).

It reads as every MoneyField does (core.api: blackjack.amounts' one reader), and the schema
says so: a string matching the amount pattern, where drf-spectacular would describe any decimal
(a sign, no digit before the point, other scripts' digits through \\d). Its own module: core.api
is imported by REST framework's settings, before drf-spectacular's utilities may be."""

from drf_spectacular.utils import extend_schema_field

from blackjack.amounts import AMOUNT_PATTERN, MAX_AMOUNT_DIGITS
from core.api import MoneyField

AMOUNT_SCHEMA = {
    "type": "string",
    "format": "decimal",
    "pattern": f"^{AMOUNT_PATTERN}$",
    "description": f"An amount: a string of ASCII digits, at most {MAX_AMOUNT_DIGITS} before the point and "
    "2 after it; never a JSON number.",
}


@extend_schema_field(AMOUNT_SCHEMA)
class AmountField(MoneyField):
    """An amount in a request body."""

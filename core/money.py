"""How an amount of money is shown to people: on pages, in PDFs and in messages. The one definition.

"1,234.50 EUR": a thousands separator, two decimals, a negative with the minus sign U+2212
("−1.00"), never a plus sign. On a page the amount and its currency are one piece of markup, the
component templates/components/money.html (`money` below, the `money` template filter of
core/templatetags/pitboss.py, or an `{% include %}`). Exports (CSV) are data, not display: they
give the amount plain, with its two decimals ("-1.00": `money_value`).
"""

from collections.abc import Iterable
from decimal import Context, Decimal, Inexact, InvalidOperation, Overflow

from django.template.loader import get_template
from django.utils.safestring import SafeString

# Stored widths: an amount as sent or set (12 digits before the point, the round format's limit),
# and a sum of amounts or of payouts (a round's, a day's, a liability). A payout is at most an amount
# times 1 + 10,000 (MAX_ODDS of blackjack.rules), under 10^17; a sum is counted beside it in a
# PositiveIntegerField (at most 2^31 − 1 terms): under 2.2 × 10^26, so 26 digits before the point
# hold any sum of accepted amounts, and 28 in all is also what Python's default decimal context
# keeps, so that sums of them worked out in Python are exact too. What can outgrow any fixed width
# (a moment ΣW_r², a ratio such as an RTP) is stored in an unconstrained NUMERIC: a DecimalField
# without max_digits and decimal_places (PostgreSQL's `numeric`; SQLite's `decimal`).
AMOUNT_DIGITS = 14
TOTAL_DIGITS = 28
# Sums and products of amounts worked out in Python: the default context keeps 28 significant digits,
# fewer than a day's moments (ΣW_r² of rounds staked at the bound: 30 and more). This one keeps every
# digit of any sum or product of amounts, and raises (decimal.Inexact) rather than round one.
EXACT = Context(prec=200, traps=[Inexact, InvalidOperation, Overflow])
MINUS = "\u2212"
NOTHING = "—"
MONEY_TEMPLATE = "components/money.html"


def exact_sum(values: Iterable[Decimal | int], start: Decimal | int = 0) -> Decimal:
    """The sum of amounts (or of their products), every digit kept."""
    total = Decimal(start)
    for value in values:
        total = EXACT.add(total, value)
    return total


def exact_product(a: Decimal | int, b: Decimal | int) -> Decimal:
    """a × b, every digit kept: a moment (W_r²) or a stake times its count or odds."""
    return EXACT.multiply(a, b)


def money_text(amount: Decimal | int | None) -> str:
    """1234.5 -> "1,234.50"; -1 -> "−1.00"; -0.001 -> "0.00"; None -> "—"."""
    if amount is None:
        return NOTHING
    text = f"{amount if type(amount) is Decimal else Decimal(amount):,.2f}"
    if text[0] != "-":
        return text
    return text[1:] if text == "-0.00" else MINUS + text[1:]


def money_value(amount: Decimal | int) -> str:
    """An amount as an export gives it: -1234.5 -> "-1234.50". A sum worked out by SQLite comes back
    without its scale ("-3"), PostgreSQL's with it ("-3.00"): both give "-3.00" here."""
    text = f"{amount if type(amount) is Decimal else Decimal(amount):.2f}"
    return "0.00" if text == "-0.00" else text


def money(amount: Decimal | int | None, currency: str = "") -> SafeString:
    """An amount with its currency on a page: `1,234.50 <currency>` as the component draws it."""
    return get_template(MONEY_TEMPLATE).render({"amount": amount, "currency": currency})

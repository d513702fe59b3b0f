"""How an amount of money is shown to people: on pages, in PDFs and in messages. The one definition.

"1,234.50 EUR": a thousands separator, two decimals, a negative with the minus sign U+2212
("−1.00"), never a plus sign. On a page the amount and its currency are one piece of markup, the
component templates/components/money.html (`money` below, the `money` template filter of
tables/templatetags/pitboss.py, or an `{% include %}`). Exports (CSV) are data, not display: they
give the amount plain, with its two decimals ("-1.00": `money_value`).
"""

from decimal import Decimal

from django.template.loader import get_template
from django.utils.safestring import SafeString

# Stored widths: an amount as sent or set (12 digits before the point, the round format's limit),
# and a sum or product of amounts (a round's, a day's, a payout at high odds), wider than any amount.
AMOUNT_DIGITS = 14
TOTAL_DIGITS = 24
MINUS = "\u2212"
NOTHING = "—"
MONEY_TEMPLATE = "components/money.html"


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

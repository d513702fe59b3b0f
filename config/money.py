"""How an amount of money is shown to people: on pages, in PDFs and in messages. The one definition.

"1,234.50 EUR": a thousands separator, two decimals, a negative with the minus sign U+2212
("−1.00"), never a plus sign. On a page the amount and its currency are one piece of markup,
`money_html` (the `money` template filter of tables/templatetags/pitboss.py). Exports (CSV) are data,
not display: they give the amount as stored ("-1.00").
"""

from decimal import Decimal

from django.utils.safestring import SafeString

from config.html import escaped

# Stored widths: an amount as sent or set (12 digits before the point, the round format's limit),
# and a sum or product of amounts (a round's, a day's, a payout at high odds), wider than any amount.
AMOUNT_DIGITS = 14
TOTAL_DIGITS = 24
MINUS = "\u2212"
NOTHING = "—"
NO_AMOUNT_HTML = SafeString(f'<span class="money">{NOTHING}</span>')


def money_text(amount: Decimal | int | None) -> str:
    """1234.5 -> "1,234.50"; -1 -> "−1.00"; -0.001 -> "0.00"; None -> "—"."""
    if amount is None:
        return NOTHING
    text = f"{amount if type(amount) is Decimal else Decimal(amount):,.2f}"
    if text[0] != "-":
        return text
    return text[1:] if text == "-0.00" else MINUS + text[1:]


def money_html(amount, currency_html: str) -> SafeString:
    """An amount with its currency on a page; `currency_html` is already escaped (a row of many amounts
    of one currency escapes it once)."""
    if amount is None:
        return NO_AMOUNT_HTML
    return SafeString(
        f'<span class="money">{money_text(amount)} <span class="currency">{currency_html}</span></span>'
    )


def money(amount, currency: str = "") -> SafeString:
    """`money_html` with a currency still to escape."""
    return money_html(amount, escaped(currency))

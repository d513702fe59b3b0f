"""Small filters of the round pages (differences of amounts, signed and with the currency), and the
rows of the round page's spots and bets tables.

The rows are written here rather than in the template: a 300-player round shows 25 players and
their 50 bets a page, and through the template's tags and filters they were a third of the request.
"""

from decimal import Decimal

from django import template
from django.utils.safestring import SafeString, mark_safe
from django.utils.text import slugify

from config.html import format_html, format_html_join
from config.links import ArgumentUrls
from tables.templatetags.pitboss import money

from .cards import card_row

register = template.Library()

FINDING_BADGE = '<span class="badge badge-finding" title="{}">{}</span>'
AUTO_BADGE = mark_safe(
    ' <span class="badge badge-auto" title="The system decided for the player">auto</span>'
)


@register.filter
def subtract(value, other):
    """{{ computed|subtract:reported }}; None when either is missing."""
    if value is None or other is None:
        return None
    return Decimal(value) - Decimal(other)


@register.filter
def signed_money(amount, currency: str = ""):
    """+10.00 EUR, −2.50 EUR, or 0.00 EUR; "—" when there is nothing to compare."""
    if amount is None:
        return mark_safe('<span class="money subtle">—</span>')
    amount = Decimal(amount)
    text = f"{amount:+,.2f}".replace("-", "−") if amount else f"{amount:,.2f}"
    return format_html('<span class="money">{} <span class="currency">{}</span></span>', text, currency)


@register.simple_tag(takes_context=True)
def spot_rows(context, view, shared):
    """A spot's `<tbody>` on the round page: a row per hand (the spot's cells spanning them), or one
    saying no hand was dealt. A shared deal shows the player where a seated game shows the seat."""
    if "play_record_urls" not in context.render_context:
        context.render_context["play_record_urls"] = ArgumentUrls("rounds:play_record")
    spot = view.spot
    player_id = spot.player.external_id
    player = format_html(
        '<a class="mono" href="{}">{}</a>', context.render_context["play_record_urls"](player_id), player_id
    )
    label = player if shared else format_html("<strong>Seat {}</strong>", spot.seat or spot.spot)
    hands = len(view.hands)
    rows = []
    for hand in view.hands:
        cells = []
        if not rows:
            badges = format_html_join("", FINDING_BADGE, ((f.message, f.code) for f in view.findings))
            cells.append(format_html('<td rowspan="{}" class="spot-cell">{} {}</td>', hands, label, badges))
            if not shared:
                cells.append(format_html('<td rowspan="{}">{}</td>', hands, player))
        of = format_html('<span class="subtle small"> of {}</span>', hands) if hands > 1 else ""
        cells.append(format_html('<td class="number">{}{}</td>', hand.position, of))
        cells.append(format_html("<td>{}</td>", card_row(hand.cards, small=shared)))
        cells.append(format_html('<td class="nowrap">{}</td>', hand.total))
        cells.append(format_html("<td>{}{}</td>", _decisions(hand.decisions), _hand_findings(hand.findings)))
        rows.append(
            format_html('<tr class="{}">{}</tr>', "has-finding" if hand.findings else "", _joined(cells))
        )
    if not rows:
        player_cell = "" if shared else format_html("<td>{}</td>", player)
        rows.append(
            format_html(
                '<tr><td class="spot-cell">{}</td>{}<td colspan="4" class="subtle">No hand dealt.</td></tr>',
                label,
                player_cell,
            )
        )
    return format_html(
        '<tbody id="spot-{}" class="spot{}">{}</tbody>',
        slugify(spot.spot),
        " has-finding" if view.has_findings else "",
        _joined(rows),
    )


def _decisions(decisions) -> str:
    if not decisions:
        return mark_safe('<span class="subtle">none needed</span>')
    items = []
    for decision in decisions:
        requested = ""
        if decision.requested:
            requested = format_html(' <span class="requested">requested {}</span>', decision.requested)
        auto = " auto" if decision.auto else ""
        badge = AUTO_BADGE if decision.auto else ""
        item = format_html('<li class="decision{}">{}{}{}</li>', auto, decision.action, badge, requested)
        items.append(item)
    return format_html('<ol class="decisions">{}</ol>', _joined(items))


def _hand_findings(findings) -> str:
    return format_html_join(
        "",
        '<div class="finding-inline"><span class="badge badge-finding">{}</span> {}</div>',
        ((finding.code, finding.message) for finding in findings),
    )


@register.simple_tag
def bet_row(bet, currency):
    """A bet's row in the round page's bets table: reported and computed amounts side by side."""
    wagered_differs = bool(subtract(bet.computed_wagered, bet.wagered))
    returned_differs = bool(bet.difference)
    row_class = ("has-finding" if bet.finding_list else "") + (
        " differs-row" if returned_differs or wagered_differs else ""
    )
    findings = format_html_join("", FINDING_BADGE + " ", ((f.message, f.code) for f in bet.finding_list))
    return format_html(
        '<tr id="bet-{pk}" class="{row_class}">'
        '<td class="mono nowrap">{bet_id}</td>'
        '<td class="mono nowrap">{player}</td>'
        '<td class="mono nowrap">{spot}</td>'
        "<td>{kind}{notes}</td>"
        '<td class="number">{stake}</td>'
        '<td class="number">{wagered}</td>'
        '<td class="number{wagered_differs}">{computed_wagered}</td>'
        '<td class="number">{returned}</td>'
        '<td class="number{returned_differs}">{computed_returned}</td>'
        '<td class="number{returned_differs}">{difference}</td>'
        "<td>{findings}</td></tr>",
        pk=bet.pk,
        row_class=row_class,
        bet_id=bet.bet_id,
        player=bet.player.external_id,
        spot=bet.spot,
        kind=bet.kind,
        notes=format_html_join(
            "", ' <span class="subtle small">{}</span>', ((note,) for note in _notes(bet.options))
        ),
        stake=money(bet.stake, currency),
        wagered=money(bet.wagered, currency),
        wagered_differs=" differs" if wagered_differs else "",
        computed_wagered=money(bet.computed_wagered, currency),
        returned=money(bet.returned, currency),
        returned_differs=" differs" if returned_differs else "",
        computed_returned=money(bet.computed_returned, currency),
        difference=signed_money(bet.difference, currency),
        findings=findings or mark_safe('<span class="subtle">—</span>'),
    )


def _notes(options) -> list[str]:
    """What a bet's options (play behind) say beside its kind."""
    options = options if isinstance(options, dict) else {}
    notes = []
    if options.get("follow_double"):
        notes.append("follows doubles")
    if options.get("follow_split"):
        notes.append("follows splits")
    if options.get("followed_double") is False:
        notes.append("did not follow the double")
    return notes


def _joined(parts) -> str:
    return SafeString("".join(parts))

"""Small filters of the round pages (the difference of two amounts), and the rows of the round page's
spots and bets tables.

The rows are written here rather than in the template: a 300-player round shows 25 players and
their 50 bets a page, and through the template's tags and filters they were a third of the request.
"""

from decimal import Decimal
from html import escape

from django import template
from django.utils.safestring import SafeString, mark_safe
from django.utils.text import slugify

from config.html import escaped, format_html, format_html_join
from config.links import ArgumentUrls
from config.money import money_html
from rounds.engine.rules import kind_label

from .cards import card_row

register = template.Library()

FINDING_BADGE = '<span class="badge badge-finding" title="{}">{}</span>'
NO_FINDING = mark_safe('<span class="subtle">—</span>')
AUTO_BADGE = mark_safe(
    ' <span class="badge badge-auto" title="The system decided for the player">auto</span>'
)


@register.filter
def subtract(value, other):
    """{{ computed|subtract:reported }}; None when either is missing."""
    if value is None or other is None:
        return None
    return Decimal(value) - Decimal(other)


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
    """A bet's row in the round page's bets table: reported and computed amounts side by side.

    Written as one f-string: 50 rows a page, and format_html's escaping of its 17 parts (most of
    them amounts, already HTML) was half the row's time. The texts from the game server are escaped.
    """
    currency = SafeString(escaped(currency))
    wagered_differs = " differs" if subtract(bet.computed_wagered, bet.wagered) else ""
    returned_differs = " differs" if bet.difference else ""
    row_class = ("has-finding" if bet.finding_list else "") + (
        " differs-row" if returned_differs or wagered_differs else ""
    )
    findings = format_html_join("", FINDING_BADGE + " ", ((f.message, f.code) for f in bet.finding_list))
    notes = "".join(f' <span class="subtle small">{escape(note)}</span>' for note in _notes(bet.options))
    return SafeString(
        f'<tr id="bet-{bet.pk}" class="{row_class}">'
        f'<td class="mono nowrap">{escape(bet.bet_id)}</td>'
        f'<td class="mono nowrap">{escape(bet.player.external_id)}</td>'
        f'<td class="mono nowrap">{escape(bet.spot)}</td>'
        f"<td>{escape(kind_label(bet.kind))}{notes}</td>"
        f'<td class="number">{money_html(bet.stake, currency)}</td>'
        f'<td class="number">{money_html(bet.wagered, currency)}</td>'
        f'<td class="number{wagered_differs}">{money_html(bet.computed_wagered, currency)}</td>'
        f'<td class="number">{money_html(bet.returned, currency)}</td>'
        f'<td class="number{returned_differs}">{money_html(bet.computed_returned, currency)}</td>'
        f'<td class="number{returned_differs}">{money_html(bet.difference, currency)}</td>'
        f"<td>{findings or NO_FINDING}</td></tr>"
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

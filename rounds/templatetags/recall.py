"""What the round page's rows need besides their templates (rounds/includes/spot_rows.html and
bet_rows.html): the difference of two amounts, the notes a bet's options make beside its kind, and
the links to the players' play records; and the round list's finding codes (`finding_codes`)."""

from decimal import Decimal

from django import template

from core.links import ArgumentUrls

from ..selectors import finding_codes_of

register = template.Library()
register.filter("finding_codes", finding_codes_of)


@register.filter
def subtract(value, other):
    """{{ computed|subtract:reported }}; None when either is missing."""
    if value is None or other is None:
        return None
    return Decimal(value) - Decimal(other)


@register.filter
def bet_notes(options) -> list[str]:
    """{{ bet.options|bet_notes }}: what a bet's options (play behind) say beside its kind."""
    options = options if isinstance(options, dict) else {}
    notes = []
    if options.get("follow_double"):
        notes.append("follows doubles")
    if options.get("follow_split"):
        notes.append("follows splits")
    if options.get("followed_double") is False:
        notes.append("did not follow the double")
    return notes


@register.simple_tag(takes_context=True)
def play_record_url(context, player_id) -> str:
    """{% play_record_url player_id %}: the player's play record, reversed once a page (core/links.py)."""
    if "play_record_urls" not in context.render_context:
        context.render_context["play_record_urls"] = ArgumentUrls("rounds:play_record")
    return context.render_context["play_record_urls"](player_id)

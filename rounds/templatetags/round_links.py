"""`{% round_href round player_id as href %}`: where a link to a round takes the signed-in user, by
rounds.access.round_href (its page, or the player's play record at it, or no link at all)."""

from django import template

from rounds.access import round_href as href_for

register = template.Library()


@register.simple_tag(takes_context=True)
def round_href(context, round_, player_id=None):
    return href_for(context["request"].user, round_, player_id)

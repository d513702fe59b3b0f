"""Who is sent what, and the sending (being written: see the branch notify-core)."""


def deliveries_for_event(sender, event, **kwargs):
    return []

"""What alerts announce to the apps above them (they never import those): each event recorded on an
alert, in the transaction that records it (`event`: the AlertEvent)."""

from django.dispatch import Signal

alert_event_recorded = Signal()

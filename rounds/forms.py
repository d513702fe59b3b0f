"""Forms of the round recall pages."""

from datetime import date, timedelta

from django import forms
from django.utils import timezone

from core.forms import IsoDateInput
from core.gaming_day import gaming_day_of


class RoundReviewForm(forms.Form):
    comment = forms.CharField(
        required=False,
        widget=forms.Textarea(attrs={"rows": 2}),
        help_text="Required when the round has findings: what you concluded. Kept with your name.",
    )


class PlayRecordPeriodForm(forms.Form):
    """The gaming days the totals cover; the last 30 by default, at most a year."""

    first = forms.DateField(label="From (gaming day)", required=False, widget=IsoDateInput())
    last = forms.DateField(label="To (gaming day)", required=False, widget=IsoDateInput())

    MAX_DAYS = 366

    def clean(self):
        data = super().clean()
        last = data.get("last") or gaming_day_of(timezone.now())
        # 30 days to `last`, or fewer from the calendar's first day (a date before it is an error).
        first = data.get("first") or max(last, date.min + timedelta(days=29)) - timedelta(days=29)
        if first > last:
            raise forms.ValidationError({"first": "The period starts after it ends."})
        if (last - first).days >= self.MAX_DAYS:
            raise forms.ValidationError({"first": f"Choose at most {self.MAX_DAYS} days."})
        data["first"], data["last"] = first, last
        return data

    def period(self):
        """(first, last): the valid period, or the default one when the form is not valid."""
        if self.is_valid():
            return self.cleaned_data["first"], self.cleaned_data["last"]
        return self.default_period()

    @staticmethod
    def default_period():
        last = gaming_day_of(timezone.now())
        return last - timedelta(days=29), last

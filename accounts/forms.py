from django import forms

from .time_zones import default_time_zone, time_zone_choices, validate_time_zone


class PreferencesForm(forms.Form):
    time_zone = forms.CharField(
        label="Time zone",
        validators=[validate_time_zone],
        error_messages={"required": "Choose a time zone."},
    )

    def __init__(self, *args, now, **kwargs):
        super().__init__(*args, **kwargs)
        field = self.fields["time_zone"]
        # A select of the names grouped by region (type the first letters to jump): the value is
        # still checked against the zoneinfo database, whatever is posted.
        field.widget = forms.Select(choices=time_zone_choices(now))
        field.help_text = (
            f"Every time on the portal is shown in it, with UTC when you point at it. Without a choice: "
            f"{default_time_zone()}, the zone the gaming day is cut in."
        )

"""The forms of the player and limit pages. They only read input; the services write."""

from django import forms

from config.forms import HISTORY_REASON_LENGTH, ReasonField, StakeField
from tables.choices import Currency, Game
from tables.models import Table

from .choices import AccountType, BetKind, PlayerStatus


class PlayerCreateForm(forms.Form):
    external_id = forms.CharField(label="Player id", max_length=64, help_text="As the game server sends it.")
    display_name = forms.CharField(max_length=100, required=False)
    account_type = forms.ChoiceField(choices=AccountType.choices, initial=AccountType.REAL)
    currency = forms.ChoiceField(choices=Currency.choices)
    status = forms.ChoiceField(choices=PlayerStatus.choices, initial=PlayerStatus.ACTIVE)


class PlayerUpdateForm(forms.Form):
    display_name = forms.CharField(max_length=100, required=False)
    account_type = forms.ChoiceField(choices=AccountType.choices)
    status = forms.ChoiceField(choices=PlayerStatus.choices)
    reason = ReasonField(max_length=HISTORY_REASON_LENGTH)


class TableLimitForm(forms.Form):
    kind = forms.ChoiceField(label="Bet kind")
    min_stake = StakeField(label="Minimum stake")
    max_stake = StakeField(label="Maximum stake")
    reason = ReasonField(max_length=HISTORY_REASON_LENGTH)

    def __init__(self, *args, kinds, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["kind"].choices = kinds


class PersonalLimitScopeForm(forms.Form):
    """Which limit to look at and change: a bet kind or all, a table or a game or every table."""

    kind = forms.ChoiceField(label="Bet kind", choices=[("", "All kinds")] + BetKind.choices, required=False)
    table = forms.ModelChoiceField(
        queryset=Table.objects.none(), required=False, empty_label="Every table", to_field_name="code"
    )
    game = forms.ChoiceField(choices=[("", "Every game")] + Game.choices, required=False)

    def __init__(self, *args, player, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["table"].queryset = Table.objects.filter(currency=player.currency).order_by("code")

    def clean(self):
        data = super().clean()
        if data.get("table") and data.get("game"):
            self.add_error("game", "A personal limit is for one table or for one game, not both.")
        return data


class PersonalLimitForm(forms.Form):
    """The new range for the scope shown; `seen_setting` is the setting the agent looked at."""

    kind = forms.CharField(required=False, widget=forms.HiddenInput)
    table = forms.CharField(required=False, widget=forms.HiddenInput)
    game = forms.CharField(required=False, widget=forms.HiddenInput)
    seen_setting = forms.IntegerField(min_value=0, widget=forms.HiddenInput)
    min_stake = StakeField(label="Minimum stake", required=False, help_text="Empty: the table's minimum.")
    max_stake = StakeField(
        label="Maximum stake",
        required=False,
        help_text="Empty: the table's maximum. A higher maximum takes effect 24 hours later.",
    )
    reason = ReasonField()

    def clean_table(self):
        code = self.cleaned_data.get("table")
        if not code:
            return None
        table = Table.objects.filter(code=code).first()
        if table is None:
            raise forms.ValidationError(f"No table {code}.")
        return table

from __future__ import annotations

from django import forms

from games import clock
from games.models import PlayerSettings
from games.services import GameSettings


class NewGameForm(forms.Form):
    edition = forms.ChoiceField(
        choices=[
            ("2022", "2022 edition (the Queen, with the Jester)"),
            ("2010", "2010 edition (the King)"),
        ],
        initial="2022",
    )
    expansion = forms.BooleanField(required=False, label="Festum Fatuorum expansion (Altar)")
    remove_six = forms.BooleanField(
        required=False, label="Remove 6 random tiles unseen (with the expansion)"
    )
    first = forms.ChoiceField(
        choices=[("random", "at random"), ("me", "me"), ("opponent", "my opponent")],
        initial="random",
        label="Who moves first",
    )
    time_control = forms.ChoiceField(
        choices=clock.choices(),
        initial="3d",
        label="Clock",
        help_text="Correspondence: days for each decision, refilled after it. Live: minutes "
        "each, plus seconds per decision. Whoever runs out of time loses.",
    )
    private = forms.BooleanField(
        required=False, label="Private: invite one person by link instead of an open seek"
    )

    def clean(self):
        data = super().clean()
        if data.get("remove_six") and not data.get("expansion"):
            self.add_error("remove_six", "Removing six tiles is part of the expansion: turn it on.")
        return data

    def game_settings(self) -> GameSettings:
        data = self.cleaned_data
        return GameSettings(
            edition=data["edition"],
            expansion=data["expansion"],
            remove_six=data["remove_six"],
            first=data["first"],
            private=data["private"],
            time_control=data["time_control"],
        )


class NotificationSettingsForm(forms.ModelForm):
    class Meta:
        model = PlayerSettings
        fields = [
            "email_your_turn",
            "email_time_running_out",
            "email_game_over",
            "email_rematch_offered",
            "email_daily_digest",
        ]


class VacationForm(forms.Form):
    days = forms.IntegerField(min_value=1, max_value=60, initial=3, label="Days of vacation")


class PlaySettingsForm(forms.ModelForm):
    class Meta:
        model = PlayerSettings
        fields = ["confirm_moves", "sound"]
        widgets = {"confirm_moves": forms.RadioSelect}

from __future__ import annotations

from django import forms

from games.models import PlayerSettings


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

from __future__ import annotations

import zoneinfo

from django import forms
from django.utils.translation import gettext_lazy as _

from games.models import PlayerSettings


class NotificationSettingsForm(forms.ModelForm):
    class Meta:
        model = PlayerSettings
        fields = [
            "email_your_turn",
            "email_conditional_played",
            "email_time_running_out",
            "email_game_over",
            "email_rematch_offered",
            "email_takeback_asked",
            "email_daily_digest",
            "email_invited",
            "email_followed_seek",
            "email_tournament_game",
            "email_tournament_over",
        ]


class VacationForm(forms.Form):
    days = forms.IntegerField(min_value=1, max_value=60, initial=3, label=_("Days of vacation"))


class PlaySettingsForm(forms.ModelForm):
    class Meta:
        model = PlayerSettings
        fields = [
            "confirm_moves",
            "sound",
            "next_game_after_move",
            "takebacks_in_rated",
            "chat",
            "hide_presence",
        ]
        widgets = {"confirm_moves": forms.RadioSelect}


ZONES = sorted(z for z in zoneinfo.available_timezones() if "/" in z or z == "UTC")


def zone_choices() -> list[tuple[str, str]]:
    return [("", _("My browser's")), *((zone, zone.replace("_", " ")) for zone in ZONES)]


HOURS = [(None, "—"), *((hour, f"{hour:02d}:00") for hour in range(24))]


class LocaleSettingsForm(forms.ModelForm):
    """The language and time zone the site speaks to the player in, and the hours in which no
    email is sent (a final timeout warning the player asked for excepted)."""

    time_zone = forms.ChoiceField(label=_("Time zone"), choices=zone_choices, required=False)
    quiet_from = forms.TypedChoiceField(
        label=_("No emails from"), choices=HOURS, coerce=int, empty_value=None, required=False
    )
    quiet_until = forms.TypedChoiceField(
        label=_("until"), choices=HOURS, coerce=int, empty_value=None, required=False
    )

    class Meta:
        model = PlayerSettings
        fields = ["language", "time_zone", "quiet_from", "quiet_until"]

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["language"].help_text = _(
            "the site's pages; empty: your browser's (emails are then in English)"
        )
        self.fields["language"].choices = [
            ("", _("My browser's")),
            *self.fields["language"].choices[1:],
        ]

    def clean(self):
        cleaned = super().clean()
        if (cleaned.get("quiet_from") is None) != (cleaned.get("quiet_until") is None):
            raise forms.ValidationError(
                _("Give both hours of the quiet time, or neither."), code="quiet_hours"
            )
        return cleaned

from __future__ import annotations

from dataclasses import replace

from django import forms
from django.utils.translation import gettext_lazy as _

from games.kinds.forms import NewGameForm


class CathedralForm(NewGameForm):
    kind = "cathedral"
    first_label = _("Who plays Light (places the Cathedral; Dark moves first)")

    lehman = forms.BooleanField(
        required=False,
        label=_("Tom Lehman's variant: Light places the Cathedral with its first building"),
    )

    series = forms.TypedChoiceField(
        choices=[
            (0, _("one game")),
            (2, _("a series of 2 games")),
            (4, _("a series of 4 games")),
            (6, _("a series of 6 games")),
        ],
        coerce=int,
        empty_value=0,
        required=False,
        initial=0,
        label=_("Games"),
        help_text=_(
            "In a series the players take turns at placing the Cathedral; each game's "
            "unplaced squares add up, and the smallest total wins."
        ),
    )

    def kind_options(self) -> dict:
        return {"lehman": self.cleaned_data["lehman"]}

    def game_settings(self):
        return replace(super().game_settings(), series=self.cleaned_data["series"])

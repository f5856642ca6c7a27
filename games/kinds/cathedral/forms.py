from __future__ import annotations

from django import forms

from games.forms import NewGameForm


class CathedralForm(NewGameForm):
    kind = "cathedral"
    first_label = "Who plays Light (places the Cathedral; Dark moves first)"

    lehman = forms.BooleanField(
        required=False,
        label="Tom Lehman's variant: Light places the Cathedral with its first building",
    )

    def kind_options(self) -> dict:
        return {"lehman": self.cleaned_data["lehman"]}

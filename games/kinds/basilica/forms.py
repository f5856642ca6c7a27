from __future__ import annotations

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games.kinds.forms import NewGameForm


class BasilicaForm(NewGameForm):
    kind = "basilica"

    edition = forms.ChoiceField(
        choices=[
            ("2022", gettext_lazy("2022 edition (the Queen, with the Jester)")),
            ("2010", gettext_lazy("2010 edition (the King)")),
        ],
        initial="2022",
        label=gettext_lazy("Edition"),
    )
    expansion = forms.BooleanField(
        required=False, label=gettext_lazy("Festum Fatuorum expansion (Altar)")
    )
    remove_six = forms.BooleanField(
        required=False, label=gettext_lazy("Remove 6 random tiles unseen (with the expansion)")
    )

    def clean(self):
        data = super().clean()
        if data.get("remove_six") and not data.get("expansion"):
            self.add_error(
                "remove_six", _("Removing six tiles is part of the expansion: turn it on.")
            )
        return data

    def kind_options(self) -> dict:
        data = self.cleaned_data
        return {key: data[key] for key in ("edition", "expansion", "remove_six")}

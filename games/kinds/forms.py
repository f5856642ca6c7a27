"""The new-game form of the lobby, as every game kind extends it with its own options
(``games.kinds.<kind>.forms``)."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from games import clock
from games.terms import RATING_RANGES, GameSettings


class NewGameForm(forms.Form):
    """What a creator chooses in the lobby: the platform's part (who takes the first role, the
    clock, an open seek or a private invitation). Each game kind subclasses it with its options
    (``games.kinds.<kind>.forms``) and is shown with its key as the prefix."""

    kind = ""  # set by each subclass
    first_label = _("Who moves first")

    first = forms.ChoiceField(
        choices=[
            ("random", _("at random")),
            ("me", pgettext_lazy("who moves first", "me")),
            ("opponent", _("my opponent")),
        ],
        initial="random",
    )
    time_control = forms.ChoiceField(
        choices=clock.choices,  # called each time the form is drawn: in the reader's language
        initial="3d",
        label=pgettext_lazy("time control", "Clock"),
        help_text=_(
            "Correspondence: days for each decision, refilled after it. Live: minutes each, "
            "plus seconds per decision. Whoever runs out of time loses."
        ),
    )
    rated = forms.BooleanField(
        required=False,
        initial=True,
        label=_("Rated"),
        help_text=_(
            "The result moves both players' ratings. Untimed games and games against the "
            "computer are always casual, and so are two players' games together after their "
            "third rated one in a day."
        ),
    )
    rating_range = forms.TypedChoiceField(
        choices=[("0", _("any strength")), *((str(r), f"±{r}") for r in RATING_RANGES)],
        coerce=int,
        empty_value=0,
        required=False,
        initial="0",
        label=_("Opponents rated"),
        help_text=_(
            "For an open seek with a clock: only players within this range of your rating at "
            "this game and speed may accept."
        ),
    )
    hints = forms.BooleanField(
        required=False,
        label=_("Hints"),
        help_text=_(
            "In a casual game only: either player may ask the computer for a move. Whoever "
            "accepts sees it before they do."
        ),
    )
    private = forms.BooleanField(
        required=False, label=_("Private: invite one person by link instead of an open seek")
    )

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("prefix", self.kind)
        super().__init__(*args, **kwargs)
        self.fields["first"].label = self.first_label
        # The kind's own options first, then the platform's.
        platform = ("first", "time_control", "rated", "rating_range", "hints", "private")
        self.order_fields([*(f for f in self.fields if f not in platform), *platform])
        for field in self.fields.values():
            # Django's own words repeat the value sent, which a forged form may fill with
            # anything (a NUL, a page of text): the choices offered are what a player needs.
            field.error_messages["invalid_choice"] = _(
                "That is not one of the choices offered: pick one of the list."
            )

    def kind_options(self) -> dict:
        """The kind's own choices, as ``games.kinds.<kind>.KIND.new_options`` reads them."""
        return {}

    def game_settings(self) -> GameSettings:
        data = self.cleaned_data
        return GameSettings(
            kind=self.kind,
            options=self.kind_options(),
            first=data["first"],
            private=data["private"],
            time_control=data["time_control"],
            rated=data["rated"],
            rating_range=data["rating_range"] or 0,
            hints=data["hints"],
        )

    def clean(self):
        data = super().clean()
        if data.get("hints") and data.get("rated"):
            raise forms.ValidationError(
                _("A rated game cannot allow hints: untick Rated, or Hints."), code="rated_hints"
            )
        return data

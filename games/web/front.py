"""The front door: the home page (games being played, the play-now grid, how to play) and the
one-click games it offers, which pair with an open seek of the same terms or open one."""

from __future__ import annotations

from dataclasses import dataclass, field

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_GET, require_POST

from games import kinds
from games.models import Computer, Game
from games.play import computer, seeks
from games.terms import GameSettings, UnplayableSettings
from games.web.ratelimit import limited
from games.web.thumbnails import boards, picture

HOME_NOW = 9  # small live boards on the home page; the watch list has the rest


@dataclass(frozen=True)
class Preset:
    """A button of the play-now grid: a game of ``kind`` on the standard options, rated, with
    this clock; or, with ``level``, an untimed game against the computer."""

    kind: str
    time_control: str
    label: str
    options: dict = field(default_factory=dict)
    level: str = ""

    def terms(self) -> GameSettings:
        if self.level:
            return GameSettings(
                kind=self.kind, options=self.options, time_control=self.time_control, private=True
            )
        return GameSettings(
            kind=self.kind, options=self.options, time_control=self.time_control, rated=True
        )


BASILICA = {"edition": "2022", "expansion": False, "remove_six": False}
CATHEDRAL = {"lehman": False}
PRESETS = {
    "basilica-1d": Preset("basilica", "1d", gettext_lazy("1 day a move"), BASILICA),
    "basilica-3d": Preset("basilica", "3d", gettext_lazy("3 days a move"), BASILICA),
    "basilica-10-5": Preset("basilica", "10+5", gettext_lazy("10+5 live"), BASILICA),
    "basilica-computer": Preset(
        "basilica", "none", gettext_lazy("against the computer"), BASILICA, Computer.Level.GREEDY
    ),
    "cathedral-3d": Preset("cathedral", "3d", gettext_lazy("3 days a move"), CATHEDRAL),
    "cathedral-5-3": Preset("cathedral", "5+3", gettext_lazy("5+3 live"), CATHEDRAL),
    "cathedral-computer": Preset(
        "cathedral", "none", gettext_lazy("against the computer"), CATHEDRAL, Computer.Level.GREEDY
    ),
}


def grid() -> list[dict]:
    """The play-now grid: each game with its buttons, in the order the lobby offers them."""
    return [
        {
            "kind": kind,
            "presets": [
                {"key": key, "preset": preset}
                for key, preset in PRESETS.items()
                if preset.kind == kind.key
            ],
        }
        for kind in kinds.all_kinds()
    ]


def first_steps() -> list[dict]:
    """Each game's how to play: its steps, each with its board drawn."""
    out = []
    for kind in kinds.all_kinds():
        steps = [
            {
                "text": step["text"],
                "picture": picture(
                    kind,
                    step["seen"],
                    _("%(game)s, step %(number)d") % {"game": kind.title, "number": number},
                ),
            }
            for number, step in enumerate(kind.first_steps(), start=1)
        ]
        out.append({"kind": kind, "steps": steps})
    return out


@require_GET
def home(request: HttpRequest) -> HttpResponse:
    playing = Game.objects.being_played().not_blocked(request.user)
    playing = playing.with_players()[:HOME_NOW]
    context = {"now": boards(playing), "grid": grid(), "how_to_play": first_steps()}
    return render(request, "home.html", context)


@require_POST
@login_required
@limited("create_game")
def play_now(request: HttpRequest, preset: str) -> HttpResponse:
    """One click: the game of a play-now button, joined or opened; or against the computer."""
    chosen = PRESETS.get(preset)
    if chosen is None:
        messages.error(request, _("There is no such game to play now: choose one of the buttons."))
        return redirect("games:lobby")
    try:
        if chosen.level:
            game = computer.play_the_computer(request.user, chosen.terms(), chosen.level)
        else:
            game, how = seeks.pair_or_open(request.user, chosen.terms())
            if how == seeks.WAITING:
                messages.info(
                    request, _("Your seek of this game is still open: an opponent will join it.")
                )
    except (UnplayableSettings, computer.TooManyGames) as refusal:
        messages.error(request, str(refusal))
        return redirect("games:lobby")
    return redirect(game)

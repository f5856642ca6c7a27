"""Cathedral on the site: its options form, its game page and presenter, its rules page."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games.engine import cathedral as engine
from games.kinds import GameKind, chosen
from games.kinds.cathedral.forms import CathedralForm
from games.kinds.cathedral.presenters import (
    final_score,
    hint_marks,
    named,
    page_context,
    rules_context,
)
from games.kinds.cathedral.thumbnail import first_steps, thumbnail


def new_options(choices: dict, first: int) -> engine.Options:
    """The engine's options from the lobby's choices; UnplayableSettings for choices the form
    would not give."""
    choices = chosen(engine.TITLE, choices, first, {"lehman": bool})
    return engine.Options(light=first, lehman=choices.get("lehman", False))


def describe(options: dict) -> str:
    if options.get("lehman"):
        return _("Cathedral, Tom Lehman's variant")
    return engine.TITLE  # the game's name, the same in every language


def first_role(options: dict, creator: str) -> str:
    if options.get("light", 0) == 0:
        return _("%(name)s plays Light") % {"name": creator}
    return _("the opponent plays Light")


def series_points(game) -> tuple[int, int]:
    """Rule 8: each player scores the squares of their unplaced buildings. A game lost on time
    or by resignation scores as if the loser had placed nothing and the winner everything."""
    if game.termination in (engine.ALL_PLACED, engine.NO_MORE_PLACEMENTS):
        return tuple(game.scores)
    points = [0, 0]
    points[game.ended_by] = engine.SQUARES_PER_SIDE
    return tuple(points)


def rules(request: HttpRequest, variant: str | None = None) -> HttpResponse:
    return render(request, "games/cathedral/rules.html", rules_context())


def describe_entry(entry: dict, seen: dict, names: list[str]) -> str:
    return named(entry, seen, names)


KIND = GameKind(
    key="cathedral",
    engine=engine,
    template="games/cathedral/game.html",
    page_context=page_context,
    hint_marks=hint_marks,
    options_form=CathedralForm,
    new_options=new_options,
    describe=describe,
    first_role=first_role,
    rules=rules,
    series_lengths=(2, 4, 6),
    series_points=series_points,
    pushed=("status", "hands", "board", "log"),
    describe_entry=describe_entry,
    thumbnail=thumbnail,
    first_steps=first_steps,
    replay_partials=("board", "hands"),
    stylesheets=("css/cathedral.css",),
    score_label=gettext_lazy("unplaced squares"),
    final_score=final_score,
    blurb=gettext_lazy(
        "Wall off the city: place all your buildings, and keep your opponent from placing theirs."
    ),
)

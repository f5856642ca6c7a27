"""The registry of the games the site hosts.

Each game kind is a package beside this one (``games.kinds.basilica``) that hands the platform a
single ``KIND``: its pure engine (``games.engine.<kind>``), its options form, its game page (a
template with the partials ``live``, ``play``, ``status``, ``board`` and ``log``), the presenter
that fills that page from the engine's per-viewer ``view``, and its rules page. The lobby, the
service that applies moves, pushes, clocks, notifications and admin review know a game only
through this object; adding a game adds a package and a line to ``REGISTERED``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from importlib import import_module
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from games.engine import GameEngine, engine_for
from games.models import player_name
from games.terms import UnplayableSettings

# The order the lobby offers them in.
REGISTERED = ("basilica", "cathedral")


def final_points(scores: list[int], names: list[str]) -> str:
    """The score of a game its rules ended, where more points are better: "Final score: ann
    40 points, bob 30 points." """
    each = [
        ngettext("%(name)s %(count)d point", "%(name)s %(count)d points", score)
        % {"name": name, "count": score}
        for name, score in zip(names, scores, strict=True)
    ]
    return _("Final score: %(first)s, %(second)s.") % {"first": each[0], "second": each[1]}


@dataclass(frozen=True)
class GameKind:
    key: str
    engine: GameEngine
    template: str  # the game page; its partials are what HTMX requests and pushes render
    # (game, state, the state its changes are marked from, base context, pick) -> the kind's part
    page_context: Callable[..., dict]
    options_form: type  # a Django form of the kind's options: see games.kinds.forms.NewGameForm
    # (the form's choices, seat of the first role) -> the engine's options; UnplayableSettings
    # for choices the form would not give
    new_options: Callable[[dict, int], Any]
    describe: Callable[[dict], str]  # stored options -> "Basilica, 2022 edition, with …"
    first_role: Callable[[dict, str], str]  # (stored options, seat 0's name) -> "ann moves first"
    rules: Callable[..., Any]  # the rules page view: (request, variant=None) -> response
    # The admin's review of the full state: the kind's secrets, as its template shows them.
    review: Callable[[Any], dict] | None = None
    review_template: str = ""
    # One entry of the view's log in words: (entry, the view, the players' names) -> text.
    describe_entry: Callable[[dict, dict, list], str] = lambda entry, seen, names: entry["text"]
    # The replay shows these partials of the game page, with the kind's stylesheets.
    replay_partials: tuple[str, ...] = ("board",)
    stylesheets: tuple[str, ...] = ()
    # What a hint marks on the page for an action: {"cells": [data-cell keys], "tiles": [data-tile
    # keys]} of the board and of the market or hands.
    hint_marks: Callable[[Any, Any], dict] = lambda state, action: {"cells": [], "tiles": []}
    score_label: str = gettext_lazy("points")  # what ``returns()`` counts, in the game's words
    # The score of a game its rules ended, in the game's words: (scores by seat, names) -> text.
    final_score: Callable[[list, list], str] = final_points
    blurb: str = ""  # one line for the lobby and the home page
    # The small board of the home page and the lists of games: (a spectator's view) ->
    # {"width", "height", "paths": [{"fill", "d"}], "builders": [{"x", "y", "player"}]}, as
    # templates/games/_thumbnail.html draws it.
    thumbnail: Callable[[dict], dict] | None = None
    # The 60-second how to play of the home page: [{"text", "seen"}], each step's words and a
    # board in the shape of a view, which ``thumbnail`` draws.
    first_steps: Callable[[], list[dict]] = list
    # A series of games (roles alternating) may be played of these lengths; and a finished
    # game's points in it, by seat (the smallest total wins).
    series_lengths: tuple[int, ...] = ()
    series_points: Callable[[Any], tuple[int, int]] | None = None
    # The partials a push swaps out of band, and with "live" and "play" what HTMX may ask for.
    pushed: tuple[str, ...] = ("status", "board", "log")

    @property
    def partials(self) -> frozenset[str]:
        return frozenset({"live", "play", *self.pushed})

    @property
    def title(self) -> str:
        return self.engine.TITLE


def get(key: str) -> GameKind:
    """The kind called ``key``; KeyError for a kind the site does not host."""
    if key not in REGISTERED:
        raise KeyError(key)
    return import_module(f"games.kinds.{key}").KIND


def chosen(title: str, choices: object, first: object, expected: dict[str, type]) -> dict:
    """A kind's choices as its ``new_options`` reads them: only the options it has, each of its
    type, and the first role given to seat 0 or 1; UnplayableSettings says what is wrong."""
    if not isinstance(choices, dict):
        raise UnplayableSettings(_("The options of a game are chosen in the lobby's form."))
    for name, value in choices.items():
        if name not in expected:
            raise UnplayableSettings(
                _("%(game)s has no option called %(option)s.")
                % {"game": title, "option": str(name)[:40]}
            )
        if type(value) is not expected[name]:
            words = (
                _("The option %(option)s of %(game)s is a yes or a no.")
                if expected[name] is bool
                else _("The option %(option)s of %(game)s is one of those the lobby offers.")
            )
            raise UnplayableSettings(words % {"game": title, "option": name})
    if type(first) is not int or first not in (0, 1):
        raise UnplayableSettings(_("The first role goes to one of the two players."))
    return choices


def of(game) -> GameKind:
    return get(game.kind)


def summary(game) -> str:
    """The game and its options in a few words: "Basilica, 2022 edition, with Festum…"."""
    return of(game).describe(game.options)


def first_role(game) -> str:
    """Who takes the game's first role, in its words: "ann moves first"."""
    return of(game).first_role(game.options, player_name(game.seat0))


def all_kinds() -> list[GameKind]:
    return [get(key) for key in REGISTERED]


def choices() -> list[tuple[str, str]]:
    return [(key, engine_for(key).TITLE) for key in REGISTERED]

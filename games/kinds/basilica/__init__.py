"""Basilica on the site: its options form, its game page and presenter, its rules page."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games.engine import basilica as engine
from games.engine.basilica.components import (
    ASSUMED,
    BASE_ORDER_COUNTS,
    EDITIONS,
    ORDER_NAMES,
    RANK_NAMES,
)
from games.kinds import GameKind, chosen
from games.kinds.basilica import diagrams, help, story
from games.kinds.basilica.forms import BasilicaForm
from games.kinds.basilica.presenters import hint_marks, page_context
from games.kinds.basilica.thumbnail import first_steps, thumbnail
from games.terms import UnplayableSettings
from games.words import say

OPTIONS = {"edition": str, "expansion": bool, "remove_six": bool}


def new_options(choices: dict, first: int) -> engine.Options:
    """The engine's options from the lobby's choices; UnplayableSettings for choices the form
    would not give."""
    choices = chosen(engine.TITLE, choices, first, OPTIONS)
    edition = choices.get("edition", "2022")
    if edition not in EDITIONS:
        first, second = EDITIONS
        raise UnplayableSettings(
            _("Basilica comes in the %(first)s and %(second)s editions: choose one of them.")
            % {"first": first, "second": second}
        )
    expansion = choices.get("expansion", False)
    if choices.get("remove_six") and not expansion:
        raise UnplayableSettings(_("Removing six tiles is part of the expansion: turn it on."))
    return engine.Options(
        edition=edition,
        expansion=expansion,
        remove_six=choices.get("remove_six", False),
        first_player=first,
    )


def describe(options: dict) -> str:
    edition = {"edition": options.get("edition", "2022")}
    if not options.get("expansion"):
        return _("Basilica, %(edition)s edition") % edition
    if options.get("remove_six"):
        return _("Basilica, %(edition)s edition, with Festum Fatuorum (6 tiles removed)") % edition
    return _("Basilica, %(edition)s edition, with Festum Fatuorum") % edition


def first_role(options: dict, creator: str) -> str:
    if options.get("first_player", 0) == 0:
        return _("%(creator)s moves first") % {"creator": creator}
    return _("the opponent moves first")


def rules(request: HttpRequest, edition: str | None = None) -> HttpResponse:
    edition = edition or "2022"
    if edition not in EDITIONS:
        raise Http404("no such edition")
    options = engine.Options(edition=edition)
    context = {
        "edition": edition,
        "options": options,
        "ranks": [say(RANK_NAMES[r]) for r in options.ranks],
        "orders": [(say(ORDER_NAMES[o]), n) for o, n in BASE_ORDER_COUNTS.items()],
        "assumed": [say(figure) for figure in ASSUMED],
        "editions": list(EDITIONS),
        **diagrams.rules_context(edition),
    }
    return render(request, "games/basilica/rules.html", context)


def review(state: engine.State) -> dict:
    """What a referee sees and the players do not: the stack in order, the piles, the picks."""
    full = state.to_json()
    tiles = [{**t.to_json(), "order": help.order_name(t.order)} for t in state.tiles]
    return {
        "stack": [tiles[t] for t in reversed(full["stack"])],
        "discard": [tiles[t] for t in full["discard"]],
        "removed": [tiles[t] for t in full["removed"]],
        "jester_picks": full["jester_picks"],
        "pending": full["pending"],
    }


def describe_entry(entry: dict, seen: dict, names: list[str]) -> str:
    text = story.entry_text(entry, names)
    return _("%(player)s: %(text)s") % {"player": names[entry["player"]], "text": text}


KIND = GameKind(
    key="basilica",
    engine=engine,
    template="games/basilica/game.html",
    page_context=page_context,
    hint_marks=hint_marks,
    options_form=BasilicaForm,
    new_options=new_options,
    describe=describe,
    first_role=first_role,
    rules=rules,
    review=review,
    review_template="games/basilica/_review.html",
    pushed=("status", "market", "board", "log"),
    describe_entry=describe_entry,
    thumbnail=thumbnail,
    first_steps=first_steps,
    replay_partials=("board", "market"),
    stylesheets=("css/pieces.css",),
    blurb=gettext_lazy(
        "Build a cathedral, vault by vault, and win the colours' areas with your builders."
    ),
)

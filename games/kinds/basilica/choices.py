"""Turning the engine's legal actions into clicks.

Each legal action is a path of steps (pick a tile, then a cell, then a rank...). The page holds
the steps picked so far in its ``pick`` query parameter; what it offers next are exactly the next
steps of the legal actions that start with them. A step that completes an action becomes a form
posting that action; any other step is a link that picks it.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from urllib.parse import urlencode

from django.utils.translation import gettext as _

from games.engine.basilica import Action, cell_key, cell_label, parse_key
from games.kinds.basilica.names import names, per_language

SEPARATOR = "/"


def steps(action: Action) -> tuple[str, ...]:
    """The clicks that make up ``action``, in order."""
    path: list[str] = []
    if action.tile is not None:
        path.append(f"tile:{action.tile}")
    if action.kind in ("builder", "decline", "skip_altar"):
        path.append(action.kind)
    if action.color is not None:
        return (*path, f"color:{action.color}")
    if action.col is not None:
        path.append(f"at:{cell_key(action.col, action.row)}")
    if action.to_col is not None:
        path.append(f"to:{cell_key(action.to_col, action.to_row)}")
    if action.rank is not None:
        path.append(f"rank:{action.rank}")
    return tuple(path)


def parse_pick(text: str | None) -> tuple[str, ...]:
    if not text:
        return ()
    return tuple(part for part in text.split(SEPARATOR) if part)[:4]


@dataclass
class Choice:
    token: str
    label: str
    action: Action | None  # set when this click completes an action
    pick: str  # the pick parameter after this click

    @property
    def action_json(self) -> str:
        return json.dumps(self.action.to_json()) if self.action else ""

    @property
    def query(self) -> str:
        return urlencode({"pick": self.pick})


@dataclass(frozen=True)
class Choosable:
    """A thing on the page as ``{% choosable %}`` (``games.templatetags.choosable``) draws it:
    a form that sends ``choice.action``, a link that picks ``choice``, or, without a choice, a
    plain element."""

    choice: Choice | None
    classes: str
    data: tuple[str, object]  # its data- attribute: ("tile", 12), ("cell", "3,1"), ("token", ...)
    label: str = ""  # its aria-label, where its text does not say it
    title: str = ""
    role: str = ""  # of the form or the link
    plain_role: str = ""  # of the plain element
    form_class: str = "inline"


@dataclass
class Choices:
    """What the viewer may click now, sorted by where it shows on the page."""

    picked: tuple[str, ...] = ()
    tiles: dict[int, Choice] = field(default_factory=dict)
    cells: dict[str, Choice] = field(default_factory=dict)
    buttons: list[Choice] = field(default_factory=list)
    confirming: Action | None = None  # a whole action picked, waiting for "Confirm"

    @property
    def any(self) -> bool:
        return bool(self.tiles or self.cells or self.buttons)

    @property
    def picked_tile(self) -> int | None:
        for token in self.picked:
            if token.startswith("tile:"):
                return int(token[5:])
        return None

    @property
    def picked_cells(self) -> list[str]:
        return [t.split(":", 1)[1] for t in self.picked if t.startswith(("at:", "to:"))]


@per_language
def _words() -> dict:
    return {
        "names": names(),
        "color": _("%(hue)s (%(letter)s)"),
        "confirm": _("Confirm this move"),
        "buttons": {
            "builder": _("Place a builder on the vault just placed"),
            "decline": _("Decline (keep the coin)"),
            "skip_altar": _("No second altar"),
        },
    }


def label(token: str) -> str:
    kind, _colon, value = token.partition(":")
    if kind in ("at", "to"):
        return cell_label(*parse_key(value))
    words = _words()
    if kind == "rank":
        return words["names"].ranks.get(value, value)
    if kind == "color":
        return words["color"] % {"hue": words["names"].colors.get(value, value), "letter": value}
    return words["buttons"].get(token, token)


def offer(legal: list[Action], picked: tuple[str, ...], confirm: bool = False) -> Choices:
    """The next clicks after ``picked``; an unknown pick falls back to a fresh start.

    With ``confirm``, the last click of an action only picks it too, and the page then offers
    one button that sends it: a player looks at the move before it is made.
    """
    paths = [(steps(a), a) for a in legal]
    depth = len(picked)
    if confirm and picked:
        done = next((a for p, a in paths if p == picked), None)
        if done is not None:
            send = Choice("confirm", _words()["confirm"], done, SEPARATOR.join(picked))
            return Choices(picked=picked, buttons=[send], confirming=done)
    matching = [(p, a) for p, a in paths if p[:depth] == picked and len(p) > depth]
    if picked and not matching:
        return offer(legal, ())
    nexts: dict[str, list[tuple[tuple[str, ...], Action]]] = {}
    for path, action in matching:
        nexts.setdefault(path[depth], []).append((path, action))
    choices = Choices(picked=picked)
    for token, options in nexts.items():
        complete = [a for p, a in options if len(p) == depth + 1]
        action = complete[0] if len(options) == 1 and complete and not confirm else None
        choice = Choice(token, label(token), action, SEPARATOR.join((*picked, token)))
        kind, _colon, value = token.partition(":")
        if kind == "tile":
            choices.tiles[int(value)] = choice
        elif kind in ("at", "to"):
            choices.cells[value] = choice
        else:
            choices.buttons.append(choice)
    return choices

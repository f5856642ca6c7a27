"""Cathedral's analysis copy of the board: a player waiting for the opponent builds a line of
moves ("if they place this, I reply that…") click by click, as on the game page, and keeps it
as prepared replies (``games.play.conditional``, which checks it again when it is kept).

The line lives in the page's address, one token a move and ``~`` between them:
``?line=tower.D4.1~inn.F6.0``, each token the building, the cell of its centre square and its
orientation, as the game page's clicks name them (``?pick=tower.D4.1``). Each move is made by
whoever the engine says decides then; nothing is stored until the player keeps the line.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from urllib.parse import urlencode

from django.utils.text import capfirst
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.kinds.cathedral.presenters import (
    _capture,
    _cell_of,
    _changed_cells,
    _parse_pick,
    _placements,
    _placing_side,
    _span,
    _turn_choices,
    city_rows,
    hands,
    label,
)
from games.kinds.cathedral.words import Words, words

SEPARATOR = "~"
LONGEST_TOKEN = 24  # "infirmary.J10.3" and room to spare: a longer one is no move


@dataclass(frozen=True)
class Step:
    """One move of a line: who makes it, the engine action's JSON, its token in the address,
    and the log entry the engine writes for it (its squares, claims and captures)."""

    seat: int
    action: dict
    token: str
    entry: dict


@dataclass(frozen=True)
class Line:
    steps: list[Step]
    reached: object  # the state after the line's moves
    before_last: object  # the state before its last move: the page marks what that changed
    whole: bool  # every move asked for was read (a stale or forged one ends the line there)

    @property
    def text(self) -> str:
        return SEPARATOR.join(step.token for step in self.steps)

    @property
    def moves(self) -> list[dict]:
        return [step.action for step in self.steps]


def token(action: dict) -> str:
    """A placement's token in the address: "tower.D4.1"."""
    return f"{action['building']}.{label(action['col'], action['row'])}.{action['turn']}"


def _action_of(part: str) -> dict | None:
    """The placement a token names, or None for one that names none (the engine still judges
    whether it is legal)."""
    pieces = part.split(".")
    if len(part) > LONGEST_TOKEN or len(pieces) != 3 or not pieces[2].isdecimal():
        return None
    cell = _cell_of(pieces[1])
    if cell is None:
        return None
    col, row = cell
    return {"kind": "place", "building": pieces[0], "col": col, "row": row, "turn": int(pieces[2])}


def play_line(rules, state, actions: list, longest: int) -> Line:
    """The ``actions`` (JSON, or None for an unreadable one) played from ``state``, each by
    whoever decides then, as far as each is a legal placement and at most ``longest`` of
    them."""
    steps: list[Step] = []
    before, whole = state, len(actions) <= longest
    for data in actions[:longest]:
        seat = state.to_decide
        if data is None or seat is None:
            whole = False
            break
        try:
            following = rules.apply_action(state, data)
        except ValueError:  # the engine's MalformedAction and IllegalAction
            whole = False
            break
        entry = next(
            e for e in reversed(rules.view(following, None)["log"]) if e["kind"] == "place"
        )
        steps.append(Step(seat, entry["action"], token(entry["action"]), entry))
        before, state = state, following
    return Line(steps, state, before, whole)


def read_line(rules, state, text: str, longest: int) -> Line:
    """The line an address holds (``tower.D4.1~inn.F6.0``), from ``state``."""
    parts = [part for part in (text or "").split(SEPARATOR) if part]
    return play_line(rules, state, [_action_of(part) for part in parts], longest)


# -- words -------------------------------------------------------------------------------------


def move_words(entry: dict, light: int, said: Words) -> str:
    """A placement of a line, as the object of its sentence: "the Tower on D4-F6, claiming 7
    squares"."""
    values = {"piece": said.thing[entry["action"]["building"]], "span": _span(entry["cells"])}
    count = len(entry["claimed"])
    if not count and not entry["captures"]:
        return _("the %(piece)s on %(span)s") % values
    side = "light" if entry["player"] == light else "dark"
    captured = [_capture(c, seen_side=side, said=said) for c in entry["captures"]]
    if captured:
        return ngettext(
            "the %(piece)s on %(span)s, claiming %(count)d square and capturing %(taken)s",
            "the %(piece)s on %(span)s, claiming %(count)d squares and capturing %(taken)s",
            count,
        ) % {**values, "count": count, "taken": said.listed(captured)}
    return ngettext(
        "the %(piece)s on %(span)s, claiming %(count)d square",
        "the %(piece)s on %(span)s, claiming %(count)d squares",
        count,
    ) % {**values, "count": count}


def step_words(step: Step, seat: int, opponent: str, light: int, said: Words) -> str:
    """ "if ann places the Tower on D4-F6" for the opponent's move, "you reply by placing the
    Inn on F6" for the player's."""
    move = move_words(step.entry, light, said)
    if step.seat == seat:
        return _("you reply by placing %(move)s") % {"move": move}
    return _("if %(name)s places %(move)s") % {"name": opponent, "move": move}


def line_sentence(rules, state, seat: int, names: list[str], moves: list) -> str:
    """A kept line in one sentence for its player: "If ann places the Tower on D4-F6, you reply
    by placing the Inn on F6; then if ann places …"."""
    line = play_line(rules, state, moves, len(moves))
    said, light, opponent = words(), state.options.light, names[1 - seat]
    sentence = ""
    for index, step in enumerate(line.steps):
        text = step_words(step, seat, opponent, light, said)
        if not index:
            sentence = text
        elif step.seat == seat and line.steps[index - 1].seat != seat:
            # Translators: a prepared line's sentence: the opponent's move, then the player's
            # reply ("if ann places …, you reply by placing …").
            sentence = _("%(line)s, %(reply)s") % {"line": sentence, "reply": text}
        else:
            sentence = _("%(line)s; then %(step)s") % {"line": sentence, "step": text}
    return capfirst(sentence)


# -- the page ----------------------------------------------------------------------------------


def analysis_context(game, state, seat: int, names: list[str], asked: dict, longest: int) -> dict:
    """The analysis board of ``seat``'s player in ``game``, at the position the line in the
    address (``asked``: ``line`` and ``pick``) reaches from ``state``, the game as it is."""
    rules = game.engine
    line = read_line(rules, state, asked.get("line", ""), longest)
    reached = line.reached
    full = len(line.steps) >= longest
    deciding = None if full else reached.to_decide
    seen = rules.view(reached, seat)
    legal = _placements(rules.legal_actions(reached)) if deciding is not None else {}
    said = words()
    picked = _parse_pick(asked.get("pick"), legal, said)
    marked = _changed_cells(rules.view(line.before_last, seat), seen) if line.steps else {}
    opponent, light = names[1 - seat], state.options.light
    steps = [
        {"text": capfirst(step_words(step, seat, opponent, light, said)), "mine": step.seat == seat}
        for step in line.steps
    ]
    return {
        "view": seen,
        "rows": city_rows(seen, legal, picked, marked, said),
        # The hand of whoever decides first: on a phone, the strip to choose from is on top.
        "hands": sorted(
            hands(seen, names, legal, picked, seat, said, chooser=deciding),
            key=lambda hand: hand["seat"] != deciding,
        ),
        "picked": picked,
        "placing": _placing_side(seen, picked, deciding),
        "turn_choices": _turn_choices(legal, picked),
        "steps": steps,
        "whole": line.whole,
        "full": full,
        "deciding": deciding,
        "replying": deciding == seat,
        "opponent": opponent,
        "prompt": _prompt(seen, deciding, seat, opponent, picked, full),
        "here": _query(game.seq, line.text),
        "adding": _query(game.seq, _joined(line.text, token(picked["action"])))
        if "action" in picked
        else "",
        "taking_back": _query(game.seq, SEPARATOR.join(s.token for s in line.steps[:-1])),
        "line_text": line.text,
        "moves": json.dumps(line.moves, separators=(",", ":")),
        "keepable": bool(line.steps) and line.steps[-1].seat == seat,
    }


def _joined(text: str, more: str) -> str:
    return f"{text}{SEPARATOR}{more}" if text else more


def _query(seq: int, text: str) -> str:
    """The address's query of a line begun at the game's ``seq``."""
    return urlencode({"seq": seq, "line": text} if text else {"seq": seq})


def _prompt(seen: dict, deciding, seat: int, opponent: str, picked: dict, full: bool) -> str:
    if full:
        return _("This line is as long as a line may be: keep it, or take back its last move.")
    if deciding is None:
        return _("The game would be over here: keep the line, or take back its last move.")
    if "cell" in picked:
        return _("%(piece)s on %(cell)s: turn it, or add this move to the line.") % {
            "piece": picked["name"],
            "cell": picked["label"],
        }
    if picked:
        return _("%(piece)s: choose a highlighted cell for its centre square.") % {
            "piece": picked["name"]
        }
    if deciding == seat:
        if seen["cathedral_due"]:
            return _("…you reply: place the Cathedral first.")
        return _("…you reply: choose one of your buildings.")
    if seen["cathedral_due"]:
        return _("If %(name)s plays…: they place the Cathedral first.") % {"name": opponent}
    return _("If %(name)s plays…: choose one of their buildings.") % {"name": opponent}

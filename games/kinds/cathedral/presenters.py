"""Cathedral's game page: the city, the hands, the prompt and the log, from the engine's view.

A move is built by clicks the server understands without JavaScript (a tap on a phone): the
building (``?pick=tower``), then one of the cells where its centre square may go
(``tower.D4``), then an orientation among those legal at that cell (``tower.D4.1``), and
"Place it here" posts the action. ``static/js/cathedral.js`` adds the ghost that follows the
pointer, rotation by R, the wheel or a button, and placement by a click.
"""

from __future__ import annotations

import json
from functools import lru_cache

from django.utils.translation import get_language, ngettext
from django.utils.translation import gettext as _

from games.engine import cathedral as engine
from games.engine.cathedral.buildings import BUILDINGS_OF, COLUMNS, SIZE, cells_of
from games.engine.cathedral.view import CATHEDRAL_OWNER, DASH
from games.kinds.cathedral.outline import outline
from games.kinds.cathedral.words import Words, words
from games.models import Game
from games.settled import KeptFor, Settled
from games.words import say


def label(col: int, row: int) -> str:
    return f"{COLUMNS[col]}{row + 1}"


def role_of(seat: int, seen: dict) -> str:
    return "light" if seat == seen["light"] else "dark"


def footprint(
    building: str, side: str, turn: int, version: str = engine.VERSION
) -> list[list[int]]:
    """The squares of ``building`` at ``turn`` for ``side``, as [dcol, drow] from its pivot, in
    the shapes of rules ``version`` (a game's view names its own: ``rules_version``)."""
    return BUILDINGS_OF[version][building]["sides"][side][turn]


def named(entry: dict, seen: dict, names: list[str], said: Words | None = None) -> str:
    """A log entry in the viewer's language, the player's name beside their colour: "ann
    (Light) placed the Tower on D4-F6, claimed 7 squares"; a pass as the engine says it."""
    said = said or words()
    if entry["kind"] != "place":
        return said.remembered((entry["text"],), lambda: say(entry["text"]))
    player = entry["player"]
    side = role_of(player, seen)
    who = said.player_as[side] % {"name": names[player]}
    return said.remembered((entry["text"], who), lambda: _placed(entry, who, side, said))


def _placed(entry: dict, who: str, side: str, said: Words) -> str:
    values = {
        "player": who,
        "piece": said.thing[entry["action"]["building"]],
        "span": _span(entry["cells"]),
    }
    count = len(entry["claimed"])
    if not count and not entry["captures"]:
        return said.placed % values
    captured = [_capture(c, seen_side=side, said=said) for c in entry["captures"]]
    if captured:
        values["taken"] = said.listed(captured)
    return said.claimed(count, bool(captured)) % {**values, "count": count}


def _capture(capture: dict, seen_side: str, said: Words) -> str:
    if capture["owner"] == CATHEDRAL_OWNER:
        return said.cathedral_out
    # What a player captures is the opponent's.
    other = "dark" if seen_side == "light" else "light"
    return said.captured[(other, capture["building"])]


def _span(cells: list[str]) -> str:
    """The corners of the squares' bounding box joined by an en dash ("D4-F6"), or the one
    square's label."""
    cols = [cell[0] for cell in cells]
    rows = [int(cell[1:]) for cell in cells]
    first, last = f"{min(cols)}{min(rows)}", f"{max(cols)}{max(rows)}"
    return first if first == last else f"{first}{DASH}{last}"


def page_context(game: Game, state, before, base: dict, pick: str | None) -> dict:
    """Cathedral's part of the game page for the viewer of ``base`` (the platform's part);
    what changed since the state ``before`` is marked."""
    seat, names = base["seat"], base["names"]
    rules = game.engine  # the engine of the game's own version
    seen = rules.view(state, seat)
    if game.over and not base.get("replay"):
        # Ended off the board (time, resignation, abort): nobody places anything more.
        seen = {**seen, "to_decide": None}
    mine = seat is not None and game.status == Game.Status.ACTIVE and seen["to_decide"] == seat
    mine = mine and not base.get("replay")
    legal = _placements(rules.legal_actions(state)) if mine else {}
    said = words()
    picked = _parse_pick(pick, legal, said)
    before = rules.view(before, seat)
    changed = _changed_cells(before, seen)
    city = _city_of(state, seen, legal, picked, changed, said)
    return {
        "view": seen,
        "rows": city["rows"],
        # A city with nothing to pick, known once by the state it shows: drawn once per content
        # for every viewer (a fragment), its key worked out once.
        "settled_city": city if type(city) is Settled else None,
        # Cells are targets (links that carry the seq) only once a building is picked.
        "targeting": bool(picked) and "cell" not in picked,
        "hands": hands(seen, names, legal, picked, seat, said),
        "players": player_panels(seen, names, seat, base["clocks"], before, said),
        "picked": picked,
        "ghost": _ghost_data(seen, legal, picked, seat),
        "placing": _placing_side(seen, picked, seat),
        "placement": _placement_form(legal, picked),
        "turn_choices": _turn_choices(legal, picked),
        "your_turn": mine,
        "prompt": prompt(seen, seat, picked, mine),
        "last_move": last_move(seen, names, said),
        "turns": log_entries(seen, names, said),
        "result": result_line(seen, names, seat),
        "deciding_name": names[seen["to_decide"]] if seen["to_decide"] is not None else "",
        "confirm": base["prefs"].confirms(live=game.clock_control.live),
    }


# -- what the player may do --------------------------------------------------------------------


def _placements(actions) -> dict[str, dict[int, dict[tuple[int, int], engine.Action]]]:
    """Legal placements by building, then turn, then the cell of the centre square. (Some
    thousand of them on a player's turn: read from the actions' fields, and only the one picked
    written as JSON.)"""
    out: dict[str, dict[int, dict[tuple[int, int], engine.Action]]] = {}
    for action in actions:
        out.setdefault(action.building, {}).setdefault(action.turn, {})[
            (action.col, action.row)
        ] = action
    return out


def _parse_pick(pick: str | None, legal: dict, said: Words) -> dict:
    """The clicks so far, kept only as far as they are legal now (a stale pick falls back)."""
    parts = (pick or "").split(".")
    building = parts[0] if parts and parts[0] in legal else None
    if building is None:
        return {}
    picked: dict = {
        "building": building,
        "name": said.name[building],
        "turnable": len(legal[building]) > 1,
    }
    cell = _cell_of(parts[1]) if len(parts) > 1 else None
    turns = [t for t in sorted(legal[building]) if cell in legal[building][t]]
    if cell is None or not turns:
        return picked
    named = parts[2] if len(parts) > 2 else ""
    turn = int(named) if named.isdecimal() and len(named) < 3 else turns[0]
    if turn not in turns:
        turn = turns[0]
    picked.update(cell=cell, label=label(*cell), turn=turn, turns=turns)
    picked["action"] = legal[building][turn][cell].to_json()
    return picked


def _cell_of(text: str) -> tuple[int, int] | None:
    # "A1" to "J10": a digit that int() does not read ("²"), or five thousand, is no cell.
    if not 2 <= len(text) <= 3 or text[0] not in COLUMNS or not text[1:].isdecimal():
        return None
    col, row = COLUMNS.index(text[0]), int(text[1:]) - 1
    return (col, row) if 0 <= row < SIZE else None


def _placement_form(legal: dict, picked: dict) -> str:
    return json.dumps(picked["action"]) if "action" in picked else ""


def _turn_choices(legal: dict, picked: dict) -> list[dict]:
    """The other orientations legal at the picked cell, each a link."""
    if "turns" not in picked or len(picked["turns"]) < 2:
        return []
    turns = picked["turns"]
    following = turns[(turns.index(picked["turn"]) + 1) % len(turns)]
    query = f"{picked['building']}.{picked['label']}.{following}"
    return [{"query": query, "label": _("Turn it")}]


def _placing_side(seen: dict, picked: dict, seat: int | None) -> str:
    """Whose colour the preview of the picked building wears: "light", "dark" or "cathedral"."""
    if not picked:
        return ""
    return "cathedral" if picked["building"] == "cathedral" else role_of(seat, seen)


def _ghost_data(seen: dict, legal: dict, picked: dict, seat: int | None) -> str:
    """For the script: each legal orientation of the picked building, its squares relative to
    the centre square and the cells where that centre may go."""
    if not picked or "action" in picked:
        return ""  # with a cell picked, the server draws the building there
    building = picked["building"]
    side = "light" if building == "cathedral" else role_of(seat, seen)
    turns = {}
    for turn, cells in sorted(legal[building].items()):
        turns[str(turn)] = {
            "squares": footprint(building, side, turn, seen["rules_version"]),
            "cells": [label(*cell) for cell in sorted(cells)],
        }
    return json.dumps({"building": building, "turns": turns})


# -- the city ----------------------------------------------------------------------------------


def _changed_cells(before: dict, seen: dict) -> dict[tuple[int, int], str]:
    """What the last run of moves did to each cell: "changed" (built or claimed) or "captured"."""
    out = {}
    for row in range(SIZE):
        for col in range(SIZE):
            was, now = before["cells"][row][col], seen["cells"][row][col]
            if was and not now:
                out[(col, row)] = "captured"
            elif was != now or before["territory"][row][col] != seen["territory"][row][col]:
                out[(col, row)] = "changed"
    return out


# The city's rows with nothing picked, by the state, the language and the cells marked changed:
# Cathedral hides nothing, so a move's drawings (the mover's answer, the opponent's push, the
# spectators') show one city, drawn once.
_CITIES = KeptFor(300)  # some 25 KB each


def _city_of(state, seen: dict, legal: dict, picked: dict, changed: dict, said: Words) -> dict:
    """``{"rows": ...}``: a ``Settled`` one, shared, when nothing is picked."""
    if picked:  # the picking player's own city: targets, the ghost
        return {"rows": city_rows(seen, legal, picked, changed, said)}
    marked = tuple(sorted(changed.items()))
    return _CITIES.get(
        state,
        (get_language(), marked),
        lambda: Settled(rows=city_rows(seen, legal, picked, changed, said)),
    )


def city_rows(
    seen: dict, legal: dict, picked: dict, changed: dict, said: Words
) -> list[list[dict]]:
    anchors: set[tuple[int, int]] = set()
    if picked and "cell" not in picked:
        for cells in legal[picked["building"]].values():
            anchors.update(cells)
    ghost = set(_ghost_cells(seen, picked))
    rows = []
    for row in range(SIZE):
        line = []
        for col in range(SIZE):
            line.append(_cell(seen, col, row, anchors, ghost, changed, picked, said))
        rows.append(line)
    return rows


def _ghost_cells(seen: dict, picked: dict) -> list[tuple[int, int]]:
    if "action" not in picked:
        return []
    building = picked["building"]
    side = "light" if building == "cathedral" else role_of(seen["to_decide"], seen)
    col, row = picked["cell"]
    return [
        (col + dx, row + dy)
        for dx, dy in footprint(building, side, picked["turn"], seen["rules_version"])
    ]


def _cell(seen, col, row, anchors, ghost, changed, picked, said: Words) -> dict:
    piece = seen["cells"][row][col]
    owner = seen["territory"][row][col]
    classes = ["cell"]
    spoken = []
    if piece:
        who = "cathedral" if piece["owner"] == "cathedral" else role_of(piece["owner"], seen)
        classes.append("cathedral-piece" if who == "cathedral" else who)
        classes.extend(_edges(seen, col, row, piece["piece"]))
        building = piece["building"]
        spoken.append(said.name[building] if who == "cathedral" else said.owned[(who, building)])
    if owner is not None:
        classes.append(f"t-{role_of(owner, seen)}")
        spoken.append(said.land[role_of(owner, seen)])
    mark = changed.get((col, row))
    if mark:
        classes.append(mark)
        if mark == "captured":
            spoken.append(said.emptied)
    if (col, row) in ghost:
        classes.append("ghost")
        spoken.append(said.ghost[picked["building"]])
    if picked.get("cell") == (col, row):
        classes.append("picked")
    query = None
    if (col, row) in anchors:
        classes.append("target")
        query = f"{picked['building']}.{label(col, row)}"
    key = label(col, row)
    values = {"cell": key, "what": ", ".join(spoken) or said.empty}
    return {
        "col": col,
        "row": row,
        "key": key,
        "classes": " ".join(classes),
        "label": (said.target if query else said.cell) % values,
        "titled": bool(spoken),
        "query": query,
    }


def _edges(seen: dict, col: int, row: int, piece: int) -> list[str]:
    """The sides of the cell where its building ends: drawn as walls between buildings."""
    edges = []
    for name, dc, dr in (("n", 0, -1), ("e", 1, 0), ("s", 0, 1), ("w", -1, 0)):
        c, r = col + dc, row + dr
        other = seen["cells"][r][c] if 0 <= c < SIZE and 0 <= r < SIZE else None
        if not other or other["piece"] != piece:
            edges.append(f"edge-{name}")
    return edges


# -- hands and players -------------------------------------------------------------------------


def hands(
    seen: dict,
    names: list[str],
    legal: dict,
    picked: dict,
    seat: int | None,
    said: Words,
    chooser: int | None = None,
) -> list[dict]:
    """Both hands, the viewer's first; ``chooser``'s buildings (the viewer's unless named: the
    analysis board picks for either side) link to choosing them."""
    chooser = seat if chooser is None else chooser
    out = []
    for player in _seat_order(seat):
        role = role_of(player, seen)
        buildings = []
        for entry in seen["hands"][player]["buildings"]:
            key = entry["building"]
            squares, grid, drawn = _drawing(key, role, seen["rules_version"])
            name = said.name[key]
            count = entry["count"]
            buildings.append(
                {
                    **entry,
                    "name": name,
                    "spoken": (
                        said.choose_it % {"piece": name}
                        if count == 1
                        else said.choose_copies % {"piece": name, "count": count}
                    ),
                    "squares_at": squares,
                    "grid": grid,
                    "drawn": drawn,
                    "choosable": player == chooser and key in legal,
                    "picked": player == chooser and picked.get("building") == key,
                }
            )
        out.append(
            {
                "seat": player,
                "name": names[player],
                "role": role,
                "side": said.side[role],
                "buildings": buildings,
                "unplaced": seen["hands"][player]["unplaced_squares"],
                # Links to choose (which carry the seq) drawn each time; a hand without, once.
                "choosing": any(b["choosable"] for b in buildings),
            }
        )
    if chooser is not None and "cathedral" in legal:
        out[_seat_order(seat).index(chooser)]["cathedral"] = {
            "name": said.name["cathedral"],
            "spoken": said.choose_it % {"piece": said.name["cathedral"]},
            "grid": _mini_grid(footprint("cathedral", "light", 0)),
            "drawn": outline(footprint("cathedral", "light", 0, seen["rules_version"])),
            "picked": picked.get("building") == "cathedral",
        }
        out[_seat_order(seat).index(chooser)]["choosing"] = True
    return out


def _seat_order(seat: int | None) -> list[int]:
    return [seat, 1 - seat] if seat is not None else [0, 1]


@lru_cache(maxsize=256)
def _drawing(building: str, role: str, rules_version: int) -> tuple[list, list, dict]:
    """A building's squares, small grid and outline, once per shape: shared, never changed."""
    squares = footprint(building, role, 0, rules_version)
    return squares, _mini_grid(squares), outline(squares)


def _mini_grid(squares: list) -> list[list[bool]]:
    """A building drawn small: rows of filled or empty squares of its bounding box."""
    cols = [dx for dx, _ in squares]
    rows = [dy for _, dy in squares]
    filled = {(dx - min(cols), dy - min(rows)) for dx, dy in squares}
    width, height = max(cols) - min(cols) + 1, max(rows) - min(rows) + 1
    return [[(c, r) in filled for c in range(width)] for r in range(height)]


def player_panels(seen, names, seat, clocks, before, said: Words) -> list[dict]:
    panels = []
    for player in (0, 1):
        hand = seen["hands"][player]
        panels.append(
            {
                "seat": player,
                "name": names[player],
                "you": player == seat,
                "role": role_of(player, seen),
                "side": said.side[role_of(player, seen)],
                "deciding": seen["to_decide"] == player,
                "unplaced": hand["unplaced_squares"],
                "left": sum(b["count"] for b in hand["buildings"]),
                "changed": hand["unplaced_squares"] != before["hands"][player]["unplaced_squares"],
                "mark": (
                    "changed"
                    if hand["unplaced_squares"] != before["hands"][player]["unplaced_squares"]
                    else ""
                ),
                "clock": clocks[player],
            }
        )
    return panels


# -- words -------------------------------------------------------------------------------------


def prompt(seen: dict, seat: int | None, picked: dict, mine: bool) -> str:
    if not mine:
        return ""
    if not picked:
        if seen["cathedral_due"]:
            return _("Your turn: place the Cathedral first, then your own building.")
        return _("Your turn: choose one of your buildings to place.")
    if "cell" not in picked:
        return _("%(piece)s: choose a highlighted cell for its centre square.") % {
            "piece": picked["name"]
        }
    return _("%(piece)s on %(cell)s: turn it, or place it here.") % {
        "piece": picked["name"],
        "cell": picked["label"],
    }


def last_move(seen: dict, names: list[str], said: Words) -> dict:
    """The trailing run of one player's placements, with any pass that came after them."""
    placed = [e for e in seen["log"] if e["kind"] == "place"]
    if not placed:
        return {}
    player = placed[-1]["player"]
    run = []
    for entry in reversed(seen["log"]):
        if entry["kind"] == "place" and entry["player"] != player:
            break
        run.append(entry)
    run.reverse()
    return {
        "player": player,
        "text": "; ".join(named(e, seen, names, said) for e in run),
        "first_seq": run[0]["seq"],
    }


def log_entries(seen: dict, names: list[str], said: Words) -> list[dict]:
    """The log, newest first: each placement with its claim or capture, and each pass."""
    out = []
    for number, entry in enumerate(seen["log"], start=1):
        player = entry["player"] if entry["kind"] == "place" else None
        out.append(
            {
                "number": number,
                "player": player,
                "text": named(entry, seen, names, said),
                "cells": entry["cells"],
            }
        )
    out.reverse()
    return out


def result_line(seen: dict, names: list[str], seat: int | None) -> str:
    if not seen["finished"]:
        return ""
    left = [seen["hands"][p]["unplaced_squares"] for p in (0, 1)]
    if len(seen["winners"]) == 2:
        return ngettext(
            "A draw: both players have %(count)d unplaced square.",
            "A draw: both players have %(count)d unplaced squares.",
            left[0],
        ) % {"count": left[0]}
    winner = seen["winners"][0]
    loser = 1 - winner
    values = {"count": left[winner], "other": left[loser], "name": names[loser]}
    if winner == seat:
        return (
            ngettext(
                "You win: %(count)d unplaced square against %(other)d for %(name)s.",
                "You win: %(count)d unplaced squares against %(other)d for %(name)s.",
                left[winner],
            )
            % values
        )
    return ngettext(
        "%(winner)s wins: %(count)d unplaced square against %(other)d for %(name)s.",
        "%(winner)s wins: %(count)d unplaced squares against %(other)d for %(name)s.",
        left[winner],
    ) % {**values, "winner": names[winner]}


def final_score(scores: list[int], names: list[str]) -> str:
    """The end of a game its rules ended, for a page or an email that has no view: each
    player's unplaced squares, the fewest winning."""
    return _(
        "Unplaced squares at the end, the fewest wins: %(name0)s %(left0)d, %(name1)s %(left1)d."
    ) % {"name0": names[0], "left0": scores[0], "name1": names[1], "left1": scores[1]}


def rules_context() -> dict:
    """The buildings as the rules page draws them: each side's shape, its squares, its count."""
    said = words()
    buildings = []
    for key, data in engine.BUILDINGS.items():
        buildings.append(
            {
                "key": key,
                "name": said.name[key],
                "squares": data["squares"],
                "count": data.get("count", 1),
                "light": _mini_grid(footprint(key, "light", 0)),
                "dark": _mini_grid(footprint(key, "dark" if key != "cathedral" else "light", 0)),
                "mirrored": key in ("abbey", "academy"),
            }
        )
    return {"buildings": buildings}


def describe_placement(state: engine.State, action: engine.Action) -> str:
    """A legal placement in the viewer's language, with what it would claim and capture:
    "place the Tower on D4-F6, claiming 7 squares" (a hint's words)."""
    said = words()
    entry = engine.view(engine.apply_action(state, action), None)["log"]
    entry = next(e for e in reversed(entry) if e["kind"] == "place")
    values = {"piece": said.thing[action.building], "span": _span(entry["cells"])}
    count = len(entry["claimed"])
    if not count and not entry["captures"]:
        return said.place % values
    side = role_of(entry["player"], engine.view(state, None))
    captured = [_capture(c, seen_side=side, said=said) for c in entry["captures"]]
    if captured:
        values["taken"] = said.listed(captured)
    return said.claimed(count, bool(captured), ahead=True) % {**values, "count": count}


def hint_marks(state: engine.State, action: engine.Action) -> dict:
    """The building in hand and the squares it would cover."""
    after = engine.apply_action(state, action)
    placed = next(event for event in reversed(after.events) if event[0] == "place")
    cells = [label(index % SIZE, index // SIZE) for index in cells_of(placed[4])]
    return {"cells": cells, "tiles": [action.building]}

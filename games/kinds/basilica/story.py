"""The story of a game in words: what the player who acted last did, the log turn by turn, and
each scoring explained area by area.

Everything here reads the dicts of ``engine.view`` (so it shows only what that viewer may see)
and returns plain JSON-safe data for the templates and the socket pushes. Cells are named as the
board draws them, by the engine's ``cell_label`` ("c2r1"); the cells of an entry, for
highlighting, are given as the board's ``data-cell`` values, the engine's ``cell_key`` ("2,1").
"""

from __future__ import annotations

from django.utils.translation import gettext as _

from games.engine.basilica import cell_key, cell_label
from games.engine.basilica.actions import ORDER_KINDS, kind_of
from games.engine.basilica.components import COLOR_NAMES, ORDER_NAMES, RANK_NAMES

# -- one action in words -----------------------------------------------------------------------

# Each follow-up and the order it completes: it heads the follow-up's log line, and a run that
# holds both tells them as one ("took Scaffolding: a scaffold at c0r2 and a second ...").
FOLLOW_UPS = {
    "second_scaffold": "scaffold",
    "second_altar": "altar",
    "skip_altar": "altar",
    "confuse_move": "confuse",
}


def _colors(colors: str) -> str:
    return "/".join(COLOR_NAMES[c] for c in colors)


def _vault(face: dict) -> str:
    """ "red vault", "red/blue vault (crowned)"."""
    return f"{_colors(face['colors'])} vault" + (" (crowned)" if face["crown"] else "")


def _a_rank(rank: str) -> str:
    name = RANK_NAMES[rank]
    return f"{'an' if name[0] in 'AEIOU' else 'a'} {name}"


def _heading(entry: dict, names: list[str]) -> str:
    """The order an entry executes or completes, as its log line begins ("Promote", "Promote,
    with a paid order for Bob"), or ""."""
    kind = kind_of(entry["action"])
    if kind in ORDER_KINDS:
        if entry["tile"]["paid"]:
            return _("%(order)s, with a paid order for %(opponent)s") % {
                "order": ORDER_NAMES[kind],
                "opponent": names[1 - entry["player"]],
            }
        return ORDER_NAMES[kind]
    if kind in FOLLOW_UPS:
        return ORDER_NAMES[FOLLOW_UPS[kind]]
    return ""


def _deed(entry: dict, names: list[str]) -> str:
    """What the entry did, without its heading or its player's name."""
    action = entry["action"]
    kind = kind_of(action)
    at = cell_label(action["col"], action["row"]) if "col" in action else ""
    to = cell_label(action["to_col"], action["to_row"]) if "to_col" in action else ""
    if kind == "vault":
        return f"placed a {_vault(entry['tile'])} at {at}"
    if kind == "builder":
        return f"placed a builder on {cell_label(*entry['cell'])}"
    if kind in ("promote", "move", "recruit", "confuse"):
        return _builder_deed(kind, at, to, action.get("rank"))
    if kind == "glass":
        return f"a window on the vault at {at}"
    if kind == "scaffold":
        return f"a scaffold at {at}"
    if kind == "disaster":
        return f"discarded the {_vault(entry['discarded'])} at {at}"
    if kind == "altar":
        return f"an altar on {at}"
    if kind == "pay":
        # The opponent of the player on turn pays that player, for the order's paid part.
        return _("paid %(payee)s a coin for %(order)s's paid order: %(deed)s") % {
            "payee": names[1 - entry["player"]],
            "order": ORDER_NAMES[entry["order"]],
            "deed": _builder_deed(entry["order"], at, to, action.get("rank")),
        }
    if kind == "decline":
        return _("declined to pay %(payee)s a coin for %(order)s's paid order") % {
            "payee": names[1 - entry["player"]],
            "order": ORDER_NAMES[entry["order"]],
        }
    if kind == "confuse_move":
        return f"{names[1 - entry['player']]}'s builder moved from {at} to {to}"
    if kind == "second_scaffold":
        return f"a second scaffold at {at}"
    if kind == "second_altar":
        return f"a second altar on {at}"
    if kind == "skip_altar":
        return "no second altar"
    if "color" not in action:
        return f"chose a colour for their Jester at {at} (hidden until the scoring)"
    return f"chose {COLOR_NAMES[action['color']]} for their Jester at {at}"


def _builder_deed(order: str, at: str, to: str, rank: str | None) -> str:
    """What Promote, Move Builder, Recruit or Confuse did, paid or not."""
    if order == "promote":
        return f"their builder at {at} became {_a_rank(rank)}"
    if order == "recruit":
        return f"a new builder on {at}"
    if order == "move" or to:  # a paid Confuse: the payer moves her own builder
        return f"their builder moved from {at} to {to}"
    return f"their builder at {at} went home"


def entry_text(entry: dict, names: list[str]) -> str:
    """One log entry in words, capitalised: "Placed a red/blue vault (crowned) at c1r0",
    "Disaster: discarded the red vault at c1r0"."""
    heading, deed = _heading(entry, names), _deed(entry, names)
    text = f"{heading}: {deed}" if heading else deed
    return text[0].upper() + text[1:]


def _clause(entry: dict, names: list[str], previous: dict | None) -> str:
    """The entry as a part of a sentence naming a player's run, with what joins it on."""
    kind = kind_of(entry["action"])
    deed = _deed(entry, names)
    before = kind_of(previous["action"]) if previous else None
    if before and FOLLOW_UPS.get(kind) == before:
        return f" and {deed}"
    joined = ", then " if previous else " "
    if kind == "builder" and before == "vault":
        return f"{joined}a builder on it"
    if kind in ORDER_KINDS:
        return f"{joined}took {_heading(entry, names)}: {deed}"
    if kind in FOLLOW_UPS:
        return f"{joined}completed {_heading(entry, names)}: {deed}"
    return joined + deed


def move_summary(entries: list[dict], names: list[str]) -> str:
    """One sentence naming a player's run of log entries: "Bob placed a red vault at c4r1, then
    a builder on it, then took Promote: their builder at c2r0 became an Architect." """
    if not entries:
        return ""
    sentence = names[entries[0]["player"]]
    previous = None
    for entry in entries:
        sentence += _clause(entry, names, previous)
        previous = entry
    return sentence + "."


def entry_cells(entry: dict) -> list[str]:
    """The cells an entry touched, as the board's ``data-cell`` values ("col,row")."""
    action = entry["action"]
    if "cell" in entry:
        return [cell_key(*entry["cell"])]
    cells = []
    if "col" in action:
        cells.append(cell_key(action["col"], action["row"]))
    if "to_col" in action:
        cells.append(cell_key(action["to_col"], action["to_row"]))
    return cells


def last_run(seen: dict) -> list[dict]:
    """The log entries at the end of the log made by the player who acted last."""
    log = seen["log"]
    start = len(log)
    while start and log[start - 1]["player"] == log[-1]["player"]:
        start -= 1
    return log[start:]


# -- the log, turn by turn ---------------------------------------------------------------------


def _last_clean_up(seen: dict) -> int:
    """The seq after which the cathedral was last cleaned up (0 if never): cells named before it
    are no longer where the board shows them."""
    ends = {e["seq"] for e in seen["events"] if e["kind"] == "end"}
    return max(
        (e["seq"] for e in seen["events"] if e["kind"] == "scoring" and e["seq"] not in ends),
        default=0,
    )


def event_text(event: dict, seen: dict, names: list[str]) -> str:
    """An event of the game (refresh, reshuffle, exhaustion, scoring, end) in words."""
    kind = event["kind"]
    if kind == "refresh":
        return "No vault on offer could be placed: the three were discarded and three drawn."
    if kind == "reshuffle":
        return (
            f"The stack ran out: the discard pile ({event['tiles']} tiles) was shuffled "
            "into a new stack."
        )
    if kind == "exhaustion":
        return "The stack ran out a second time: the game ends with a final scoring."
    if kind == "scoring":
        points = event["points"]
        return f"{_scoring_title(event, seen)}: {names[0]} +{points[0]}, {names[1]} +{points[1]}."
    scores = event["scores"]
    if len(event["winners"]) == 2:
        return f"The game is over: a shared victory at {scores[0]} points each."
    winner = event["winners"][0]
    return f"The game is over: {names[winner]} won, {scores[winner]} to {scores[1 - winner]}."


def _scoring_title(event: dict, seen: dict) -> str:
    """ "Scoring 1 (the queen reached 10)", "Scoring 2, the final one (the stack ran out)"."""
    number = event["number"]
    spaces = seen["crown_spaces"]
    if _is_final(event, seen) and any(e["kind"] == "exhaustion" for e in seen["events"]):
        return f"Scoring {number}, the final one (the stack ran out)"
    reached = f"the {seen['monarch']} reached {spaces[number - 1]}"
    last = ", the last" if number == len(spaces) else ""
    return f"Scoring {number}{last} ({reached})"


def _is_final(event: dict, seen: dict) -> bool:
    return any(e["kind"] == "end" and e["seq"] == event["seq"] for e in seen["events"])


def log_turns(seen: dict, names: list[str]) -> list[dict]:
    """The log grouped by turn, the newest turn first and the newest entry first in each:
    ``{"turn", "player", "who", "entries": [{"seq", "who", "text", "cells", "event",
    "scoring"}]}``. The game's events stand among the entries after the action that caused
    them (``event`` true; a scoring gives its ``number`` in ``scoring``). Entries from before
    the last clean-up have no cells: the board no longer shows them where they were."""
    first = (seen["active_player"] - seen["turn"] + 1) % 2
    turn_at = {0: (1, first)}
    cleaned = _last_clean_up(seen)
    items = []
    for entry in seen["log"]:
        turn_at[entry["seq"]] = (entry["turn"], entry["active"])
        line = {
            "seq": entry["seq"],
            "who": names[entry["player"]],
            "text": entry_text(entry, names),
            "cells": entry_cells(entry) if entry["seq"] > cleaned else [],
            "event": False,
            "scoring": None,
        }
        items.append((turn_at[entry["seq"]], line))
    for event in seen["events"]:
        line = {
            "seq": event["seq"],
            "who": "",
            "text": event_text(event, seen, names),
            "cells": [],
            "event": True,
            "scoring": event["number"] if event["kind"] == "scoring" else None,
        }
        items.append((turn_at[event["seq"]], line))
    # Stable: an event comes after its action, and events keep their order.
    items.sort(key=lambda item: (item[1]["seq"], item[1]["event"]))
    turns: list[dict] = []
    for (turn, active), line in reversed(items):
        if not turns or turns[-1]["turn"] != turn:
            turns.append({"turn": turn, "player": active, "who": names[active], "entries": []})
        turns[-1]["entries"].append(line)
    return turns


# -- a scoring explained -----------------------------------------------------------------------

# Where a player's points come from: the only points of the game are those of its scorings.
PARTS = {
    "areas": "tiles of the areas won",
    "architects": "Architects doubling their tiles",
    "glass": "stained glass, 2 a window",
    "altars": "stained glass on altars, 2 more a window",
    "minority": "builders in areas lost, 1 each",
}


def scoring_numbers(seen: dict) -> list[int]:
    """The numbers of the scorings made so far."""
    return [e["number"] for e in seen["events"] if e["kind"] == "scoring"]


def scoring_breakdown(seen: dict, number: int, names: list[str]) -> dict:
    """Scoring ``number`` explained: each area, who took it and why, what each player earned
    and from what, and the totals before and after; the final one adds the ranking.

    ``{"number", "title", "final", "cathedral" (as scored), "areas": [{"color", "color_name",
    "tiles", "cells", "owner", "owner_name", "tie", "points", "why", "verdict"}], "players":
    [{"seat", "name", "earned", "parts": [{"part", "label", "points"}], "before", "after"}],
    "jesters": [words]}``, and if final ``"ranking": [{"seat", "name", "score", "winner"}]``,
    ``"ending"`` and ``"tie_break"`` (words, or "").
    """
    scorings = [e for e in seen["events"] if e["kind"] == "scoring"]
    event = next(e for e in scorings if e["number"] == number)
    before = [sum(e["points"][p] for e in scorings if e["number"] < number) for p in (0, 1)]
    players = []
    for p in (0, 1):
        parts = _parts(event["areas"], p)
        players.append(
            {
                "seat": p,
                "name": names[p],
                "earned": event["points"][p],
                "parts": [
                    {"part": part, "label": PARTS[part], "points": points}
                    for part, points in parts.items()
                    if points
                ],
                "before": before[p],
                "after": before[p] + event["points"][p],
            }
        )
    breakdown = {
        "number": number,
        "title": _scoring_title(event, seen),
        "final": _is_final(event, seen),
        "cathedral": event["cathedral"],
        "areas": [_area(area, names) for area in event["areas"]],
        "players": players,
        "jesters": _jesters(event, names),
    }
    if breakdown["final"]:
        breakdown.update(_ranking(seen, names))
    return breakdown


def _plural(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"


def _parts(areas: list[dict], player: int) -> dict[str, int]:
    """Where a player's points of one scoring came from; they add up to what it earned."""
    parts = dict.fromkeys(PARTS, 0)
    for area in areas:
        if area["winner"] == player:
            tiles = len(area["cells"])
            parts["areas"] += tiles
            parts["architects"] += tiles if area["architect"] else 0
            parts["glass"] += area["glass"] - 2 * area["altar_glass"]
            parts["altars"] += 2 * area["altar_glass"]
        elif area["winner"] is not None:
            parts["minority"] += area["builders"][player]
    return parts


def _area(area: dict, names: list[str]) -> dict:
    owner = area["winner"]
    return {
        "color": area["color"],
        "color_name": COLOR_NAMES[area["color"]],
        "tiles": len(area["cells"]),
        "cells": [cell_key(col, row) for col, row in area["cells"]],
        "owner": owner,
        "owner_name": "" if owner is None else names[owner],
        "tie": owner is None,
        "points": list(area["points"]),
        "why": _why(area),
        "verdict": _verdict(area, names),
    }


def _why(area: dict) -> str:
    """ "6 tiles, doubled by an Architect, +2 stained glass = 14"."""
    words = _plural(len(area["cells"]), "tile")
    if area["architect"]:
        words += ", doubled by an Architect"
    on_altar = area["altar_glass"]
    plain = area["glass"] - 4 * on_altar
    if plain:
        words += f", +{plain} stained glass"
    if on_altar:
        words += f", +{4 * on_altar} stained glass on {'an altar' if on_altar == 1 else 'altars'}"
    return f"{words} = {area['value']}"


def _verdict(area: dict, names: list[str]) -> str:
    """Who took the area and why, and what the other player scored there."""
    strength, owner = area["strength"], area["winner"]
    if owner is None:
        return f"Tied {strength[0]} to {strength[1]}: nobody scores."
    name, counts = names[owner], _strength(area, owner)
    if strength[0] == strength[1]:
        verdict = f"Tied {counts}; {name}'s Strongman breaks the tie and scores {area['value']}"
    elif strength[1 - owner] == 0:
        verdict = f"Only {name} has builders there and scores {area['value']}"
    else:
        verdict = f"{name} has the majority, {counts}, and scores {area['value']}"
    loser = 1 - owner
    if area["builders"][loser]:
        builders = _plural(area["builders"][loser], "builder")
        verdict += f"; {names[loser]} scores {area['points'][loser]} for {builders}"
    return verdict + "."


def _strength(area: dict, owner: int) -> str:
    strength, builders = area["strength"], area["builders"]
    counts = f"{strength[owner]} to {strength[1 - owner]}"
    if strength != builders:
        counts += " (a Master Mason counts 2)"
    return counts


def _jesters(event: dict, names: list[str]) -> list[str]:
    """Each revealed Jester pick: "Alice's Jester at c0r0 added blue to its red vault"."""
    cells = {cell_key(c["col"], c["row"]): c for c in event["cathedral"]}
    words = []
    for key, color in event["jesters"].items():
        cell = cells[key]
        owner = names[cell["builder"]["player"]]
        at = cell_label(cell["col"], cell["row"])
        words.append(
            f"{owner}'s Jester at {at} added {COLOR_NAMES[color]} to its "
            f"{_colors(cell['colors'])} vault"
        )
    return words


def _ranking(seen: dict, names: list[str]) -> dict:
    end = next(e for e in seen["events"] if e["kind"] == "end")
    scores, winners = end["scores"], end["winners"]
    order = sorted((0, 1), key=lambda p: (p not in winners, -scores[p], p))
    shared = len(winners) == 2
    return {
        "ranking": [
            {"seat": p, "name": names[p], "score": scores[p], "winner": p in winners} for p in order
        ],
        "ending": (
            "after the third scoring"
            if end["termination"] == "third scoring"
            else "when the stack ran out a second time"
        ),
        "tie_break": (
            "Equal totals: the players share the victory (Basilica has no tie-break)."
            if shared
            else ""
        ),
    }

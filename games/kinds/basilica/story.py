"""The story of a game in words: what the player who acted last did, the log turn by turn, and
each scoring explained area by area.

Everything here reads the dicts of ``engine.view`` (so it shows only what that viewer may see)
and returns plain JSON-safe data for the templates and the socket pushes. Cells are named as the
board draws them, by the engine's ``cell_label`` ("c2r1"); the cells of an entry, for
highlighting, are given as the board's ``data-cell`` values, the engine's ``cell_key`` ("2,1").
"""

from __future__ import annotations

import operator
from typing import NamedTuple

from django.utils.translation import get_language, ngettext, pgettext
from django.utils.translation import gettext as _

from games.engine.basilica import cell_key, cell_label
from games.engine.basilica.actions import ORDER_KINDS, kind_of
from games.engine.basilica.components import (
    ARCHITECT,
    CONFUSE,
    JESTER,
    MASON,
    PROMOTE,
    RECRUIT,
    STRONGMAN,
)
from games.kinds.basilica.names import names as game_names
from games.kinds.basilica.names import per_language
from games.settled import KeptFor, Settled

# -- one action in words -----------------------------------------------------------------------

# Each follow-up and the order it completes: it heads the follow-up's log line, and a run that
# holds both tells them as one ("took Scaffolding: a scaffold at c0r2 and a second ...").
FOLLOW_UPS = {
    "second_scaffold": "scaffold",
    "second_altar": "altar",
    "skip_altar": "altar",
    "confuse_move": "confuse",
}


@per_language
def _words() -> dict:
    """The log's sentences in the active language (the player who acted is their subject)."""
    return {
        "names": game_names(),
        "with_paid": _("%(name)s, with a paid order for %(opponent)s"),
        "entry": _("%(heading)s: %(deed)s"),
        "vault": _("placed a %(face)s at %(cell)s"),
        "builder": _("placed a builder on %(cell)s"),
        "glass": _("a window on the vault at %(cell)s"),
        "scaffold": _("a scaffold at %(cell)s"),
        "disaster": _("discarded the %(face)s at %(cell)s"),
        "altar": _("an altar on %(cell)s"),
        "confuse_move": _("%(owner)s's builder moved from %(cell)s to %(to)s"),
        "second_scaffold": _("a second scaffold at %(cell)s"),
        "second_altar": _("a second altar on %(cell)s"),
        "skip_altar": _("no second altar"),
        "jester_hidden": _(
            "chose a colour for their Jester at %(cell)s (hidden until the scoring)"
        ),
        "jester": _("chose %(hue)s for their Jester at %(cell)s"),
        "became": {
            ARCHITECT: _("their builder at %(cell)s became an Architect"),
            MASON: _("their builder at %(cell)s became a Master Mason"),
            STRONGMAN: _("their builder at %(cell)s became a Strongman"),
            JESTER: _("their builder at %(cell)s became a Jester"),
        },
        "recruited": _("a new builder on %(cell)s"),
        "moved": _("their builder moved from %(cell)s to %(to)s"),
        "home": _("their builder at %(cell)s went home"),
        "paid": {
            PROMOTE: _("paid %(payee)s a coin for Promote's paid order: %(deed)s"),
            RECRUIT: _("paid %(payee)s a coin for Recruit's paid order: %(deed)s"),
            CONFUSE: _("paid %(payee)s a coin for Confuse's paid order: %(deed)s"),
        },
        "declined": {
            PROMOTE: _("declined to pay %(payee)s a coin for Promote's paid order"),
            RECRUIT: _("declined to pay %(payee)s a coin for Recruit's paid order"),
            CONFUSE: _("declined to pay %(payee)s a coin for Confuse's paid order"),
        },
        # A player's run told in one sentence.
        "summary": _("%(player)s %(deeds)s."),
        "then": _("%(before)s, then %(after)s"),
        "and": _("%(before)s and %(after)s"),
        "builder_on_it": _("a builder on it"),
        "took": _("took %(name)s: %(deed)s"),
        "completed": _("completed %(name)s: %(deed)s"),
    }


def _heading(entry: dict, names: list[str], words: dict) -> str:
    """The order an entry executes or completes, as its log line begins ("Promote", "Promote,
    with a paid order for Bob"), or ""."""
    kind = kind_of(entry["action"])
    orders = words["names"].orders
    if kind in ORDER_KINDS:
        if entry["tile"]["paid"]:
            return words["with_paid"] % {
                "name": orders[kind],
                "opponent": names[1 - entry["player"]],
            }
        return orders[kind]
    if kind in FOLLOW_UPS:
        return orders[FOLLOW_UPS[kind]]
    return ""


def _deed(entry: dict, names: list[str], words: dict) -> str:
    """What the entry did, without its heading or its player's name."""
    action = entry["action"]
    kind = kind_of(action)
    at = cell_label(action["col"], action["row"]) if "col" in action else ""
    to = cell_label(action["to_col"], action["to_row"]) if "to_col" in action else ""
    if kind == "vault":
        tile = entry["tile"]
        return words["vault"] % {"face": _vault(tile, words), "cell": at}
    if kind == "builder":
        return words["builder"] % {"cell": cell_label(*entry["cell"])}
    if kind in ("promote", "move", "recruit", "confuse"):
        return _builder_deed(kind, at, to, action.get("rank"), words)
    if kind == "disaster":
        return words["disaster"] % {"face": _vault(entry["discarded"], words), "cell": at}
    if kind == "pay":
        # The opponent of the player on turn pays that player, for the order's paid part.
        return words["paid"][entry["order"]] % {
            "payee": names[1 - entry["player"]],
            "deed": _builder_deed(entry["order"], at, to, action.get("rank"), words),
        }
    if kind == "decline":
        return words["declined"][entry["order"]] % {"payee": names[1 - entry["player"]]}
    if kind == "confuse_move":
        return words["confuse_move"] % {"owner": names[1 - entry["player"]], "cell": at, "to": to}
    if kind == "jester":
        if "color" not in action:
            return words["jester_hidden"] % {"cell": at}
        return words["jester"] % {"hue": words["names"].colors[action["color"]], "cell": at}
    # glass, scaffold, altar, second_scaffold, second_altar, skip_altar
    return words[kind] % {"cell": at}


def _vault(face: dict, words: dict) -> str:
    """ "red vault", "red/blue vault (crowned)"."""
    known = words["names"]
    vault = known.vaults[face["colors"]]
    return known.crowned % {"face": vault} if face["crown"] else vault


def _builder_deed(order: str, at: str, to: str, rank: str | None, words: dict) -> str:
    """What Promote, Move Builder, Recruit or Confuse did, paid or not."""
    if order == "promote":
        return words["became"][rank] % {"cell": at}
    if order == "recruit":
        return words["recruited"] % {"cell": at}
    if order == "move" or to:  # a paid Confuse: the payer moves her own builder
        return words["moved"] % {"cell": at, "to": to}
    return words["home"] % {"cell": at}


def entry_text(entry: dict, names: list[str]) -> str:
    """One log entry in words, capitalised: "Placed a red/blue vault (crowned) at c1r0",
    "Disaster: discarded the red vault at c1r0"."""
    return _entry_text(entry, names, _words())


def _entry_text(entry: dict, names: list[str], words: dict) -> str:
    heading, deed = _heading(entry, names, words), _deed(entry, names, words)
    text = words["entry"] % {"heading": heading, "deed": deed} if heading else deed
    return text[0].upper() + text[1:]


def _clause(entry: dict, names: list[str], previous: dict | None, words: dict) -> str:
    """The entry as a part of a sentence naming a player's run."""
    kind = kind_of(entry["action"])
    before = kind_of(previous["action"]) if previous else None
    if kind == "builder" and before == "vault":
        return words["builder_on_it"]
    deed = _deed(entry, names, words)
    if kind in ORDER_KINDS:
        return words["took"] % {"name": _heading(entry, names, words), "deed": deed}
    if kind in FOLLOW_UPS and FOLLOW_UPS[kind] != before:
        return words["completed"] % {"name": _heading(entry, names, words), "deed": deed}
    return deed


def move_summary(entries: list[dict], names: list[str]) -> str:
    """One sentence naming a player's run of log entries: "Bob placed a red vault at c4r1, then
    a builder on it, then took Promote: their builder at c2r0 became an Architect." """
    if not entries:
        return ""
    words = _words()
    deeds, previous = "", None
    for entry in entries:
        clause = _clause(entry, names, previous, words)
        if previous is None:
            deeds = clause
        else:
            follows = FOLLOW_UPS.get(kind_of(entry["action"])) == kind_of(previous["action"])
            deeds = words["and" if follows else "then"] % {"before": deeds, "after": clause}
        previous = entry
    return words["summary"] % {"player": names[entries[0]["player"]], "deeds": deeds}


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


@per_language
def _event_words() -> dict:
    """The game's events and its scorings explained, in the active language."""
    return {
        "refresh": _(
            "No vault on offer could be placed: the three were discarded and three drawn."
        ),
        "exhaustion": _("The stack ran out a second time: the game ends with a final scoring."),
        "scored": _("%(title)s: %(name0)s +%(gain0)s, %(name1)s +%(gain1)s."),
        "won": _("The game is over: %(winner)s won, %(score)s to %(other)s."),
        "final_title": _("Scoring %(number)s, the final one (the stack ran out)"),
        # By the monarch of the edition, the last of the crown spaces or not.
        "titles": {
            ("queen", False): _("Scoring %(number)s (the queen reached %(square)s)"),
            ("queen", True): _("Scoring %(number)s, the last (the queen reached %(square)s)"),
            ("king", False): _("Scoring %(number)s (the king reached %(square)s)"),
            ("king", True): _("Scoring %(number)s, the last (the king reached %(square)s)"),
        },
        "names": game_names(),
        "part_points": {
            "areas": _("%(amount)s for tiles of the areas won"),
            "architects": _("%(amount)s for Architects doubling their tiles"),
            "glass": _("%(amount)s for stained glass, 2 a window"),
            "altars": _("%(amount)s for stained glass on altars, 2 more a window"),
            "minority": _("%(amount)s for builders in areas lost, 1 each"),
        },
        "parts": pgettext("between the parts of a player's points", "; "),
        "doubled": _("%(words)s, doubled by an Architect"),
        "glass": _("%(words)s, +%(amount)s stained glass"),
        "tied_nobody": _("Tied %(first)s to %(second)s: nobody scores."),
        "counts": _("%(mine)s to %(theirs)s"),
        "counts_mason": _("%(mine)s to %(theirs)s (a Master Mason counts 2)"),
        "strongman": _("Tied %(counts)s; %(name)s's Strongman breaks the tie and scores %(worth)s"),
        "only": _("Only %(name)s has builders there and scores %(worth)s"),
        "majority": _("%(name)s has the majority, %(counts)s, and scores %(worth)s"),
        "jester": _("%(owner)s's Jester at %(cell)s added %(hue)s to its %(face)s"),
        "after_third": _("after the third scoring"),
        "after_exhaustion": _("when the stack ran out a second time"),
        "shared": _("Equal totals: the players share the victory (Basilica has no tie-break)."),
    }


def event_text(event: dict, seen: dict, names: list[str]) -> str:
    """An event of the game (refresh, reshuffle, exhaustion, scoring, end) in words."""
    kind = event["kind"]
    words = _event_words()
    if kind in ("refresh", "exhaustion"):
        return words[kind]
    if kind == "reshuffle":
        tiles = event["tiles"]
        return ngettext(
            "The stack ran out: the discard pile (%(count)s tile) was shuffled into a new stack.",
            "The stack ran out: the discard pile (%(count)s tiles) was shuffled into a new stack.",
            tiles,
        ) % {"count": tiles}
    if kind == "scoring":
        points = event["points"]
        return words["scored"] % {
            "title": _scoring_title(event, seen),
            "name0": names[0],
            "gain0": points[0],
            "name1": names[1],
            "gain1": points[1],
        }
    scores = event["scores"]
    if len(event["winners"]) == 2:
        return ngettext(
            "The game is over: a shared victory at %(score)s point each.",
            "The game is over: a shared victory at %(score)s points each.",
            scores[0],
        ) % {"score": scores[0]}
    winner = event["winners"][0]
    return words["won"] % {
        "winner": names[winner],
        "score": scores[winner],
        "other": scores[1 - winner],
    }


def _scoring_title(event: dict, seen: dict) -> str:
    """ "Scoring 1 (the queen reached 10)", "Scoring 2, the final one (the stack ran out)"."""
    number = event["number"]
    spaces = seen["crown_spaces"]
    words = _event_words()
    if _is_final(event, seen) and any(e["kind"] == "exhaustion" for e in seen["events"]):
        return words["final_title"] % {"number": number}
    title = words["titles"][seen["monarch"], number == len(spaces)]
    return title % {"number": number, "square": spaces[number - 1]}


def _is_final(event: dict, seen: dict) -> bool:
    return any(e["kind"] == "end" and e["seq"] == event["seq"] for e in seen["events"])


# Log lines already said, by the public action of their entry, the language and the players'
# names: the engine's view shares an entry's ``action`` between views (``view._log``), and an
# entry's words are made of that entry alone, so a move's drawings say only its new entries,
# not the whole log three times (the mover's answer, the opponent's push, the spectators').
# The action is kept beside its words, so that its id is not reused while it is here.
_SAID: dict[tuple, tuple[dict, str]] = {}
_SAID_MAX = 20_000


def _said_before(names: list[str]):
    """``_entry_text`` for ``names`` in the active language, remembered by entry."""
    language, players = get_language(), tuple(names)

    def said(entry: dict, words: dict) -> str:
        action = entry["action"]
        key = (id(action), language, players)
        known = _SAID.get(key)
        if known is None or known[0] is not action:
            if len(_SAID) >= _SAID_MAX:
                _SAID.clear()
            known = _SAID[key] = (action, _entry_text(entry, names, words))
        return known[1]

    return said


def log_turns(seen: dict, names: list[str]) -> list[dict]:
    """The log grouped by turn, the newest turn first and the newest entry first in each:
    ``{"turn", "player", "who", "entries": [{"seq", "who", "text", "cells", "event",
    "scoring"}]}``. The game's events stand among the entries after the action that caused
    them (``event`` true; a scoring gives its ``number`` in ``scoring``). Entries from before
    the last clean-up have no cells: the board no longer shows them where they were.

    Each turn is ``Settled``: a turn told before is told again by the same object (``_TOLD``),
    and only the newest turn and those after it are made anew."""
    log, events = seen["log"], seen["events"]
    first = (seen["active_player"] - seen["turn"] + 1) % 2
    cleaned = _last_clean_up(seen)
    actions = [entry["action"] for entry in log]
    key = _told_key(actions, names)
    told = _TOLD.get(key) if key else None
    if told is not None and told.holds(actions, events, first, cleaned):
        newest = _told_turns(seen, names, cleaned, first, told.newest_entry, told.newest_event)
        if newest is not None:
            return _remember_told(key, seen, actions, first, cleaned, newest + told.turns[1:])
    turns = _told_turns(seen, names, cleaned, first, 0, 0)
    return _remember_told(key, seen, actions, first, cleaned, turns) if key else turns


def _told_turns(
    seen: dict, names: list[str], cleaned: int, first: int, from_entry: int, from_event: int
) -> list[Settled] | None:
    """The turns of the log's entries from ``from_entry`` on and of its events from
    ``from_event`` on, the newest first (``first`` played turn 1). None if an event among them
    belongs to a turn before them."""
    turn_at = {0: (1, first)} if from_entry == 0 else {}
    words = _words()
    said = _said_before(names)
    items = []
    for entry in seen["log"][from_entry:]:
        turn_at[entry["seq"]] = (entry["turn"], entry["active"])
        line = {
            "seq": entry["seq"],
            "who": names[entry["player"]],
            "text": said(entry, words),
            "cells": entry_cells(entry) if entry["seq"] > cleaned else [],
            "event": False,
            "scoring": None,
        }
        items.append((turn_at[entry["seq"]], line))
    for event in seen["events"][from_event:]:
        at = turn_at.get(event["seq"])
        if at is None:
            return None
        line = {
            "seq": event["seq"],
            "who": "",
            "text": event_text(event, seen, names),
            "cells": [],
            "event": True,
            "scoring": event["number"] if event["kind"] == "scoring" else None,
        }
        items.append((at, line))
    # Stable: an event comes after its action, and events keep their order.
    items.sort(key=lambda item: (item[1]["seq"], item[1]["event"]))
    turns: list[Settled] = []
    for (turn, active), line in reversed(items):
        if not turns or turns[-1]["turn"] != turn:
            turns.append(Settled(turn=turn, player=active, who=names[active], entries=[]))
        turns[-1]["entries"].append(line)
    return turns


class _Told(NamedTuple):
    """A game's log as last told in one language, with the players' names (to every viewer who
    sees its entries alike)."""

    actions: list[dict]  # the view's entries' actions: shared by the views that see them alike
    events: list[dict]
    first: int
    cleaned: int
    turns: list[Settled]
    newest_entry: int  # where the newest turn begins, in the log and among the events
    newest_event: int
    seq: int  # the view's: how many actions the game had
    before: tuple[int, list[Settled]] | None  # the log as told one action earlier, if it was

    def holds(self, actions: list[dict], events: list[dict], first: int, cleaned: int) -> bool:
        """Whether a log of ``actions`` and ``events`` goes on from this one: the same entries
        (the very objects) and events, then more."""
        return (
            first == self.first
            and cleaned == self.cleaned
            and len(actions) >= len(self.actions)
            and all(map(operator.is_, actions, self.actions))
            and events[: len(self.events)] == self.events
        )


# The log last told, by the first entry's action (kept alive in it, so that its id is not
# reused: the engine's views hand their viewers the same actions page after page, the same for
# all where they see the same), the language and the names: a move's drawings tell only its
# newest turn again, not the whole log.
_TOLD: dict[tuple, _Told] = {}
_TOLD_MAX = 500  # a game's log in a language, whoever sees it alike: some 50 KB each


def _told_key(actions: list[dict], names: list[str]) -> tuple | None:
    """The key of a game's log as told in the active language (None for a log not begun)."""
    return (id(actions[0]), get_language(), tuple(names)) if actions else None


def _remember_told(key, seen, actions, first, cleaned, turns) -> list[Settled]:
    if not turns:
        return turns
    log, events = seen["log"], seen["events"]
    newest_entry = len(log)
    while newest_entry and log[newest_entry - 1]["turn"] == turns[0]["turn"]:
        newest_entry -= 1
    begins = log[newest_entry]["seq"] if newest_entry < len(log) else 0
    newest_event = len(events)
    while newest_event and events[newest_event - 1]["seq"] >= begins:
        newest_event -= 1
    seq, old = seen["seq"], _TOLD.get(key)
    before = None
    if old is not None and old.seq == seq:
        before = old.before  # told again at the same seq (another viewer, another drawing)
    elif old is not None and old.seq == seq - 1:
        before = (old.seq, old.turns)
    if len(_TOLD) >= _TOLD_MAX:
        _TOLD.clear()
    _TOLD[key] = _Told(
        actions, list(events), first, cleaned, turns, newest_entry, newest_event, seq, before
    )
    return turns


def log_delta(seen: dict, names: list[str], turns: list[Settled]) -> dict | None:
    """What a push must change in a log drawn one action earlier (at ``seen``'s seq - 1), as
    ``log_turns`` told it then in this process: ``{"base", "newest", "turns"}``, the turn that
    was the newest then (as it is now, grown or cut by the action), and it with the turns begun
    since, newest first: the page puts them in its place. None when the log changed in any
    other way (an older turn changed: a takeback reaching into it, a clean-up that took the
    older entries' cells; a scoring and its breakdown; the game's end) or was not told here one
    action earlier: the push then carries the whole log."""
    key = _told_key([entry["action"] for entry in seen["log"][:1]], names)
    told = _TOLD.get(key) if key else None
    if told is None or told.seq != seen["seq"] or told.turns is not turns or not told.before:
        return None
    base, earlier = told.before
    added = len(turns) - len(earlier)
    if added < 0 or turns[added]["turn"] != earlier[0]["turn"]:
        return None
    if turns[added + 1 :] != earlier[1:]:
        return None
    if any(e["seq"] > base and e["scoring"] for t in turns[: added + 1] for e in t["entries"]):
        return None  # a scoring: its breakdown too
    if seen["finished"]:
        return None
    return {"base": base, "newest": turns[added], "turns": turns[: added + 1]}


# -- a scoring explained -----------------------------------------------------------------------

# Where a player's points come from: the only points of the game are those of its scorings.
PARTS = ("areas", "architects", "glass", "altars", "minority")


def scoring_numbers(seen: dict) -> list[int]:
    """The numbers of the scorings made so far."""
    return [e["number"] for e in seen["events"] if e["kind"] == "scoring"]


def scoring_breakdown(seen: dict, number: int, names: list[str]) -> Settled:
    """Scoring ``number`` explained: each area, who took it and why, what each player earned
    and from what, and the totals before and after; the final one adds the ranking.

    ``{"number", "title", "final", "cathedral" (as scored), "areas": [{"color", "color_name",
    "tiles", "cells", "owner", "owner_name", "tie", "points", "why", "verdict"}], "players":
    [{"seat", "name", "earned", "parts": [{"part", "points", "words"}], "parts_words", "before",
    "after"}],
    "jesters": [words]}``, and if final ``"ranking": [{"seat", "name", "score", "winner"}]``,
    ``"ending"`` and ``"tie_break"`` (words, or "").
    """
    scorings = [e for e in seen["events"] if e["kind"] == "scoring"]
    event = next(e for e in scorings if e["number"] == number)
    # A scoring, once made, is explained the same way on every page (whether it was the final
    # one is known when it is made): by its areas (the engine's, which every view of the game
    # shares), the language and the names.
    return _EXPLAINED.get(
        event["areas"],
        (get_language(), tuple(names)),
        lambda: _explained(seen, event, scorings, names),
    )


_EXPLAINED = KeptFor(1_000)


def _explained(seen: dict, event: dict, scorings: list[dict], names: list[str]) -> Settled:
    words = _event_words()
    number = event["number"]
    before = [sum(e["points"][p] for e in scorings if e["number"] < number) for p in (0, 1)]
    players = []
    for p in (0, 1):
        parts = [
            {
                "part": part,
                "points": points,
                "words": words["part_points"][part] % {"amount": points},
            }
            for part, points in _parts(event["areas"], p).items()
            if points
        ]
        players.append(
            {
                "seat": p,
                "name": names[p],
                "earned": event["points"][p],
                "parts": parts,
                "parts_words": words["parts"].join(part["words"] for part in parts),
                "before": before[p],
                "after": before[p] + event["points"][p],
            }
        )
    breakdown = Settled(
        {
            "number": number,
            "title": _scoring_title(event, seen),
            "final": _is_final(event, seen),
            "cathedral": event["cathedral"],
            "areas": [_area(area, names, words) for area in event["areas"]],
            "players": players,
            "jesters": _jesters(event, names, words),
        }
    )
    if breakdown["final"]:
        breakdown.update(_ranking(seen, names, words))
    return breakdown


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


def _area(area: dict, names: list[str], words: dict) -> dict:
    owner = area["winner"]
    return {
        "color": area["color"],
        "color_name": words["names"].colors[area["color"]],
        "tiles": len(area["cells"]),
        "cells": [cell_key(col, row) for col, row in area["cells"]],
        "owner": owner,
        "owner_name": "" if owner is None else names[owner],
        "tie": owner is None,
        "points": list(area["points"]),
        "why": _why(area, words),
        "verdict": _verdict(area, names, words),
    }


def _why(area: dict, words: dict) -> str:
    """ "6 tiles, doubled by an Architect, +2 stained glass = 14"."""
    tiles = len(area["cells"])
    said = ngettext("%(count)s tile", "%(count)s tiles", tiles) % {"count": tiles}
    if area["architect"]:
        said = words["doubled"] % {"words": said}
    on_altar = area["altar_glass"]
    plain = area["glass"] - 4 * on_altar
    if plain:
        said = words["glass"] % {"words": said, "amount": plain}
    if on_altar:
        said = ngettext(
            "%(words)s, +%(amount)s stained glass on an altar",
            "%(words)s, +%(amount)s stained glass on altars",
            on_altar,
        ) % {"words": said, "amount": 4 * on_altar}
    return f"{said} = {area['value']}"


def _verdict(area: dict, names: list[str], words: dict) -> str:
    """Who took the area and why, and what the other player scored there."""
    strength, owner = area["strength"], area["winner"]
    if owner is None:
        return words["tied_nobody"] % {"first": strength[0], "second": strength[1]}
    name, counts, value = names[owner], _strength(area, owner, words), area["value"]
    if strength[0] == strength[1]:
        verdict = words["strongman"] % {"counts": counts, "name": name, "worth": value}
    elif strength[1 - owner] == 0:
        verdict = words["only"] % {"name": name, "worth": value}
    else:
        verdict = words["majority"] % {"name": name, "counts": counts, "worth": value}
    loser = 1 - owner
    builders = area["builders"][loser]
    if builders:
        verdict = ngettext(
            "%(verdict)s; %(loser)s scores %(amount)s for %(count)s builder",
            "%(verdict)s; %(loser)s scores %(amount)s for %(count)s builders",
            builders,
        ) % {
            "verdict": verdict,
            "loser": names[loser],
            "amount": area["points"][loser],
            "count": builders,
        }
    return verdict + "."


def _strength(area: dict, owner: int, words: dict) -> str:
    strength, builders = area["strength"], area["builders"]
    counts = {"mine": strength[owner], "theirs": strength[1 - owner]}
    return words["counts" if strength == builders else "counts_mason"] % counts


def _jesters(event: dict, names: list[str], words: dict) -> list[str]:
    """Each revealed Jester pick: "Alice's Jester at c0r0 added blue to its red vault"."""
    cells = {cell_key(c["col"], c["row"]): c for c in event["cathedral"]}
    said = []
    for key, color in event["jesters"].items():
        cell = cells[key]
        said.append(
            words["jester"]
            % {
                "owner": names[cell["builder"]["player"]],
                "cell": cell_label(cell["col"], cell["row"]),
                "hue": words["names"].colors[color],
                "face": words["names"].vaults[cell["colors"]],
            }
        )
    return said


def _ranking(seen: dict, names: list[str], words: dict) -> dict:
    end = next(e for e in seen["events"] if e["kind"] == "end")
    scores, winners = end["scores"], end["winners"]
    order = sorted((0, 1), key=lambda p: (p not in winners, -scores[p], p))
    shared = len(winners) == 2
    return {
        "ranking": [
            {"seat": p, "name": names[p], "score": scores[p], "winner": p in winners} for p in order
        ],
        "ending": words[
            "after_third" if end["termination"] == "third scoring" else "after_exhaustion"
        ],
        "tie_break": words["shared"] if shared else "",
    }

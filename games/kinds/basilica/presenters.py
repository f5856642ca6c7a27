"""Shaping a viewer's view of the game for the templates. Rules are never decided here: every
number comes from ``engine.view`` and every clickable thing from ``engine.legal_actions``."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from games.engine import basilica as engine
from games.engine.basilica.components import COLOR_NAMES, ORDER_NAMES, RANK_NAMES
from games.engine.basilica.state import WIDTH
from games.kinds.basilica import help, story
from games.kinds.basilica.choices import Choices, Choosable, label, offer, parse_pick
from games.models import Game

PROMPTS = {
    "main": "Your turn: {actions_left} action{plural} left. Take a vault or an order.",
    "paid": _(
        "Paid order: %(payee)s took %(order)s. Pay %(payee)s 1 coin to %(effect)s: click a "
        "highlighted cell to pay and do it, or decline."
    ),
    "confuse_move": "Confuse: move one of your opponent's builders to a highlighted vault.",
    "second_scaffold": "Scaffolding: place the second scaffold on a highlighted cell.",
    "second_altar": _("Altar: place your second altar on a highlighted vault."),
    "jester": "Scoring: choose the extra colour of your Jester at {cell}. "
    "Your opponent will not see it until the scoring.",
}
# What to click next once a tile is picked, by the order on its back (or "vault").
PICK_HINTS = {
    "vault": "Now choose a highlighted cell for this vault.",
    "promote": "Promote: choose one of your builders, then its new rank.",
    "move": "Move Builder: choose one of your builders, then the vault it moves to.",
    "recruit": "Recruit: choose a vault with no builder.",
    "confuse": "Confuse: choose one of your builders to send home; then an opponent's builder moves.",
    "glass": "Stained Glass: choose a vault with one of your builders.",
    "scaffold": "Scaffolding: choose the cell of the first scaffold.",
    "disaster": "Disaster: choose a vault with no builder to discard.",
    "altar": "Altar: choose a vault for the first altar.",
}
PAID_EFFECTS = {
    "promote": "promote one of your builders to a rank other than {rank}",
    "recruit": "place a builder on an empty vault next to one of yours",
    "confuse": "choose yourself which of your builders moves, and where",
}


def page_context(
    game: Game, state: engine.State, before: engine.State, base: dict, pick: str | None
) -> dict:
    """Basilica's part of the game page for the viewer of ``base`` (the platform's part);
    what changed since ``before`` is marked."""
    seat, names = base["seat"], base["names"]
    shown = _shown(game.engine, base, seat)
    seen = shown(state)
    if game.over and not base.get("replay"):
        # Ended off the board (time, resignation, abort): the engine's state still waits for
        # a decision that will never come.
        seen = {**seen, "decision": None, "to_decide": None}
    choices = Choices()
    deciding = seat is not None and game.status == Game.Status.ACTIVE and seen["to_decide"] == seat
    if deciding and not base.get("replay"):
        confirm = base["prefs"].confirms(live=game.clock_control.live)
        choices = offer(game.engine.legal_actions(state), parse_pick(pick), confirm=confirm)
    changed = last_move(shown(before), seen, names)
    return {
        "view": seen,
        "choices": choices,
        "rows": cathedral_rows(seen, choices, changed),
        "market": market_columns(seen, choices, changed),
        "buttons": prompt_buttons(choices),
        "stack_top": stack_top(seen),
        "players": player_panels(seen, names, seat, base["clocks"], changed),
        "last_move": changed,
        "your_turn": bool(choices.any),
        "track": king_track(seen),
        "track_caption": help.track_caption(seen["edition"], seen["crown_spaces"]),
        "legend": help.legend(seen["edition"], seen["expansion"]),
        "prompt": prompt(seen, seat, names, picking=bool(choices.picked)),
        "hint": confirm_hint(state, choices) or pick_hint(seen, choices),
        "picked": picked_words(seen, choices),
        "preview": preview(seen),
        "turns": story.log_turns(seen, names),
        "scorings": [story.scoring_breakdown(seen, n, names) for n in story.scoring_numbers(seen)],
        "result": result_line(seen, names, seat),
        "deciding_name": names[seen["to_decide"]] if seen["to_decide"] is not None else "",
    }


def _shown(rules, base: dict, seat: int | None):
    """How a state is seen on this page, by the engine of the game's own version: the viewer's
    view, or everything once the game is over and the page is its replay."""
    if base.get("reveal"):
        return rules.reveal
    return lambda state: rules.view(state, seat)


def _cell_label(cell: dict, jester: str | None = None) -> str:
    """What a built cell is, in words that start with what it shows (its letters), so that a
    person who says the letters they see names the cell."""
    if cell["scaffold"]:
        return "scaffolding"
    letters = cell["colors"] + (f"+{jester}" if jester else "")
    parts = [f"{letters}, " + "/".join(COLOR_NAMES[c] for c in cell["colors"]) + " vault"]
    if cell["crown"]:
        parts.append("crowned")
    if cell["builder"]:
        rank = cell["builder"]["rank"]
        who = f"builder of player {cell['builder']['player'] + 1}"
        parts.append(f"{RANK_NAMES[rank]} {who}" if rank else who)
    if cell["glass"]:
        parts.append("stained glass")
    if cell["altar"]:
        parts.append("altar")
    return ", ".join(parts)


PLAYER_NUMBERS = ("score", "coins", "builders", "promotion_tokens", "in_cathedral")


def last_move(before: dict, seen: dict, names: list[str]) -> dict:
    """What the last player to act changed since the other one last acted, as ``viewer`` sees
    it: both views are the engine's views for the same viewer, so nothing hidden shows through.

    ``cells`` and ``slots`` are marked on the board and market until the next move; after a
    scoring (which slides the whole cathedral down) only the scoring itself is shown.
    """
    log = seen["log"]
    if not log:
        return {}
    first = len(before["log"]) + 1
    run = log[first - 1 :]
    scored = any(e["kind"] == "scoring" and e["seq"] >= first for e in seen["events"])
    cells: set[str] = set()
    if not scored:
        old = {(c["col"], c["row"]): c for c in before["cathedral"]}
        new = {(c["col"], c["row"]): c for c in seen["cathedral"]}
        cells = {
            engine.cell_key(col, row)
            for col, row in old.keys() | new.keys()
            if old.get((col, row)) != new.get((col, row))
        }
    slots = {
        (side, i)
        for side in ("orders", "vaults")
        for i, (was, now) in enumerate(
            zip(before["market"][side], seen["market"][side], strict=True)
        )
        if (was or {}).get("id") != (now or {}).get("id")
    }
    numbers = [
        {k for k in PLAYER_NUMBERS if before["players"][p][k] != seen["players"][p][k]}
        for p in (0, 1)
    ]
    player = run[-1]["player"]
    return {
        "player": player,
        "who": names[player] if player is not None else "",
        "first_seq": first,
        "seq": seen["seq"],
        "text": story.move_summary(run, names),
        "cells": cells,
        "slots": slots,
        "numbers": numbers,
        "scored": scored,
    }


def _cell_classes(cell: dict | None, **marks: bool) -> str:
    classes = ["cell"]
    if cell:
        colors = cell["colors"]
        if cell["scaffold"]:
            classes.append("scaffold")
        else:
            classes.append(f"c{colors}")
            if len(colors) > 1:
                classes.append("wild")
    else:
        classes.append("void")
    classes.extend(name for name, on in marks.items() if on)
    return " ".join(classes)


def cathedral_rows(seen: dict, choices: Choices, changed: dict | None = None) -> list[dict]:
    """Rows of the cathedral, the far end first and row 0 (against the board) last:
    ``{"row", "cells", "targets"}``, ``targets`` true when a cell of the row can be chosen (a
    row without targets shows nothing but its cells, and is drawn once for every page)."""
    cells = {(c["col"], c["row"]): c for c in seen["cathedral"]}
    targets = {engine.parse_key(key): ch for key, ch in choices.cells.items()}
    top = max([r for _, r in cells] + [r for _, r in targets] + [0]) + 1
    picked = set(choices.picked_cells)
    new = (changed or {}).get("cells", set())
    rows = []
    for row in range(top, -1, -1):
        line = []
        for col in range(WIDTH):
            key = engine.cell_key(col, row)
            cell = cells.get((col, row))
            choice = targets.get((col, row))
            jester = seen["jester_picks"].get(key)
            shown = _cell_label(cell, jester) if cell else "empty"
            described = f"{engine.cell_label(col, row)}: {shown}"
            classes = _cell_classes(
                cell, target=choice is not None, picked=key in picked, changed=key in new
            )
            line.append(
                {
                    "col": col,
                    "row": row,
                    "key": key,
                    "cell": cell,
                    "choice": choice,
                    "jester": jester,
                    "it": Choosable(
                        choice,
                        classes,
                        ("cell", key),
                        label=f"{described} (choose)" if choice else described,
                        title=described if cell and not choice else "",
                        role="gridcell",
                        plain_role="gridcell",
                        form_class="cellform",
                    ),
                }
            )
        rows.append(
            {"row": row, "cells": line, "targets": any(c["choice"] is not None for c in line)}
        )
    return rows


def market_columns(seen: dict, choices: Choices, changed: dict | None = None) -> list[dict]:
    """The market's three columns, an order above a vault: ``{"order", "vault"}``, each a tile
    as ``_tile.html`` draws it (or None for an empty slot)."""
    slots = (changed or {}).get("slots", set())
    columns = []
    for slot in range(3):
        column = {}
        for side, row in (("order", "orders"), ("vault", "vaults")):
            tile = seen["market"][row][slot]
            column[side] = tile and market_tile(
                tile,
                side,
                seen,
                choice=choices.tiles.get(tile["id"]),
                picked=choices.picked_tile == tile["id"],
                changed=(row, slot) in slots,
            )
        columns.append(column)
    return columns


def market_tile(
    tile: dict, side: str, seen: dict, choice=None, picked: bool = False, changed: bool = False
) -> dict:
    """A tile shown ``side`` up: its face, its name (an order's), and how it is drawn."""
    colors = tile["colors"]
    name = ORDER_NAMES[tile["order"]] if side == "order" else ""
    classes = ["tile", side]
    if side == "vault":
        classes.append(f"c{colors}")
        if len(colors) > 1:
            classes.append("wild")
    classes.extend(
        mark
        for mark, on in (
            ("choosable", choice),
            ("picked", picked and not choice),
            ("changed", changed),
        )
        if on
    )
    paid = " (paid)" if tile.get("paid") else ""
    crowned = ", crowned" if tile["crown"] else ""
    # The name starts with what the tile shows (an order's name and its vault's letters), the
    # words a person using voice control says to choose it.
    if side == "order":
        label = f"{name} {colors}: order tile{paid}, vault side {colors}{crowned}"
    else:
        label = f"{colors}: vault tile{crowned}"
    return {
        "tile": tile,
        "side": side,
        "name": name,
        "it": Choosable(
            choice,
            " ".join(classes),
            ("tile", tile["id"]),
            label=f"{label} (choose)" if choice else label,
            title=tile_tip(tile, seen, side),
            plain_role="img",
            form_class="inline tileform",
        ),
    }


def prompt_buttons(choices: Choices) -> list[Choosable]:
    """The prompt's buttons (a rank, a colour, "Confirm this move"...): their text is their
    choice's label."""
    return [
        Choosable(
            button,
            "button choice confirm" if button.token == "confirm" else "button choice",
            ("token", button.token),
        )
        for button in choices.buttons
    ]


def stack_top(seen: dict) -> dict | None:
    """The tile on top of the stack, order side up for both players (RULINGS.md §3): what the
    next order drawn into the market will be. Only the view's face of it, nothing below."""
    tile = seen["stack_top"]
    return market_tile(tile, "order", seen) if tile is not None else None


def tile_tip(tile: dict, seen: dict, side: str) -> str:
    """The tooltip of a market tile: what taking it does, in the words of the game's own rules
    version (games.kinds.basilica.help)."""
    edition = seen["edition"]
    vault = help.vault_help(tile["colors"], tile["crown"], edition)
    if side == "vault":
        return vault
    does = help.order_help(
        tile["order"], edition, seen["expansion"], tile["paid"], seen["rules_version"]
    )
    return f"{does} Its other side: {vault}"


def player_panels(
    seen: dict,
    names: list[str],
    seat: int | None,
    seat_clocks: list[dict],
    changed: dict | None = None,
) -> list[dict]:
    numbers = (changed or {}).get("numbers", [set(), set()])
    return [
        {
            "changed": numbers[p],
            "seat": p,
            "clock": seat_clocks[p],
            "name": names[p],
            "you": p == seat,
            "active": seen["active_player"] == p and not seen["finished"],
            "deciding": seen["to_decide"] == p,
            "note": turn_note(seen, p),
            **seen["players"][p],
        }
        for p in (0, 1)
    ]


FOLLOW_UP_NOTES = {
    "paid": "to answer the paid-order offer",
    "jester": "to choose a Jester colour for the scoring",
    "confuse_move": "to finish the Confuse order",
    "second_scaffold": "to place the second scaffold",
    "second_altar": _("to place the second altar"),
}
# Version 1 of the rules let the player stop after the first altar.
VERSION_1_PROMPTS = {
    "second_altar": _("Altar: place a second altar on a highlighted vault, or stop at one."),
}
VERSION_1_NOTES = {"second_altar": _("to place a second altar, or not")}


def turn_note(seen: dict, player: int) -> str:
    """What the player's panel says about whose move it is."""
    decision = seen["decision"]
    if decision is None:
        return ""
    left = seen["actions_left"]
    actions = f"{left} action{'' if left == 1 else 's'} left"
    if seen["to_decide"] == player:
        if decision["kind"] == "main":
            return f"to play: {actions}"
        if decision["kind"] in VERSION_1_NOTES and seen["rules_version"] == "1":
            return VERSION_1_NOTES[decision["kind"]]
        return FOLLOW_UP_NOTES[decision["kind"]]
    if seen["active_player"] == player:
        if decision["kind"] == "jester":
            return "waiting for the opponent's Jester colour"
        return f"on turn, waiting for the opponent's answer: {actions}"
    return ""


def king_track(seen: dict) -> list[dict]:
    last = seen["crown_spaces"][-1]
    return [
        {
            "space": space,
            "crown": space in seen["crown_spaces"],
            "monarch": space == seen["king"],
        }
        for space in range(last + 1)
    ]


def prompt(seen: dict, seat: int | None, names: list[str], picking: bool = False) -> str:
    decision = seen["decision"]
    if decision is None or seat is None or seen["to_decide"] != seat:
        return ""
    kind = decision["kind"]
    if kind == "main":
        left = seen["actions_left"]
        text = PROMPTS["main"].format(actions_left=left, plural="" if left == 1 else "s")
        return text.split(". ")[0] + "." if picking else text  # the hint says what comes next
    if kind == "paid":
        effect = PAID_EFFECTS[decision["order"]].format(
            rank=RANK_NAMES.get(decision.get("rank"), "")
        )
        return PROMPTS["paid"] % {
            "payee": names[1 - seat],  # the player on turn, who took the order
            "order": ORDER_NAMES[decision["order"]],
            "effect": effect,
        }
    if kind == "jester":
        return PROMPTS["jester"].format(cell=engine.cell_label(*decision["at"]))
    if kind in VERSION_1_PROMPTS and seen["rules_version"] == "1":
        return VERSION_1_PROMPTS[kind]
    return PROMPTS[kind]


def _market_tile(seen: dict, tile_id: int) -> tuple[str, dict] | None:
    for side in ("orders", "vaults"):
        for tile in seen["market"][side]:
            if tile and tile["id"] == tile_id:
                return side, tile
    return None


def pick_hint(seen: dict, choices: Choices) -> str:
    if choices.picked_tile is None:
        return ""
    found = _market_tile(seen, choices.picked_tile)
    if found is None:
        return ""
    side, tile = found
    return PICK_HINTS["vault" if side == "vaults" else tile["order"]]


def confirm_hint(state: engine.State, choices: Choices) -> str:
    if choices.confirming is None:
        return ""
    return f"Your move: {engine.describe_action(state, choices.confirming)}. Send it?"


def picked_words(seen: dict, choices: Choices) -> list[str]:
    """The steps picked so far, in words ("Disaster", "c2r1", "Architect")."""
    words = []
    for token in choices.picked:
        kind, _, value = token.partition(":")
        found = _market_tile(seen, int(value)) if kind == "tile" and value.isdigit() else None
        if found:
            side, tile = found
            name = (
                "/".join(tile["colors"]) + " vault"
                if side == "vaults"
                else ORDER_NAMES[tile["order"]]
            )
            words.append(name)
        else:
            words.append(label(token))
    return words


def preview(seen: dict) -> dict:
    """The "if scored now" preview of every area and who would take it (no Jester colours);
    once the game is over, the final scoring as it was made."""
    if seen["finished"]:
        final = next((e for e in reversed(seen["events"]) if e["kind"] == "scoring"), None)
        if final:
            return {"title": "Final scoring", "points": final["points"], "areas": final["areas"]}
    return {"title": "If scored now", **engine.score_cathedral(seen["cathedral"]).to_json()}


def result_line(seen: dict, names: list[str], seat: int | None) -> str:
    if not seen["finished"]:
        return ""
    scores = [p["score"] for p in seen["players"]]
    winners = seen["winners"]
    how = (
        "after the third scoring"
        if seen["termination"] == "third scoring"
        else "when the stack ran out"
    )
    if len(winners) == 2:
        return f"A shared victory at {scores[0]} points each, {how}."
    winner = winners[0]
    if seat is not None:
        verdict = "You won" if winner == seat else "You lost"
        return f"{verdict}, {scores[seat]} to {scores[1 - seat]}, {how}."
    return f"{names[winner]} won, {scores[winner]} to {scores[1 - winner]}, {how}."


def hint_marks(state: engine.State, action: engine.Action) -> dict:
    """The market tile and the cells of the cathedral that ``action`` names."""
    cells = [engine.cell_key(*pos) for pos in (action.at, action.to) if pos is not None]
    return {"cells": cells, "tiles": [] if action.tile is None else [str(action.tile)]}

"""Shaping a viewer's view of the game for the templates. Rules are never decided here: every
number comes from ``engine.view`` and every clickable thing from ``engine.legal_actions``."""

from __future__ import annotations

from django.utils.translation import get_language, ngettext, pgettext
from django.utils.translation import gettext as _

from games.engine import basilica as engine
from games.engine.basilica.components import ARCHITECT, JESTER, MASON, STRONGMAN
from games.engine.basilica.state import WIDTH
from games.kinds.basilica import help, page_words, story
from games.kinds.basilica.choices import Choices, Choosable, label, offer, parse_pick
from games.kinds.basilica.names import names as game_names
from games.kinds.basilica.names import per_language
from games.models import Game
from games.settled import KeptFor, Settled, SettledList
from games.words import say


@per_language
def _words() -> dict:
    """What the page says to the player, in the active language."""
    return {
        "names": game_names(),
        "take": _("Take a vault or an order."),
        "paid": {
            "promote": _(
                "Paid order: %(payee)s took Promote. Pay %(payee)s 1 coin to promote one of your "
                "builders to a rank other than %(title)s: click a highlighted cell to pay and do "
                "it, or decline."
            ),
            "recruit": _(
                "Paid order: %(payee)s took Recruit. Pay %(payee)s 1 coin to place a builder on "
                "an empty vault next to one of yours: click a highlighted cell to pay and do it, "
                "or decline."
            ),
            "confuse": _(
                "Paid order: %(payee)s took Confuse. Pay %(payee)s 1 coin to choose yourself "
                "which of your builders moves, and where: click a highlighted cell to pay and do "
                "it, or decline."
            ),
        },
        "prompts": {
            "confuse_move": _(
                "Confuse: move one of your opponent's builders to a highlighted vault."
            ),
            "second_scaffold": _("Scaffolding: place the second scaffold on a highlighted cell."),
            "second_altar": _("Altar: place your second altar on a highlighted vault."),
        },
        "jester": _(
            "Scoring: choose the extra colour of your Jester at %(cell)s. Your opponent will "
            "not see it until the scoring."
        ),
        # Version 1 of the rules let the player stop after the first altar.
        "version_1_prompts": {
            "second_altar": _(
                "Altar: place a second altar on a highlighted vault, or stop at one."
            ),
        },
        # What to click next once a tile is picked, by the order on its back (or "vault").
        "pick_hints": {
            "vault": _("Now choose a highlighted cell for this vault."),
            "promote": _("Promote: choose one of your builders, then its new rank."),
            "move": _("Move Builder: choose one of your builders, then the vault it moves to."),
            "recruit": _("Recruit: choose a vault with no builder."),
            "confuse": _(
                "Confuse: choose one of your builders to send home; then an opponent's builder "
                "moves."
            ),
            "glass": _("Stained Glass: choose a vault with one of your builders."),
            "scaffold": _("Scaffolding: choose the cell of the first scaffold."),
            "disaster": _("Disaster: choose a vault with no builder to discard."),
            "altar": _("Altar: choose a vault for the first altar."),
        },
        "notes": {
            "paid": _("to answer the paid-order offer"),
            "jester": _("to choose a Jester colour for the scoring"),
            "confuse_move": _("to finish the Confuse order"),
            "second_scaffold": _("to place the second scaffold"),
            "second_altar": _("to place the second altar"),
        },
        "version_1_notes": {"second_altar": _("to place a second altar, or not")},
        "jester_waiting": _("waiting for the opponent's Jester colour"),
        "confirm": _("Your move: %(move)s. Send it?"),
        "picked_vault": _("%(letters)s vault"),
        "if_scored": _("If scored now"),
        "final_scoring": _("Final scoring"),
        "other_side": _("%(does)s Its other side: %(face)s"),
        # The board's labels, read out for each cell: its letters come first, as shown.
        "cell": _("%(cell)s: %(what)s"),
        "choose": _("%(label)s (choose)"),
        "empty": pgettext("a cell of the cathedral", "empty"),
        "scaffolding": pgettext("a cell of the cathedral", "scaffolding"),
        "crowned": pgettext("a vault", "crowned"),
        "glass": pgettext("a vault", "stained glass"),
        "altar": pgettext("a vault", "altar"),
        "builder": _("builder of player %(number)s"),
        "ranked": {
            ARCHITECT: _("Architect builder of player %(number)s"),
            MASON: _("Master Mason builder of player %(number)s"),
            STRONGMAN: _("Strongman builder of player %(number)s"),
            JESTER: _("Jester builder of player %(number)s"),
        },
        # A market tile, by its side, whether it has the paid-order box and a crown.
        "order_tile": {
            (False, False): _("%(name)s %(letters)s: order tile, vault side %(letters)s"),
            (True, False): _("%(name)s %(letters)s: order tile (paid), vault side %(letters)s"),
            (False, True): _("%(name)s %(letters)s: order tile, vault side %(letters)s, crowned"),
            (True, True): _(
                "%(name)s %(letters)s: order tile (paid), vault side %(letters)s, crowned"
            ),
        },
        "vault_tile": {
            False: _("%(letters)s: vault tile"),
            True: _("%(letters)s: vault tile, crowned"),
        },
        "track": {
            "queen": _(
                "The queen's track: the queen stands on space %(number)s; scorings happen at "
                "spaces %(numbers)s"
            ),
            "king": _(
                "The king's track: the king stands on space %(number)s; scorings happen at "
                "spaces %(numbers)s"
            ),
        },
        "monarch_space": {
            "queen": _("the queen, on space %(number)s"),
            "king": _("the king, on space %(number)s"),
        },
        "crown_space": {
            "queen": _("space %(number)s: a scoring when the queen reaches it"),
            "king": _("space %(number)s: a scoring when the king reaches it"),
        },
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
    picked = picked_words(seen, choices)
    scored = _preview_of(state, seen)
    rows = _cathedral_of(state, seen, choices, changed)
    market = _market_of(state, seen, choices, changed)
    turns = story.log_turns(seen, names)
    return {
        "words": page_words.words(),
        "says": page_words.sentences(game, seen, names, seat, picked),
        "view": seen,
        "choices": choices,
        "rows": rows,
        # Nothing to choose on the board or in the market: each is drawn once per content for
        # every viewer who sees it alike (a fragment whose value is kept with the state).
        "settled_rows": type(rows) is SettledList,
        "market": market,
        "settled_market": type(market) is SettledList,
        "buttons": prompt_buttons(choices),
        "stack_top": stack_top(seen),
        "players": player_panels(seen, names, seat, base["clocks"], changed),
        "last_move": changed,
        "your_turn": bool(choices.any),
        # All the track's figure shows, in one value: drawn once per content (a fragment).
        "track": {
            "spaces": king_track(seen),
            "label": track_label(seen),
            "caption": help.track_caption(seen["edition"], seen["crown_spaces"]),
        },
        "legend": help.legend(seen["edition"], seen["expansion"]),
        "prompt": prompt(seen, seat, names, picking=bool(choices.picked)),
        "hint": confirm_hint(state, choices) or pick_hint(seen, choices),
        "picked": picked,
        "preview": {**scored, "summary": page_words.preview_summary(scored, names)},
        "turns": turns,
        # A push to a page drawn one action earlier carries only the log's turns that changed.
        "log_delta": (
            story.log_delta(seen, names, turns) if base.get("pushed") and not game.over else None
        ),
        "scorings": [story.scoring_breakdown(seen, n, names) for n in story.scoring_numbers(seen)],
        "result": result_line(seen, names, seat),
    }


def _shown(rules, base: dict, seat: int | None):
    """How a state is seen on this page, by the engine of the game's own version: the viewer's
    view, or everything once the game is over and the page is its replay."""
    if base.get("reveal"):
        return rules.reveal
    return lambda state: rules.view(state, seat)


def _cell_label(cell: dict, jester: str | None, words: dict) -> str:
    """What a built cell is, in words that start with what it shows (its letters), so that a
    person who says the letters they see names the cell."""
    if cell["scaffold"]:
        return words["scaffolding"]
    letters = cell["colors"] + (f"+{jester}" if jester else "")
    parts = [f"{letters}, {words['names'].vaults[cell['colors']]}"]
    if cell["crown"]:
        parts.append(words["crowned"])
    if cell["builder"]:
        rank = cell["builder"]["rank"]
        said = words["ranked"][rank] if rank else words["builder"]
        parts.append(said % {"number": cell["builder"]["player"] + 1})
    if cell["glass"]:
        parts.append(words["glass"])
    if cell["altar"]:
        parts.append(words["altar"])
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
    if not run:
        return {}  # nothing since a takeback (games.play.states.since_start)
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


# The cathedral's rows with nothing to choose, by the state, the language, the Jester colours
# the viewer may see and the cells marked changed: a move's drawings without choices (the
# opponent's push, the spectators', most answers) draw one cathedral once.
_CATHEDRALS = KeptFor(300)  # some 20 KB each


def _cathedral_of(state, seen: dict, choices: Choices, changed: dict) -> list[dict]:
    if choices.cells or choices.picked_cells:
        return cathedral_rows(seen, choices, changed)
    marked = tuple(sorted(changed.get("cells", ())))
    picks = tuple(sorted(seen["jester_picks"].items()))
    return _CATHEDRALS.get(
        state,
        (get_language(), picks, marked),
        lambda: SettledList(Settled(line) for line in cathedral_rows(seen, choices, changed)),
    )


# The market with nothing to choose, by the state, the language, the slots marked changed and
# the stack's top tile as this viewer sees it (a replay's reveal may show more than a live page).
_MARKETS = KeptFor(300)


def _market_of(state, seen: dict, choices: Choices, changed: dict) -> list[dict]:
    if choices.tiles or choices.picked_tile is not None:
        return market_columns(seen, choices, changed)
    slots = tuple(sorted(changed.get("slots", ())))
    top = seen["stack_top"]
    return _MARKETS.get(
        state,
        (get_language(), slots, top and top["id"]),
        lambda: SettledList(Settled(column) for column in market_columns(seen, choices, changed)),
    )


def cathedral_rows(seen: dict, choices: Choices, changed: dict | None = None) -> list[dict]:
    """Rows of the cathedral, the far end first and row 0 (against the board) last:
    ``{"row", "cells", "targets"}``, ``targets`` true when a cell of the row can be chosen (a
    row without targets shows nothing but its cells, and is drawn once for every page)."""
    cells = {(c["col"], c["row"]): c for c in seen["cathedral"]}
    targets = {engine.parse_key(key): ch for key, ch in choices.cells.items()}
    top = max([r for _, r in cells] + [r for _, r in targets] + [0]) + 1
    picked = set(choices.picked_cells)
    new = (changed or {}).get("cells", set())
    words = _words()
    empty, described, choose = words["empty"], words["cell"], words["choose"]
    rows = []
    for row in range(top, -1, -1):
        line = []
        for col in range(WIDTH):
            key = engine.cell_key(col, row)
            cell = cells.get((col, row))
            choice = targets.get((col, row))
            jester = seen["jester_picks"].get(key)
            shown = _cell_label(cell, jester, words) if cell else empty
            said = described % {"cell": engine.cell_label(col, row), "what": shown}
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
                        label=choose % {"label": said} if choice else said,
                        title=said if cell and not choice else "",
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
    words = _words()
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
                words=words,
            )
        columns.append(column)
    return columns


def market_tile(
    tile: dict,
    side: str,
    seen: dict,
    choice=None,
    picked: bool = False,
    changed: bool = False,
    words: dict | None = None,
) -> dict:
    """A tile shown ``side`` up: its face, its name (an order's), and how it is drawn."""
    words = words or _words()
    colors = tile["colors"]
    name = words["names"].orders[tile["order"]] if side == "order" else ""
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
    # The name starts with what the tile shows (an order's name and its vault's letters), the
    # words a person using voice control says to choose it.
    if side == "order":
        said = words["order_tile"][bool(tile.get("paid")), tile["crown"]]
        label = said % {"name": name, "letters": colors}
    else:
        label = words["vault_tile"][tile["crown"]] % {"letters": colors}
    return {
        "tile": tile,
        "side": side,
        "name": name,
        "it": Choosable(
            choice,
            " ".join(classes),
            ("tile", tile["id"]),
            label=words["choose"] % {"label": label} if choice else label,
            title=tile_tip(tile, seen, side, words),
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


def tile_tip(tile: dict, seen: dict, side: str, words: dict | None = None) -> str:
    """The tooltip of a market tile: what taking it does, in the words of the game's own rules
    version (games.kinds.basilica.help)."""
    edition = seen["edition"]
    vault = help.vault_help(tile["colors"], tile["crown"], edition)
    if side == "vault":
        return vault
    does = help.order_help(
        tile["order"], edition, seen["expansion"], tile["paid"], seen["rules_version"]
    )
    return (words or _words())["other_side"] % {"does": does, "face": vault}


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
            "words": page_words.supply(seen["players"][p]),
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


def turn_note(seen: dict, player: int) -> str:
    """What the player's panel says about whose move it is."""
    decision = seen["decision"]
    if decision is None:
        return ""
    words, kind, left = _words(), decision["kind"], seen["actions_left"]
    if seen["to_decide"] == player:
        if kind == "main":
            return ngettext(
                "to play: %(count)s action left", "to play: %(count)s actions left", left
            ) % {"count": left}
        if kind in words["version_1_notes"] and seen["rules_version"] == "1":
            return words["version_1_notes"][kind]
        return words["notes"][kind]
    if seen["active_player"] == player:
        if kind == "jester":
            return words["jester_waiting"]
        return ngettext(
            "on turn, waiting for the opponent's answer: %(count)s action left",
            "on turn, waiting for the opponent's answer: %(count)s actions left",
            left,
        ) % {"count": left}
    return ""


def king_track(seen: dict) -> list[dict]:
    """The spaces of the monarch's track: a crown space and the monarch's own say what they are
    (``title``)."""
    words, monarch, crowns = _words(), seen["monarch"], seen["crown_spaces"]
    track = []
    for space in range(crowns[-1] + 1):
        title = ""
        if space == seen["king"]:
            title = words["monarch_space"][monarch] % {"number": space}
        elif space in crowns:
            title = words["crown_space"][monarch] % {"number": space}
        track.append(
            {
                "space": space,
                "crown": space in crowns,
                "monarch": space == seen["king"],
                "title": title,
            }
        )
    return track


def track_label(seen: dict) -> str:
    """The track in words, for a reader that does not see it."""
    spaces = ", ".join(str(space) for space in seen["crown_spaces"])
    return _words()["track"][seen["monarch"]] % {"number": seen["king"], "numbers": spaces}


def prompt(seen: dict, seat: int | None, names: list[str], picking: bool = False) -> str:
    decision = seen["decision"]
    if decision is None or seat is None or seen["to_decide"] != seat:
        return ""
    words, kind = _words(), decision["kind"]
    if kind == "main":
        left = seen["actions_left"]
        text = ngettext(
            "Your turn: %(count)s action left.", "Your turn: %(count)s actions left.", left
        ) % {"count": left}
        return text if picking else f"{text} {words['take']}"  # the hint says what comes next
    if kind == "paid":
        rank = decision.get("rank")
        return words["paid"][decision["order"]] % {
            "payee": names[1 - seat],  # the player on turn, who took the order
            "title": words["names"].ranks.get(rank, ""),
        }
    if kind == "jester":
        return words["jester"] % {"cell": engine.cell_label(*decision["at"])}
    if kind in words["version_1_prompts"] and seen["rules_version"] == "1":
        return words["version_1_prompts"][kind]
    return words["prompts"][kind]


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
    return _words()["pick_hints"]["vault" if side == "vaults" else tile["order"]]


def confirm_hint(state: engine.State, choices: Choices) -> str:
    if choices.confirming is None:
        return ""
    move = say(engine.describe_action(state, choices.confirming))
    return _words()["confirm"] % {"move": move}


def picked_words(seen: dict, choices: Choices) -> list[str]:
    """The steps picked so far, in words ("Disaster", "c2r1", "Architect")."""
    said, words = [], _words()
    for token in choices.picked:
        kind, _colon, value = token.partition(":")
        found = _market_tile(seen, int(value)) if kind == "tile" and value.isdigit() else None
        if found:
            side, tile = found
            if side == "vaults":
                said.append(words["picked_vault"] % {"letters": "/".join(tile["colors"])})
            else:
                said.append(words["names"].orders[tile["order"]])
        else:
            said.append(label(token))
    return said


# The preview by state and language: it shows no Jester colour, so every viewer of a state reads
# the same one.
_PREVIEWS = KeptFor(300)


def _preview_of(state, seen: dict) -> dict:
    return _PREVIEWS.get(state, (get_language(),), lambda: preview(seen))


def preview(seen: dict) -> dict:
    """The "if scored now" preview of every area and who would take it (no Jester colours);
    once the game is over, the final scoring as it was made."""
    if seen["finished"]:
        final = next((e for e in reversed(seen["events"]) if e["kind"] == "scoring"), None)
        if final:
            title = _words()["final_scoring"]
            return {"title": title, "points": final["points"], "areas": final["areas"]}
    title = _words()["if_scored"]
    return {"title": title, **engine.score_cathedral(seen["cathedral"]).to_json()}


def result_line(seen: dict, names: list[str], seat: int | None) -> str:
    if not seen["finished"]:
        return ""
    scores = [p["score"] for p in seen["players"]]
    winners = seen["winners"]
    third = seen["termination"] == "third scoring"
    if len(winners) == 2:
        if third:
            said = ngettext(
                "A shared victory at %(score)s point each, after the third scoring.",
                "A shared victory at %(score)s points each, after the third scoring.",
                scores[0],
            )
        else:
            said = ngettext(
                "A shared victory at %(score)s point each, when the stack ran out.",
                "A shared victory at %(score)s points each, when the stack ran out.",
                scores[0],
            )
        return said % {"score": scores[0]}
    winner = winners[0]
    if seat is not None:
        mine = {"mine": scores[seat], "theirs": scores[1 - seat]}
        if winner == seat:
            if third:
                return _("You won, %(mine)s to %(theirs)s, after the third scoring.") % mine
            return _("You won, %(mine)s to %(theirs)s, when the stack ran out.") % mine
        if third:
            return _("You lost, %(mine)s to %(theirs)s, after the third scoring.") % mine
        return _("You lost, %(mine)s to %(theirs)s, when the stack ran out.") % mine
    won = {"winner": names[winner], "score": scores[winner], "other": scores[1 - winner]}
    if third:
        return _("%(winner)s won, %(score)s to %(other)s, after the third scoring.") % won
    return _("%(winner)s won, %(score)s to %(other)s, when the stack ran out.") % won


def hint_marks(state: engine.State, action: engine.Action) -> dict:
    """The market tile and the cells of the cathedral that ``action`` names."""
    cells = [engine.cell_key(*pos) for pos in (action.at, action.to) if pos is not None]
    return {"cells": cells, "tiles": [] if action.tile is None else [str(action.tile)]}

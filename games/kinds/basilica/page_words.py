"""The game page's own words: its headings, labels and notes, and the sentences around its
numbers, for ``templates/games/basilica/game.html``.

The page and its partials are drawn for every move and every push: a ``{% translate %}`` tag
costs some 20 µs and a ``{% blocktranslate %}`` 40 to 60, so the page's forty-odd words are
looked up here once per language (``words()``) and its counted sentences formatted from them
(``sentences()``), and the template shows them as plain values. The pieces of the page that are
kept once drawn (a turn of the log, a scoring, a row of the cathedral) keep their translation
tags: those are drawn once.
"""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import ngettext, npgettext, pgettext

from games.kinds.basilica.names import per_language


@per_language
def words() -> dict[str, str]:
    """The page's words that take no number, in the active language."""
    return {
        "your_turn": _("Your turn"),
        "replay": _("Replay"),
        "record_json": _("Record (JSON)"),
        "record_text": _("Log (text)"),
        "imported": _("imported for study"),
        "talked": _(
            "Not live: this page sent the server something a game page never sends, and was cut "
            "off. Reload the page to follow the game again."
        ),
        "too_many": _(
            "Not live: too many pages of this site are open here (in other tabs, or from others "
            "on your network). Close one, then reload this page."
        ),
        "connecting": _("Connecting…"),
        "close": _("Close"),
        "status": _("Players and turn"),
        "last_move": _("Last move:"),
        "decision": _("Your decision"),
        "start_over": _("start over"),
        "escape": _("(Esc)"),
        "you": _("(you)"),
        "supply": _("builders in supply"),
        "market": _("Market"),
        "market_note": _(
            "Orders above, vaults below. Taking a vault slides the order above it down as a vault."
        ),
        "scaffold": pgettext("the word on a scaffold of the cathedral", "scaffold"),
        "cathedral": _("The cathedral"),
        "cathedral_grid": _("The cathedral, row 0 against the board at the bottom"),
        "log_section": _("Game log and scoring preview"),
        "tie": _("tie: nobody"),
        "area": _("Area"),
        "tiles": _("Tiles"),
        "strength": _("Strength"),
        "value": _("Value"),
        "taken_by": _("Taken by"),
        "no_builder_yet": _("No area has a builder yet."),
        "jesters_later": _("Jester colours are chosen at the scoring and are not in this preview."),
        "scorings": _("Scorings"),
        "log": _("Log"),
        "log_keys": _("Log, newest first: the up and down arrow keys go through its entries"),
        # Sentences with a name or a number, formatted by sentences().
        "game": _("Game %(number)s"),
        "heading": _("Game %(number)s: %(name0)s vs %(name1)s"),
        "edition": _("%(edition)s edition"),
        "edition_expansion": _("%(edition)s edition, Festum Fatuorum"),
        "rules_version": _("rules version %(version)s"),
        "picked": _("Picked: %(steps)s"),
        "waiting": _("Waiting for %(name)s to decide."),
        "watching": _("You are watching this game: %(name)s is deciding."),
        "in_cathedral": _("%(count)s in the cathedral"),
        "counts": _("Turn %(number)s · scorings %(done)s/%(all)s · discard %(pile)s"),
        "preview": _("%(title)s: %(name0)s %(score0)s, %(name1)s %(score1)s"),
    }


def sentences(game, seen: dict, names: list[str], seat: int | None, picked: list[str]) -> dict:
    """The page's sentences for this viewer: its title and heading, whom it waits for, the
    steps picked, the counts under the track and the stack's size."""
    said = words()
    deciding = seen["to_decide"]
    name = names[deciding] if deciding is not None else ""
    stack = seen["stack_count"]
    if seen["reshuffled"]:
        stack_words = ngettext(
            "stack: %(count)s tile (reshuffled once)",
            "stack: %(count)s tiles (reshuffled once)",
            stack,
        )
    else:
        stack_words = ngettext("stack: %(count)s tile", "stack: %(count)s tiles", stack)
    counts = said["counts"] % {
        "number": seen["turn"],
        "done": seen["scorings"],
        "all": len(seen["crown_spaces"]),
        "pile": seen["discard_count"],
    }
    if seen["expansion"]:
        altars = seen["altars_left"]
        counts += " · " + (
            ngettext("%(count)s altar left", "%(count)s altars left", altars) % {"count": altars}
        )
    edition = said["edition_expansion" if seen["expansion"] else "edition"]
    return {
        "title": said["game"] % {"number": game.pk},
        "heading": said["heading"] % {"number": game.pk, "name0": names[0], "name1": names[1]},
        "edition": edition % {"edition": seen["edition"]},
        "rules_version": said["rules_version"] % {"version": seen["rules_version"]},
        "picked": said["picked"] % {"steps": " → ".join(picked)} if picked else "",
        "waiting": said["waiting" if seat is not None else "watching"] % {"name": name},
        "counts": counts,
        "stack": stack_words % {"count": stack},
        "stack_top": ngettext(
            "Top of the stack (%(count)s tile), order side up: the next order to come.",
            "Top of the stack (%(count)s tiles), order side up: the next order to come.",
            stack,
        )
        % {"count": stack},
    }


def supply(player: dict) -> dict[str, str]:
    """A player's panel in words: the word after their score, their builders, tokens and coins."""
    builders, tokens, coins = player["builders"], player["promotion_tokens"], player["coins"]
    return {
        "points": npgettext("after a player's score", "point", "points", player["score"]),
        "builders": ngettext(
            "%(count)s builder in supply", "%(count)s builders in supply", builders
        )
        % {"count": builders},
        "in_cathedral": words()["in_cathedral"] % {"count": player["in_cathedral"]},
        "tokens": ngettext("%(count)s promotion token", "%(count)s promotion tokens", tokens)
        % {"count": tokens},
        "coins": ngettext("%(count)s coin", "%(count)s coins", coins) % {"count": coins},
    }


def preview_summary(preview: dict, names: list[str]) -> str:
    """The preview's line: "If scored now: Alice 4, Bob 2"."""
    points = preview["points"]
    return words()["preview"] % {
        "title": preview["title"],
        "name0": names[0],
        "score0": points[0],
        "name1": names[1],
        "score1": points[1],
    }

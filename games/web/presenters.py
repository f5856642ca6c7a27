"""The game page's context: the platform's part (seats, clocks, endings, rematch), whatever the
game, and the game kind's part from its own presenter (``games.kinds``). Rules are never decided
here: every number comes from the engine's ``view`` and every clickable thing from its
``legal_actions``."""

from __future__ import annotations

from functools import lru_cache

from django.urls import reverse
from django.utils.translation import get_language, pgettext
from django.utils.translation import gettext as _

from games import clock, kinds
from games.models import Game, PlayerSettings, player_name
from games.play import referee, series, services, states, takebacks, timing, vacation
from games.ratings import service as ratings


def seat_names(game: Game) -> list[str]:
    if game.imported:
        return list(game.imported_names)
    return [player_name(u, missing="…") for u in (game.seat0, game.seat1)]


def game_context(
    game: Game,
    state,
    user,
    pick: str | None = None,
    replay: bool = False,
    reveal: bool = False,
    pushed: bool = False,
) -> dict:
    """Everything the game page and its partials show to ``user``: the platform's part (players,
    clocks, how the game ended, rematch) and the game kind's (board, prompt, log). ``pushed``:
    for a socket's push, which may carry only what changed since the action before."""
    seat = game.seat_of(user)
    prefs = PlayerSettings.of(user) if seat is not None else PlayerSettings()
    if game.termination == referee.TERMINATION:
        ending = referee.referee_line(game)
    elif game.termination in services.ENDINGS:
        ending = services.ending_words(game)
    else:
        ending = ""
    base = {
        "game": game,
        "kind": kinds.of(game),
        "seat": seat,
        "names": seat_names(game),
        "prefs": prefs,
        "sound": prefs.sound,
        "ending": ending,
        "lost": seat is not None and game.over and game.result_for(game.player(seat)) == "lost",
        "over": game.over,
        "in_play": game.status == Game.Status.ACTIVE,
        "control": game.clock_control,
        "clocks": clocks(game),
        "can_abort": services.can_abort(game, seat),
        "rematch": rematch_state(game, seat),
        "series_line": series.line(game) if game.series_id else "",
        "rated_label": game.rated_label,
        "rating_changes": ratings.changes_of(game),
        "replay": replay,
        "reveal": reveal,
        "pushed": pushed,
        "page_words": page_words(),
        "hints_offered": (
            not replay
            and seat is not None
            and game.status == Game.Status.ACTIVE
            and game.to_decide == seat
            and game.allows_hints()
        ),
    }
    if not replay:
        base["takeback"] = takebacks.offer(game, seat)
        base["taken_back_note"] = takebacks.last_taken_back(state, base["names"])
    before = states.load_run_start(game, state, seat)  # what the page marks as changed
    context = {**base, **base["kind"].page_context(game, state, before, base, pick)}
    if not replay:
        context["since"] = since_your_last_move(
            game, state, seat, context["view"], base["kind"], base["names"]
        )
    if ending:
        context["result"] = ending_line(game, seat, ending)
    return context


def ending_line(game: Game, seat: int | None, ending: str) -> str:
    """The banner of a game ended by time, resignation or abort."""
    if game.status == Game.Status.ABORTED or seat is None:
        return ending
    if game.ended_by == seat:
        return _("You lost: %(ending)s") % {"ending": ending}
    return _("You won: %(ending)s") % {"ending": ending}


def clocks(game: Game) -> list[dict]:
    """Each seat's clock as the page shows it and counts it down."""
    control = game.clock_control
    reading = timing.read(game)
    out = []
    for seat in (0, 1):
        left = reading.remaining[seat]
        away = vacation.on_vacation_until(game.player(seat)) if control.correspondence else None
        paused = reading.running == seat and reading.paused
        # Back from a vacation spent to save this game: its clock keeps the day (vacation.end).
        held = vacation.held_until(game.player(seat), game) if paused and not away else None
        out.append(
            {
                "timed": left is not None,
                "seconds": int(left.total_seconds()) if left is not None else 0,
                "running": reading.running == seat and game.status == Game.Status.ACTIVE,
                "paused": paused,
                "live": control.live,
                "text": control.show(left),
                # When a correspondence clock runs out, shown to the game's players in their
                # own zone (a spectator's push is shared by viewers of many zones).
                "deadline": reading.deadline
                if control.correspondence and reading.running == seat and not paused
                else None,
                "vacation_until": away,
                "held_until": held,
            }
        )
    return out


def rematch_state(game: Game, seat: int | None) -> dict:
    """What the end of the game offers a player about a rematch."""
    if seat is None or game.status != Game.Status.FINISHED:
        return {}
    if game.series_id and game.series_number < game.series.length:
        following = game.series.games.filter(series_number=game.series_number + 1).first()
        return {"series_next": following}
    nxt = getattr(game, "rematch", None)
    if nxt is not None:
        return {"game": nxt}
    offered = game.rematch_offered_by
    if offered is None:
        return {"can_offer": True, "declined": game.rematch_declined}
    return {"offered_by_me": offered == seat, "offered_to_me": offered != seat}


def since_your_last_move(game: Game, state, seat: int | None, seen: dict, kind, names) -> dict:
    """For a player: what the others did since their last action, and where its replay starts."""
    if seat is None:
        return {}
    start = states.since_start(state, seat)
    history = state.history
    if start == len(history) or all(h["player"] == seat for h in history[start:]):
        return {}
    if not any(h["player"] == seat for h in history[:start]):
        return {}  # the player has not moved yet: the last move says it all
    entries = [
        kind.describe_entry(entry, seen, names)
        for entry in seen["log"]
        if entry.get("seq") and entry["seq"] > start and entry.get("kind", "place") != "pass"
    ]
    url = reverse("games:replay", args=[game.pk])
    return {"count": len(history) - start, "entries": entries, "url": f"{url}?step={start}"}


# The sample count that picks each plural category of CLDR (Intl.PluralRules in the browser)
# out of the catalogue's forms, for whole numbers: English, French and Polish use one, few,
# many and other.
PLURAL_SAMPLES = {"zero": 0, "one": 1, "two": 2, "few": 3, "many": 5, "other": 2}


def page_words() -> dict:
    """The words the game page's script shows (static/js/game.js), in the active language:
    given to the page as data (``games/_page_words.html``), so that it asks for nothing more."""
    return _page_words(get_language())


@lru_cache(maxsize=8)
def _page_words(language: str) -> dict:
    return {
        "units": {
            name: {
                category: clock.unit_words(name, count).replace("%(count)d", "{count}")
                for category, count in PLURAL_SAMPLES.items()
            }
            for name in ("day", "hour", "minute", "second")
        },
        "live": _("Live: moves appear as they are made."),
        "lost": _("Connection lost: reconnecting… (the board will catch up by itself)"),
        "unreachable": _(
            "The server could not be reached: nothing was sent and the page is as it was. Try "
            "again when the connection is back."
        ),
        "databaseAway": _(
            "The site's database did not answer just now: nothing was changed. Try again in a "
            "few seconds."
        ),
        "serverError": _(
            "The server answered with an error ({code}): nothing changed on this page. Try "
            "again, or reload it."
        ),
        "yourTurn": pgettext("tab title", "Your turn"),
    }

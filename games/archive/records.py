"""Game records: a game as a file, to download, keep, and replay somewhere else.

A record is the game's kind, engine version, options, players and every action with its time,
as JSON (``export``), or the same game for a reader (``text_log``). The seed is in it only once
the game is over: before that it would tell the order of the stack. ``read`` checks a record
that comes from outside, and ``replay`` rebuilds its state, checking every action and the
stored result, since nothing in a file is trusted.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from django.utils import formats, timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext

from games import kinds
from games.clock import TimeControl
from games.engine import KINDS, GameEngine, engine_for, versions
from games.engine.interface import GameState
from games.engine.takeback import is_takeback
from games.models import Ending, Game, player_name, termination_words
from games.play import takebacks
from games.play.services import ENDINGS, ending_words
from games.play.states import load_state
from games.words import say

RECORD_FORMAT = "basilica-online/game-record"
FORMAT_VERSION = 1
MAX_ACTIONS = 2000  # far beyond any real game
MAX_NAME = 150  # a username's length
# Games without chance replay the same whatever the seed: their record needs none.
WITHOUT_CHANCE = frozenset({"cathedral"})

_STATUSES = (Game.Status.ACTIVE, Game.Status.FINISHED, Game.Status.ABORTED)
_OVER = (Game.Status.FINISHED, Game.Status.ABORTED)
_KEYS = {
    "format",
    "format_version",
    "kind",
    "engine_version",
    "options",
    "seed",
    "players",
    "time_control",
    "created_at",
    "started_at",
    "finished_at",
    "status",
    "result",
    "actions",
}
_ACTION_KEYS = {"seq", "player", "user", "action", "at"}
_RESULT_KEYS = {"winners", "scores", "termination"}
# C0 and C1 control characters, and halves of surrogate pairs, which JSON's escapes can carry
# but no text may: this site never writes one in a record, and PostgreSQL refuses a NUL.
_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\ud800-\udfff]")


class RecordError(ValueError):
    """A record that cannot be read or replayed; the message says why, in a sentence."""


@dataclass(frozen=True)
class Record:
    """A record read and checked: ``actions`` are the actions' JSON, ``seats`` who made each
    and ``times`` when; ``seed`` is None in the record of a game still running; ``result``
    is ``{"winners", "scores", "termination"}`` once the game is over, else None."""

    kind: str
    engine_version: str
    options: Any
    seed: int | None
    players: tuple[str, str]
    actions: tuple[dict, ...]
    result: dict | None
    seats: tuple[int, ...] = ()
    times: tuple[datetime, ...] = ()

    @property
    def engine(self) -> GameEngine:
        return engine_for(self.kind, self.engine_version)


# -- writing ------------------------------------------------------------------------------------


def export(game: Game) -> dict:
    """The record of ``game`` as JSON-safe data. Until the game is over it has no seed and no
    result, and its actions are as a spectator sees them; from then on, all of them."""
    record: dict[str, Any] = {
        "format": RECORD_FORMAT,
        "format_version": FORMAT_VERSION,
        "kind": game.kind,
        "engine_version": game.engine_version,
        "options": game.options,
    }
    if game.over:
        record["seed"] = game.seed
    record |= {
        "players": _names(game),
        "time_control": game.time_control,
        "created_at": _iso(game.created_at),
        "started_at": _iso(game.started_at),
        "finished_at": _iso(game.finished_at),
        "status": game.status,
    }
    if game.over:
        record["result"] = {
            "winners": list(game.winners),
            "scores": list(game.scores),
            "termination": game.termination,
        }
    shown = None if game.over else _shown_actions(game)
    record["actions"] = [
        {
            "seq": action.seq,
            "player": action.player,
            "user": player_name(action.user),
            "action": action.data if shown is None else shown[action.seq],
            "at": _iso(action.created_at),
        }
        for action in _actions_of(game).select_related("user")
    ]
    return record


def _actions_of(game: Game):
    # Up to the game's seq as it was read: a move made meanwhile belongs to the next download.
    return game.actions.filter(seq__lte=game.seq).order_by("seq")


def _shown_actions(game: Game) -> dict[int, dict]:
    """The actions of a game in play as a spectator's view shows them: what is still hidden
    (a Basilica Jester's colour before the scoring) is left out, as on the game page."""
    state = load_state(game)
    log = game.engine.view(state, None)["log"]
    shown = {entry["seq"]: entry["action"] for entry in log if entry.get("kind") != "pass"}
    for number, undone in takebacks.taken_back_pairs(state):
        # A takeback hides nothing; the action it took back, as spectators saw it then.
        shown[number] = state.history[number - 1]["action"]
        shown[undone] = takebacks.shown_then(game, undone, None)["action"]
    return shown


def text_log(game: Game) -> str:
    """The game for a reader: a header, then one line per action in the engine's words, as a
    spectator reads them (nothing hidden leaks: a Jester colour not yet revealed stays so)."""
    names = _names(game)
    state = load_state(game)
    view = game.engine.view(state, None)
    kind = kinds.get(game.kind)
    times = dict(_actions_of(game).values_list("seq", "created_at"))
    zone = timezone.get_current_timezone_name()
    lines = [*_header(game, names), "", _("Actions (times in %(zone)s):") % {"zone": zone}]
    for entry in _with_takebacks(game, state, view):
        if entry.get("kind") == "pass":
            lines.append(f"    {say(entry['text'])}")
            continue
        seq = entry["seq"]
        if entry.get("takeback"):
            said = takebacks.taken_back_words(state, seq, names)
        else:
            said = kind.describe_entry(
                entry, view, names
            )  # the page's words, the reader's language
        if entry.get("taken_back"):
            said = _("%(action)s (taken back)") % {"action": said}
        lines.append(f"{seq}. {_minute(times.get(seq))} {said}")
    if not view["log"]:
        lines.append(_("(none yet)"))
    return "\n".join(lines) + "\n"


def _with_takebacks(game: Game, state: GameState, view: dict) -> list[dict]:
    """The view's log with what it leaves out put back in its place: each action taken back
    (as spectators saw it then, marked ``taken_back``) and each takeback (``takeback``)."""
    entries = list(view["log"])
    for number, undone in takebacks.taken_back_pairs(state):
        then = takebacks.shown_then(game, undone, None)
        entries.append({**then, "taken_back": True})
        entries.append({"seq": number, "takeback": True})
    # A pass comes after the placement it follows: it keeps its place among equal numbers.
    return sorted(entries, key=lambda entry: entry["seq"])


def _header(game: Game, names: list[str]) -> list[str]:
    kind = kinds.get(game.kind)
    zone = timezone.get_current_timezone_name()
    finished = (
        _("Finished: %(time)s %(zone)s") % {"time": _minute(game.finished_at), "zone": zone}
        if game.finished_at
        else _("Finished: not yet")
    )
    return [
        _("Game %(number)s: %(first)s vs %(second)s")
        % {"number": game.pk, "first": names[0], "second": names[1]},
        kind.describe(game.options),
        # Seat 0 opened the game: its kind names the roles from that player's side.
        _("Players: %(first)s, who opened the game, and %(second)s; %(roles)s")
        % {
            "first": names[0],
            "second": names[1],
            "roles": kind.first_role(game.options, names[0]),
        },
        _("Clock: %(clock)s") % {"clock": game.clock_control.label},
        _("Created: %(time)s %(zone)s") % {"time": _minute(game.created_at), "zone": zone},
        _("Started: %(time)s %(zone)s") % {"time": _minute(game.started_at), "zone": zone},
        finished,
        _("Result: %(result)s") % {"result": _result_words(game, names)},
        _("Rules version: %(version)s (the %(kind)s engine's)")
        % {"version": game.engine_version, "kind": kind.title},
    ]


def _result_words(game: Game, names: list[str]) -> str:
    if not game.over:
        return _("none yet, the game is in play")
    if game.termination in ENDINGS:
        return ending_words(game)
    winners = sorted(game.winners)
    if len(winners) == 2:
        words = pgettext("result", "shared")
    elif winners:
        words = _("%(name)s wins") % {"name": names[winners[0]]}
    else:
        words = _("no winner")
    if len(game.scores) == 2:
        words += f"; {names[0]} {game.scores[0]}, {names[1]} {game.scores[1]}"
    return f"{words} ({termination_words(game.termination)})"


def _names(game: Game) -> list[str]:
    return [player_name(u) for u in (game.seat0, game.seat1)]


def _iso(moment: datetime | None) -> str | None:
    return moment.astimezone(UTC).isoformat() if moment else None


def _minute(moment: datetime | None) -> str:
    """A moment to the minute in the reader's zone (named once, in the log's header)."""
    return formats.date_format(timezone.localtime(moment), "Y-m-d H:i") if moment else "-"


# -- reading ------------------------------------------------------------------------------------


def read(data: object) -> Record:
    """Check a record from outside, every field of it, and return it read; RecordError says
    what is wrong. The actions are read, not yet replayed: ``replay`` checks that they are a
    legal game."""
    if not isinstance(data, dict):
        raise RecordError(_("a game record is a JSON object"))
    if data.get("format") != RECORD_FORMAT:
        raise RecordError(
            _("this is not a game record of this site (format %(format)s)")
            % {"format": repr(RECORD_FORMAT)}
        )
    if data.get("format_version") != FORMAT_VERSION or type(data["format_version"]) is not int:
        raise RecordError(
            _("this site reads version %(version)s of the record format only")
            % {"version": FORMAT_VERSION}
        )
    _without_control_characters(data)
    unknown = sorted(str(key)[:20] for key in data if key not in _KEYS)
    if unknown:
        raise RecordError(
            ngettext(
                "a game record has no field %(fields)s",
                "a game record has no fields %(fields)s",
                len(unknown[:5]),
            )
            % {"fields": ", ".join(unknown[:5])}
        )
    engine = _engine(data)
    seed = _seed(data)
    status = data.get("status")
    if status not in _STATUSES:
        raise RecordError(_("the status of a recorded game is active, finished or aborted"))
    for key in ("created_at", "started_at", "finished_at"):
        if data.get(key) is not None:
            _time(data[key], key)
    if data.get("time_control") is not None:
        _time_control(data["time_control"])
    seats, actions, times = _actions(engine, data.get("actions"))
    return Record(
        kind=data["kind"],
        engine_version=data["engine_version"],
        options=_options(engine, data.get("options")),
        seed=seed,
        players=_players(data.get("players")),
        actions=actions,
        result=_result(data.get("result"), status),
        seats=seats,
        times=times,
    )


def _without_control_characters(data: dict) -> None:
    """RecordError naming the first field found whose text, or name, holds a control character
    (tab and newline too: no field of a record is free text)."""
    found: list[tuple[str, object]] = [("", data)]
    while found:
        place, value = found.pop()
        if isinstance(value, dict):
            for key, item in value.items():
                if _CONTROL.search(key):
                    words = (
                        _(
                            "a field name in %(field)s holds a control character, which no record has"
                        )
                        if place
                        else _("a field name holds a control character, which no record has")
                    )
                    raise RecordError(words % {"field": place[:60]})
                found.append((f"{place}.{key}" if place else key, item))
        elif isinstance(value, list):
            found.extend((f"{place}[{index}]", item) for index, item in enumerate(value))
        elif isinstance(value, str) and _CONTROL.search(value):
            raise RecordError(
                _("%(field)s holds a control character, which no field of a record may hold")
                % {"field": place[:60]}
            )


def _engine(data: dict) -> GameEngine:
    kind, version = data.get("kind"), data.get("engine_version")
    if type(kind) is not str or kind not in KINDS:
        raise RecordError(
            _("this site hosts no game called %(name)s") % {"name": repr(str(kind)[:40])}
        )
    if type(version) is not str:
        raise RecordError(_("a game record names its engine version as a string"))
    try:
        return engine_for(kind, version)
    except LookupError:
        raise RecordError(
            _(
                "this game was played by version %(version)s of the %(kind)s rules, which this "
                "site does not have (it plays versions %(versions)s)"
            )
            % {"version": repr(version[:10]), "kind": kind, "versions": ", ".join(versions(kind))}
        ) from None


def _options(engine: GameEngine, options: object) -> Any:
    if not isinstance(options, dict):
        raise RecordError(_("a game record's options are a JSON object"))
    try:
        return engine.Options.from_json(options)
    except (ValueError, TypeError, KeyError, AttributeError) as error:
        raise RecordError(
            _("these are not options of %(game)s: %(why)s")
            % {"game": engine.TITLE, "why": say(error.args[0]) if error.args else error}
        ) from None


def _seed(data: dict) -> int | None:
    seed = data.get("seed")
    if seed is None:
        if data["kind"] not in WITHOUT_CHANCE:
            raise RecordError(
                _(
                    "this record has no seed: a game still running keeps it secret, so only a "
                    "finished game's record can be replayed"
                )
            )
        return None
    if type(seed) is not int or not 0 <= seed < 2**63:
        raise RecordError(_("a seed is a whole number from 0 to 2**63 - 1"))
    return seed


def _players(players: object) -> tuple[str, str]:
    if not isinstance(players, list) or len(players) != 2:
        raise RecordError(_("a game record names its two players"))
    for name in players:
        _name(name, _("a player's name"))
    return (players[0], players[1])


def _name(name: object, what: str) -> str:
    if type(name) is not str or not 0 < len(name) <= MAX_NAME:
        raise RecordError(
            _("%(what)s is a string of 1 to %(most)d characters") % {"what": what, "most": MAX_NAME}
        )
    return name


def _time(value: object, what: str) -> datetime:
    if type(value) is not str or len(value) > 40:
        raise RecordError(_("%(what)s is a time in ISO 8601") % {"what": what})
    try:
        return datetime.fromisoformat(value)
    except ValueError:
        raise RecordError(
            _("%(what)s is a time in ISO 8601, not %(value)s")
            % {"what": what, "value": repr(value[:40])}
        ) from None


def _time_control(text: object) -> None:
    try:
        TimeControl.parse(text if type(text) is str else "?")
    except ValueError:
        raise RecordError(
            _("%(text)s is not a time control of this site") % {"text": repr(str(text)[:20])}
        ) from None


def _actions(engine: GameEngine, actions: object):
    if not isinstance(actions, list):
        raise RecordError(_("a game record's actions are a list"))
    if len(actions) > MAX_ACTIONS:
        raise RecordError(_("a game record holds at most %(most)d actions") % {"most": MAX_ACTIONS})
    seats, read_actions, times = [], [], []
    for seq, entry in enumerate(actions, start=1):
        if not isinstance(entry, dict) or set(entry) != _ACTION_KEYS:
            raise RecordError(
                _("action %(seq)d is not %(fields)s")
                % {"seq": seq, "fields": "{" + ", ".join(sorted(_ACTION_KEYS)) + "}"}
            )
        if entry["seq"] != seq or type(entry["seq"]) is not int:
            raise RecordError(
                _("action %(seq)d is numbered %(number)s")
                % {"seq": seq, "number": str(entry["seq"])[:20]}
            )
        if entry["player"] not in (0, 1) or type(entry["player"]) is not int:
            raise RecordError(_("action %(seq)d: the player is the seat 0 or 1") % {"seq": seq})
        _name(entry["user"], _("action %(seq)d: the user") % {"seq": seq})
        if is_takeback(entry["action"]):
            seats.append(entry["player"])
            read_actions.append(_takeback(entry["action"], seq))
            times.append(_time(entry["at"], _("action %(seq)d: its time") % {"seq": seq}))
            continue
        try:
            action = engine.Action.from_json(entry["action"])
        except engine.MalformedAction as error:
            raise RecordError(
                _("action %(seq)d is not a %(game)s action: %(why)s")
                % {
                    "seq": seq,
                    "game": engine.TITLE,
                    "why": say(error.args[0]) if error.args else error,
                }
            ) from None
        seats.append(entry["player"])
        read_actions.append(action.to_json())
        times.append(_time(entry["at"], _("action %(seq)d: its time") % {"seq": seq}))
    return tuple(seats), tuple(read_actions), tuple(times)


def _takeback(action: dict, seq: int) -> dict:
    """A takeback of a record, as the log keeps it: the number of the action it takes back."""
    number = action.get("seq")
    if set(action) != {"kind", "seq"} or type(number) is not int or not 0 < number < seq:
        raise RecordError(
            _("action %(seq)d is a takeback that names no earlier action") % {"seq": seq}
        )
    return {"kind": action["kind"], "seq": number}


def _result(result: object, status: str) -> dict | None:
    if status not in _OVER:
        if result is not None:
            raise RecordError(_("a game still in play has no result"))
        return None
    if not isinstance(result, dict) or set(result) != _RESULT_KEYS:
        raise RecordError(
            _("a finished game's result is %(fields)s")
            % {"fields": "{scores, termination, winners}"}
        )
    winners, scores, termination = result["winners"], result["scores"], result["termination"]
    if not isinstance(winners, list) or len(winners) > 2 or not _seats(winners):
        raise RecordError(_("result.winners: the winners are a list of seats, 0 and 1"))
    if not isinstance(scores, list) or len(scores) not in (0, 2):
        raise RecordError(_("result.scores: the scores are a list of two whole numbers"))
    if any(type(score) is not int for score in scores):
        raise RecordError(_("result.scores: the scores are a list of two whole numbers"))
    if type(termination) is not str or not 0 < len(termination) <= 40:
        raise RecordError(
            _("result.termination: the result says how the game ended, in a few words")
        )
    _check_ending(termination, winners, status)
    return {"winners": winners, "scores": scores, "termination": termination}


def _check_ending(termination: str, winners: list, status: str) -> None:
    """An ending off the board agrees with the status and the winners it gives, whatever the log:
    an abort or abandonment has no result, a timeout or resignation one winner."""
    aborted = termination in Ending.NO_RESULT
    if aborted and status != Game.Status.ABORTED:
        raise RecordError(
            _("status: a game ended by %(termination)s is aborted, not %(status)s")
            % {"termination": termination, "status": status}
        )
    if not aborted and status == Game.Status.ABORTED:
        raise RecordError(
            _("status: a game ended by %(termination)s is finished, not aborted")
            % {"termination": termination}
        )
    if aborted and winners:
        raise RecordError(
            _("result.winners: a game ended by %(termination)s has no winner")
            % {"termination": termination}
        )
    if termination in ENDINGS and not aborted and len(winners) != 1:
        raise RecordError(
            _("result.winners: a game ended by %(termination)s has one winner")
            % {"termination": termination}
        )


def _seats(values: list) -> bool:
    # The types first: a list of lists has no set.
    return all(type(v) is int and v in (0, 1) for v in values) and len(set(values)) == len(values)


# -- replaying ----------------------------------------------------------------------------------


def replay(record: Record) -> GameState:
    """The state the record's actions lead to, each checked as a move is; and, when the record
    has a result, that result checked against the one the actions give."""
    engine = record.engine
    actions = [
        action if is_takeback(action) else engine.Action.from_json(action)
        for action in record.actions
    ]
    seed = 0 if record.seed is None else record.seed  # only games without chance have none
    try:
        state = engine.replay(record.options, seed, actions, check=True)
    except engine.IllegalAction as error:
        raise RecordError(
            _("this record is not a legal game: %(why)s")
            % {"why": say(error.args[0]) if error.args else error}
        ) from None
    for seq, (seat, entry) in enumerate(zip(record.seats, state.history, strict=True), 1):
        if seat != entry["player"]:
            raise RecordError(
                _("action %(seq)d is recorded for seat %(seat)d, but it was seat %(actual)d's")
                % {"seq": seq, "seat": seat, "actual": entry["player"]}
            )
    if record.result is not None:
        _check_result(record.result, state, record.players)
    return state


def _check_result(result: dict, state: GameState, names: tuple[str, str]) -> None:
    if state.finished:
        outcome = state.outcome
        replayed = {
            "termination": outcome.termination,
            "winners": list(outcome.winners),
            "scores": list(outcome.scores),
        }
        for field, value in replayed.items():
            if result[field] != value:
                raise RecordError(
                    _(
                        "result.%(field)s: the record's result is %(record)s, but its actions give "
                        "%(replayed)s"
                    )
                    % {"field": field, "record": _words(result), "replayed": _words(replayed)}
                )
        return
    # A game can also end off the board: a resignation, the clock, an abort.
    termination = result["termination"]
    if termination not in ENDINGS:
        raise RecordError(
            _(
                "result.termination: the record says the game ended by %(termination)s, but its "
                "actions do not end it"
            )
            % {"termination": termination}
        )
    if result["scores"] not in ([], list(state.returns())):
        raise RecordError(
            _(
                "result.scores: the record's scores are %(record)s, but its actions give "
                "%(replayed)s"
            )
            % {"record": result["scores"], "replayed": list(state.returns())}
        )
    _check_ended_off_the_board(termination, result["winners"], state, names)


def _check_ended_off_the_board(
    termination: str, winners: list, state: GameState, names: tuple[str, str]
) -> None:
    """The clock runs out on the player to decide, a loss once they have moved and an
    abandonment before; a player aborts only before their own first move."""
    deciding = state.to_decide
    moved = {entry["player"] for entry in state.history}
    words = {"deciding": names[deciding], "other": names[1 - deciding]}
    if termination == Ending.TIMEOUT and deciding not in moved:
        raise RecordError(
            _(
                "result.termination: %(deciding)s ran out of time before their first move, "
                "which abandons a game (no result) rather than loses it"
            )
            % words
        )
    if termination == Ending.TIMEOUT and winners != [1 - deciding]:
        raise RecordError(
            _("result.winners: %(deciding)s was to decide when the clock ran out, so %(other)s won")
            % words
        )
    if termination == Ending.ABANDONED and deciding in moved:
        raise RecordError(
            _(
                "result.termination: a game is abandoned when the player to decide has not "
                "moved yet, but %(deciding)s had"
            )
            % words
        )
    if termination == Ending.ABORTED and moved == {0, 1}:
        raise RecordError(
            _(
                "result.termination: a player aborts a game only before their own first move, "
                "but both players had moved"
            )
        )


def _words(result: dict) -> str:
    return _("winners %(winners)s, scores %(scores)s (%(termination)s)") % {
        "winners": result["winners"],
        "scores": result["scores"],
        "termination": result["termination"][:40],
    }

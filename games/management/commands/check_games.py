"""Replay every stored game on its own rules version and compare it with what the database says.

    manage.py check_games [--kind KIND] [--since YYYY-MM-DD] [--id N ...] [-v 2]

Each game's log is replayed from the start through ``engine_for(kind, engine_version)``, every
action checked as a move is, and the rebuilt game is held against its row: the actions' numbers
and seats and the row's count, the status, the result (ending, winners, scores), and who decides
in a running game. A game ended off the board (resigned, out of time, aborted) is one the rules
have not ended: its result is held against the seat that ended it instead. One line per game
that differs, a summary, and a non-zero exit if any does: run it after every upgrade (README,
"Running in production").
"""

from __future__ import annotations

import time
from argparse import ArgumentTypeError
from datetime import date, datetime

from django.core.management.base import BaseCommand, CommandError
from django.db.models import Q
from django.utils import timezone

from games.engine import KINDS, engine_for, versions
from games.models import Action, Ending, Game
from games.play.services import ENDINGS

CHUNK = 500  # games whose logs are read in one query
# What the replay needs of a row, and what it is held against.
FIELDS = (
    "kind",
    "engine_version",
    "options",
    "seed",
    "status",
    "seq",
    "to_decide",
    "winners",
    "scores",
    "termination",
    "ended_by",
    "imported",
)
ABORTS = Ending.NO_RESULT  # the endings off the board that give no result (services._end)

Log = list[tuple[int, int, dict]]  # (seq, seat, action) of each stored action, in order


class Command(BaseCommand):
    help = "Replay every stored game on its own rules version and name any that differs."

    def add_arguments(self, parser) -> None:
        parser.add_argument("--kind", choices=sorted(KINDS), help="only the games of this kind")
        parser.add_argument(
            "--since",
            type=_day,
            metavar="YYYY-MM-DD",
            help="only the games created or changed since this day",
        )
        parser.add_argument(
            "--id",
            action="append",
            default=[],
            metavar="N",
            help="only this game (repeat it, or give several separated by commas)",
        )

    def handle(self, *args, kind=None, since=None, id=(), verbosity=1, **options) -> None:
        began = time.perf_counter()
        checked = mismatched = 0
        for games in _chunks(_selected(kind, since, _ids(id))):
            logs = _logs(games)
            for game in games:
                problems = differences(game, logs[game.pk])
                name = f"game {game.pk} ({game.kind}, rules version {game.engine_version})"
                if problems:
                    mismatched += 1
                    self.stdout.write(f"{name}: {'; '.join(problems)}")
                elif verbosity >= 2:
                    self.stdout.write(f"{name}: replays as stored, {_plural(game.seq, 'action')}")
            checked += len(games)
        seconds = time.perf_counter() - began
        summary = (
            f"{_plural(checked, 'game')} checked in {seconds:.2f} s "
            f"({checked / seconds if seconds else 0:.0f} a second): "
            f"{_plural(mismatched, 'mismatch', 'mismatches')}"
        )
        if mismatched:
            raise CommandError(summary)
        self.stdout.write(summary)


# -- choosing and reading the games -------------------------------------------------------------


def _day(text: str) -> date:
    try:
        return date.fromisoformat(text)
    except ValueError:
        raise ArgumentTypeError(f"{text!r} is not a day written YYYY-MM-DD") from None


def _ids(values) -> list[int]:
    try:
        return [int(part) for value in values for part in str(value).split(",") if part.strip()]
    except ValueError:
        raise CommandError("--id takes game numbers, e.g. --id 12 or --id 12,13") from None


def _selected(kind: str | None, since: date | None, ids: list[int]):
    games = Game.objects.only(*FIELDS).order_by("pk")
    if kind:
        games = games.filter(kind=kind)
    if since:
        start = timezone.make_aware(datetime.combine(since, datetime.min.time()))
        games = games.filter(Q(created_at__gte=start) | Q(updated_at__gte=start))
    if ids:
        games = games.filter(pk__in=ids)
    return games


def _chunks(games):
    """The games in lists of CHUNK, read row by row so that a large table never sits in memory."""
    chunk: list[Game] = []
    for game in games.iterator(chunk_size=CHUNK):
        chunk.append(game)
        if len(chunk) == CHUNK:
            yield chunk
            chunk = []
    if chunk:
        yield chunk


def _logs(games: list[Game]) -> dict[int, Log]:
    """Each game's stored actions, in one query for the chunk."""
    logs: dict[int, Log] = {game.pk: [] for game in games}
    rows = Action.objects.filter(game_id__in=logs).order_by("game_id", "seq")
    for game_id, seq, seat, data in rows.values_list("game_id", "seq", "player", "data"):
        logs[game_id].append((seq, seat, data))
    return logs


# -- holding a replayed game against its row ---------------------------------------------------


def differences(game: Game, log: Log) -> list[str]:
    """What differs between the stored game and its log replayed, in an operator's words."""
    problems = _numbering(game, log)
    if problems:
        return problems  # a log with a hole in it replays to nothing worth comparing
    state, problem = _replayed(game, log)
    if problem:
        return [problem]
    problems = _seats(log, state)
    if state.finished:
        return problems + _by_the_rules(game, state)
    if game.status == Game.Status.ACTIVE:
        return problems + _in_play(game, state)
    if game.status in (Game.Status.OPEN, Game.Status.CANCELLED):
        return problems  # no action: _numbering held the row's count of 0 against the log
    return problems + _off_the_board(game, state)


def _numbering(game: Game, log: Log) -> list[str]:
    """Actions numbered 1, 2, 3, … with none missing, as many as the row counts."""
    numbers = [seq for seq, _, _ in log]
    problems = []
    if numbers != list(range(1, len(numbers) + 1)):
        missing = sorted(set(range(1, max(numbers) + 1)) - set(numbers))
        strays = sorted({n for n in numbers if n < 1})
        problems.append(
            f"its log lacks action {_few(missing)}"
            if missing and not strays
            else f"its actions are numbered {_few(numbers)}, not 1 to {len(numbers)}"
        )
    if game.seq != len(numbers):
        problems.append(f"the row counts {_plural(game.seq, 'action')}, its log holds {len(log)}")
    if numbers and game.status in (Game.Status.OPEN, Game.Status.CANCELLED):
        problems.append(
            f"stored as {_status(game)}, but its log holds {_plural(len(log), 'action')}"
        )
    return problems


def _replayed(game: Game, log: Log):
    """(the state its log replays to, None), or (None, why it does not replay)."""
    try:
        engine = engine_for(game.kind, game.engine_version)
    except KeyError:
        return None, f"cannot be replayed: this site hosts no game called {game.kind!r}"
    except LookupError:
        have = ", ".join(versions(game.kind))
        return None, (
            f"cannot be replayed: this site has no rules version {game.engine_version!r} of "
            f"{game.kind} (it has {have})"
        )
    try:
        options = engine.Options.from_json(game.options)
    except Exception as error:  # whatever a bad row throws (TypeError, ValueError…): name it
        return None, f"cannot be replayed: its options do not read ({_error(error)})"
    try:
        return engine.replay(options, game.seed, [data for _, _, data in log], check=True), None
    except Exception as error:  # IllegalAction, MalformedAction, or a log the engine cannot read
        return None, f"does not replay: {_error(error)}"


def _seats(log: Log, state) -> list[str]:
    """Each action stored under the seat the rules gave that decision to."""
    for (seq, seat, _), entry in zip(log, state.history, strict=True):
        if seat != entry["player"]:
            deciding = entry["player"]
            return [
                f"action {seq} is stored as seat {seat}'s, the rules gave it to seat {deciding}"
            ]
    return []


def _by_the_rules(game: Game, state) -> list[str]:
    """A game the rules ended: finished, with the engine's ending, winners and scores."""
    outcome = state.outcome
    if game.status != Game.Status.FINISHED:
        return [
            f"the rules end it at action {len(state.history)} ({outcome.termination}), "
            f"but it is stored as {_status(game)}"
        ]
    stored = (game.termination, list(game.winners), list(game.scores))
    replayed = (outcome.termination, list(outcome.winners), list(outcome.scores))
    return [
        f"stored {what} {_shown(mine)}, replayed {_shown(theirs)}"
        for what, mine, theirs in zip(
            ("ending", "winners", "scores"), stored, replayed, strict=True
        )
        if mine != theirs
    ]


def _in_play(game: Game, state) -> list[str]:
    if game.to_decide != state.to_decide:
        return [f"stored seat {game.to_decide} to decide, replayed seat {state.to_decide}"]
    return []


def _off_the_board(game: Game, state) -> list[str]:
    """A game over whose log the rules have not ended: it must have been resigned, lost on
    time or aborted (services._end), its result that seat's loss, or none for an abort."""
    ending, loser, winners = game.termination, game.ended_by, list(game.winners)
    if ending not in ENDINGS:
        return [
            f"stored as {_status(game)} ({ending or 'no ending'}), but its log does not end "
            f"the game: seat {state.to_decide} is to decide after action {len(state.history)}"
        ]
    aborted = ending in ABORTS
    # An imported record is stored as finished however it ended (record_views._store).
    status = Game.Status.ABORTED if aborted and not game.imported else Game.Status.FINISHED
    if game.status != status:
        return [f"its ending ({ending}) is stored as {_status(game)}, not {status.label}"]
    if loser is None and not game.imported:  # an imported record names no seat
        return [f"its ending ({ending}) names no seat that made it"]
    problems = []
    if aborted and winners:
        problems.append(f"stored winners {winners}, its ending ({ending}) gives none")
    elif not aborted and loser is not None and winners != [1 - loser]:
        problems.append(
            f"stored winners {winners}, its ending ({ending} by seat {loser}) gives [{1 - loser}]"
        )
    elif not aborted and len(winners) != 1:
        problems.append(f"stored winners {winners}, its ending ({ending}) gives one")
    returns = list(state.returns())
    if list(game.scores) not in ([], returns):  # the scores stand as the last move left them
        problems.append(f"stored scores {list(game.scores)}, replayed {returns}")
    return problems


# -- words --------------------------------------------------------------------------------------


def _status(game: Game) -> str:
    try:
        return Game.Status(game.status).label
    except ValueError:
        return f"{game.status!r}"


def _shown(value) -> str:
    return repr(value) if isinstance(value, str) else str(value)


def _error(error: Exception) -> str:
    text = str(error) or type(error).__name__
    return text if isinstance(error, ValueError) else f"{type(error).__name__}: {text}"


def _few(numbers: list[int]) -> str:
    shown = ", ".join(str(n) for n in numbers[:8])
    return shown + (", …" if len(numbers) > 8 else "")


def _plural(count: int, word: str, words: str = "") -> str:
    return f"{count} {word if count == 1 else words or word + 's'}"

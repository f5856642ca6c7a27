"""Replay every stored game on its own rules version and compare it with what the database says.

    manage.py check_games [--kind KIND] [--since YYYY-MM-DD] [--id N ...]

Each game's log is replayed from the start through ``engine_for(kind, engine_version)``, every
action checked as a move is, and the rebuilt game is held against its row: the actions'
numbers and the row's count, the status, the result (winners, scores, ending) of a game the
rules ended, and who decides in a running one. One line per game that differs, a summary, and a
non-zero exit if any does: run it after every upgrade (README, "Running in production").
"""

from __future__ import annotations

import time
from datetime import date, datetime
from datetime import time as clock

from django.core.management.base import BaseCommand, CommandError
from django.db.models import Q
from django.utils import timezone

from games.engine import KINDS, engine_for
from games.models import Action, Game

CHUNK = 200  # games whose logs are read in one query

# How a game ends besides the rules' own ending (games.services): the engine's state is then
# still running, and that is no mismatch.
ENDED_BY_A_PLAYER = {"resignation", "timeout"}
ABORTED = {"aborted", "abandoned"}


class Command(BaseCommand):
    help = "Replay every stored game on its own rules version and report any that differs."

    def add_arguments(self, parser) -> None:
        parser.add_argument("--kind", choices=sorted(KINDS), help="only games of this kind")
        parser.add_argument(
            "--since", type=date.fromisoformat, help="only games created or moved since this day"
        )
        parser.add_argument(
            "--id",
            action="append",
            default=[],
            help="only this game (repeat it, or give several separated by commas)",
        )

    def handle(self, *args, kind=None, since=None, id=(), verbosity=1, **options) -> None:
        games = Game.objects.exclude(status__in=[Game.Status.OPEN, Game.Status.CANCELLED])
        if kind:
            games = games.filter(kind=kind)
        if since:
            start = timezone.make_aware(datetime.combine(since, clock.min))
            games = games.filter(Q(created_at__gte=start) | Q(updated_at__gte=start))
        if id:
            games = games.filter(pk__in=_ids(id))
        began = time.perf_counter()
        checked = mismatched = 0
        chunk: list[Game] = []
        for game in games.order_by("pk").iterator(chunk_size=CHUNK):
            chunk.append(game)
            if len(chunk) == CHUNK:
                found = self._check(chunk, verbosity)
                checked, mismatched = checked + len(chunk), mismatched + found
                chunk = []
        if chunk:
            found = self._check(chunk, verbosity)
            checked, mismatched = checked + len(chunk), mismatched + found
        seconds = time.perf_counter() - began
        rate = checked / seconds if seconds else 0.0
        summary = (
            f"{checked} game{'' if checked == 1 else 's'} checked in {seconds:.2f} s "
            f"({rate:.0f} a second): {mismatched} mismatch{'' if mismatched == 1 else 'es'}"
        )
        if mismatched:
            raise CommandError(summary)
        self.stdout.write(summary)

    def _check(self, games: list[Game], verbosity: int) -> int:
        logs: dict[int, list[tuple[int, dict]]] = {game.pk: [] for game in games}
        rows = Action.objects.filter(game_id__in=logs).order_by("game_id", "seq")
        for game_id, seq, data in rows.values_list("game_id", "seq", "data"):
            logs[game_id].append((seq, data))
        mismatched = 0
        for game in games:
            problems = differences(game, logs[game.pk])
            name = f"game {game.pk} ({game.kind}, rules version {game.engine_version})"
            if problems:
                mismatched += 1
                self.stdout.write(f"{name}: {'; '.join(problems)}")
            elif verbosity >= 2:
                self.stdout.write(f"{name}: replays as stored ({len(logs[game.pk])} actions)")
        return mismatched


def _ids(values) -> list[int]:
    try:
        return [int(part) for value in values for part in str(value).split(",") if part.strip()]
    except ValueError:
        raise CommandError("--id takes game numbers, e.g. --id 12 or --id 12,13") from None


def differences(game: Game, log: list[tuple[int, dict]]) -> list[str]:
    """What differs between the stored game and its log replayed, in an operator's words."""
    numbers = [seq for seq, _ in log]
    if numbers != list(range(1, len(log) + 1)):
        return [f"its actions are numbered {_runs(numbers)}, not 1 to {len(log)}"]
    try:
        engine = engine_for(game.kind, game.engine_version)
    except (KeyError, LookupError) as error:
        return [f"cannot be replayed: {error}"]
    try:
        options = engine.Options.from_json(game.options)
        state = engine.replay(options, game.seed, [data for _, data in log], check=True)
    except ValueError as error:  # IllegalAction is a ValueError, and so are bad options
        return [f"does not replay: {error}"]
    except Exception as error:  # a log the engine cannot even read: say so, go on
        return [f"does not replay: {type(error).__name__}: {error}"]
    problems = []
    if game.seq != len(state.history):
        problems.append(f"stored {game.seq} actions, its log has {len(state.history)}")
    if state.finished:
        problems += _result(game, state.outcome)
    else:
        problems += _unfinished(game, state)
    return problems


def _result(game: Game, outcome) -> list[str]:
    """A game the rules ended: finished, with the engine's ending, winners and scores."""
    if game.status != Game.Status.FINISHED:
        return [f"the rules ended it ({outcome.termination}) but it is stored as {game.status}"]
    stored = (game.termination, list(game.winners), list(game.scores))
    replayed = (outcome.termination, list(outcome.winners), list(outcome.scores))
    return [
        f"stored {what} {mine!r}, replayed {theirs!r}"
        for what, mine, theirs in zip(
            ("ending", "winners", "scores"), stored, replayed, strict=True
        )
        if mine != theirs
    ]


def _unfinished(game: Game, state) -> list[str]:
    """A game the rules have not ended: running, or ended by a player or the clock."""
    if game.status == Game.Status.ACTIVE:
        if game.to_decide != state.to_decide:
            return [f"stored seat {game.to_decide} to decide, replayed seat {state.to_decide}"]
        return []
    if game.status == Game.Status.ABORTED and game.termination in ABORTED:
        return []
    if game.status == Game.Status.FINISHED and game.termination in ENDED_BY_A_PLAYER:
        if game.ended_by is None and not game.imported:
            return [f"ended by {game.termination} but names no player who lost"]
        return []
    return [
        f"stored as {game.status} ({game.termination or 'no ending'}) but its log is of a game "
        "still in play"
    ]


def _runs(numbers: list[int]) -> str:
    shown = ", ".join(str(n) for n in numbers[:8])
    return shown + (", ..." if len(numbers) > 8 else "") if numbers else "(none)"

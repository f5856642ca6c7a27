"""Playing the computer: the bots' accounts, games against them, and their moves.

A bot moves outside any request: after every committed change of a game in which a bot must
decide, the task runner is asked for its move (``tasks.computer_move``), which goes through the
same service as a human's, so the human sees it pushed like any opponent's. The bot is given
the engine's state but sees only what its seat may (``games.bots`` determinizes the rest).
"""

from __future__ import annotations

import logging
import random

from games import services
from games.models import Computer, Game

log = logging.getLogger(__name__)


def accounts() -> list[Computer]:
    return list(Computer.objects.select_related("user"))


def level_of(user) -> str | None:
    """The bot level playing as ``user``; None for a person."""
    if user is None or not getattr(user, "pk", None):
        return None
    computer = getattr(user, "computer", None)  # the reverse one-to-one, if there is one
    return computer.level if computer else None


def play_the_computer(user, settings: services.GameSettings, level: str) -> Game:
    """A private game between ``user`` (seat 0) and the bot of ``level``, started at once."""
    computer = Computer.objects.select_related("user").get(level=level)
    game = services.create_game(user, settings)
    return services.accept_game(game, computer.user)


def deciding_bot(game: Game) -> tuple[int, str] | None:
    """(seat, level) of a bot that must decide now in ``game``, if any."""
    if game.status != Game.Status.ACTIVE or game.to_decide is None:
        return None
    level = level_of(game.player(game.to_decide))
    return (game.to_decide, level) if level else None


def after_change(game: Game) -> None:
    """Ask the task runner for the bot's move when a bot must decide (after a commit)."""
    if deciding_bot(game) is None:
        return
    from games import tasks

    tasks.computer_move(game.pk, game.seq)


def move(game_id: int, seq: int) -> Game | None:
    """The bot's decision in game ``game_id`` at ``seq``, made and submitted; None when there is
    nothing to do any more (the game moved on, ended, or waits for a person)."""
    from games import bots

    game = Game.objects.select_related("seat0", "seat1").filter(pk=game_id).first()
    if game is None or game.seq != seq:
        return None
    deciding = deciding_bot(game)
    if deciding is None:
        return None
    seat, level = deciding
    state = services.load_state(game)
    rng = random.Random(f"{game.pk}:{seq}:{game.seed}")
    action = bots.choose(game.kind, state, seat, level, rng)
    try:
        return services.submit_action(game, game.player(seat), action.to_json(), seq)
    except services.StaleMove:
        return None  # a resignation or a clock got there first

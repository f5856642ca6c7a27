"""Playing the computer: the bots' accounts, games against them, and their moves.

A bot moves outside any request: after every committed change of a game in which a bot must
decide, the task runner's compute queue is asked for its move (``games.tasks.computer_move``),
which goes through the same service as a human's, so the human sees it pushed like any
opponent's. The bot is given the engine's state but sees only what its seat may: the first thing
``games.bots`` does is to draw a determinization of the seat's view, and it plans on that alone.

The task is scheduled by ``games.tasks`` when it hears of a change (``games.events``); on the
embedded default the move is pushed from the web process by ``games.live.watch``.
"""

from __future__ import annotations

import logging
import math
import random
import threading
from datetime import datetime, timedelta

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import make_password
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext, ngettext, npgettext

from games.models import Computer, Game
from games.play import services, states
from games.terms import GameSettings
from games.words import say

log = logging.getLogger(__name__)

RESERVED_PREFIX = Computer.USERNAME_PREFIX  # the bots' user names; nobody may sign up with one

# Inside the bot's own move (in the worker): the change it makes must not start a watcher there.
_moving = threading.local()


def accounts() -> list[Computer]:
    return list(Computer.objects.select_related("user"))


def level_of(user) -> str | None:
    """The bot level playing as ``user``; None for a person."""
    if user is None or not getattr(user, "pk", None) or not Computer.may_be(user):
        return None
    computer = getattr(user, "computer", None)  # the reverse one-to-one, if there is one
    return computer.level if computer else None


def account(level: str) -> Computer:
    """The bot of ``level``. Migration 0009 makes the three; one missing (a flushed test
    database, a row deleted in the admin) is made again here rather than breaking the lobby."""
    computer = Computer.objects.select_related("user").filter(level=level).first()
    if computer is None:
        user, _ = get_user_model().objects.get_or_create(
            username=f"{RESERVED_PREFIX}{level}", defaults={"password": make_password(None)}
        )
        if user.has_usable_password():  # a person's account: never hand it to a bot
            raise LookupError(f"the account {user.username} is a person's, not the computer's")
        computer, _ = Computer.objects.get_or_create(level=level, defaults={"user": user})
    return computer


class TooManyGames(services.MoveRejected):
    """A game against the computer refused: the player has as many as the site allows now."""

    status = 429


def play_the_computer(user, terms: GameSettings, level: str) -> Game:
    """A private game between ``user`` (seat 0) and the bot of ``level``, started at once, or
    TooManyGames past the player's caps (``COMPUTER_GAMES_IN_PLAY`` at once,
    ``COMPUTER_GAMES_PER_HOUR`` begun in an hour)."""
    computer = account(level)
    with transaction.atomic():
        # The player's row, locked: two requests at once count one after the other.
        get_user_model().objects.select_for_update().get(pk=user.pk)
        refusal = too_many(user, timezone.now())
        if refusal:
            raise TooManyGames(refusal)
        game = services.create_game(user, terms)
        return services.accept_game(game, computer.user)


HOUR = timedelta(hours=1)


def too_many(user, now: datetime) -> str:
    """Why ``user`` may not begin another game against the computer now; "" if they may."""
    games = Game.objects.against_the_computer(user)
    in_play = games.filter(status__in=(Game.Status.OPEN, Game.Status.ACTIVE)).count()
    if in_play >= settings.COMPUTER_GAMES_IN_PLAY:
        return ngettext(
            "You have %(count)d game against the computer in play, the most allowed at one "
            "time: finish or resign one to begin another.",
            "You have %(count)d games against the computer in play, the most allowed at one "
            "time: finish or resign one to begin another.",
            in_play,
        ) % {"count": in_play}
    cap = settings.COMPUTER_GAMES_PER_HOUR
    begun = list(
        games.filter(created_at__gt=now - HOUR).order_by("created_at").values_list("created_at")
    )
    if len(begun) < cap:
        return ""
    # A place comes free when enough of the hour's games have grown an hour old.
    (freed_at,) = begun[len(begun) - cap]
    minutes = max(1, math.ceil((freed_at + HOUR - now) / timedelta(minutes=1)))
    # A wait said after "try again in": some languages decline it there.
    wait = npgettext("try again in", "%(minutes)d minute", "%(minutes)d minutes", minutes) % {
        "minutes": minutes
    }
    return ngettext(
        "You have begun %(count)d game against the computer in the last hour, the most an "
        "hour allows: try again in %(wait)s.",
        "You have begun %(count)d games against the computer in the last hour, the most an "
        "hour allows: try again in %(wait)s.",
        len(begun),
    ) % {"count": len(begun), "wait": wait}


def deciding_bot(game: Game) -> tuple[int, str] | None:
    """(seat, level) of a bot that must decide now in ``game``, if any."""
    if game.status != Game.Status.ACTIVE or game.to_decide is None:
        return None
    level = level_of(game.player(game.to_decide))
    return (game.to_decide, level) if level else None


def moving_now() -> bool:
    """Whether this thread is inside a bot's own move (in the worker)."""
    return getattr(_moving, "active", False)


def hint(game: Game, seat: int) -> tuple[str, dict]:
    """The search bot's advice to ``seat``, who decides now: the move in the log's words, and
    what the page marks for it (the kind's ``hint_marks``)."""
    from games import bots, kinds

    state = states.load_state(game)
    # Thought out in the compute queue, like the bot's moves, within a fixed budget.
    budget = bots.HINT_BUDGETS[game.kind]
    action = bots.choose(game.kind, state, seat, "search", random.Random(), budget)
    marks = kinds.of(game).hint_marks(state, action)
    return game.engine.describe_action(state, action), marks


def hint_at(game_id: int, seat: int, seq: int) -> dict:
    """The hint for ``seat`` in game ``game_id`` as it stood at ``seq`` (the task's answer):
    ``{"advice", "cells", "tiles"}``, or ``{"moved_on": True}`` when there is none now. The
    page says it in its reader's language (``hint_words``): the task runner has none."""
    game = Game.objects.select_related("seat0", "seat1").filter(pk=game_id).first()
    if game is None or game.seq != seq or game.to_decide != seat:
        return {"moved_on": True}
    advice, marks = hint(game, seat)
    return {
        "advice": advice,  # the engine's words: a Reason where it marked them
        "cells": marks.get("cells", []),
        "tiles": marks.get("tiles", []),
    }


def hint_words(answer: dict) -> str:
    """A hint's answer (``hint_at``) in the active language."""
    if "advice" not in answer:
        return gettext("The game has moved on since the hint was asked for.")
    return gettext("Hint: %(move)s") % {"move": say(answer["advice"])}


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
    state = states.load_state(game)
    # Seeded by what is public (never by the game's secret seed), and thought out within a
    # number of simulations: a retried task plays the same move.
    rng = random.Random(f"computer:{game.pk}:{seq}")
    simulations = settings.COMPUTER_SIMULATIONS
    budget = bots.Budget(simulations=simulations) if simulations else None
    action = bots.choose(game.kind, state, seat, level, rng, budget)
    outer, _moving.active = getattr(_moving, "active", False), True
    try:
        return services.submit_action(game, game.player(seat), action.to_json(), seq)
    except services.StaleMove:
        return None  # a resignation or a clock got there first
    finally:
        _moving.active = outer

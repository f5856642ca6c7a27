"""Prepared replies ("conditional moves"): in a game of perfect information, a player waiting
for the opponent leaves lines "if they play X, I reply Y; then if Z, W…", and the server plays
each reply at once when the opponent's move matches.

A line is a list of engine actions from the position after ``base_seq`` actions, the
opponent's first. Each action appended to a game's log (``follow``, inside the move's
transaction, under the game's lock) advances every line whose next move it is and drops every
other line of the game; when the player to decide next has a line whose next move is theirs,
``due`` names it and the service door plays it like any move (``services.submit_action``).
Lines are private to their player: no view, push or record reads them; a move of a line is an
ordinary action once played.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.models import ConditionalLine, Game
from games.play import states
from games.play.refusals import MoveRejected, NotAllowed, StaleMove, refusal_of

MAX_LINES = ConditionalLine.MAX_PER_GAME
# The longest line, in actions (both players'): ten replies deep is far more than any player
# prepares, and keeps a line's check within a few milliseconds.
MAX_MOVES = 20


def offered(game: Game) -> bool:
    """Whether ``game``'s players may prepare replies: a game of perfect information, in play,
    between two accounts (not an imported record), off a live clock (whose next move comes in
    seconds, and whose clock would give a reply played for the player no thinking time)."""
    return (
        game.engine.PERFECT_INFORMATION
        and game.status == Game.Status.ACTIVE
        and not game.imported
        and not game.clock_control.live
    )


def lines_of(game: Game, user) -> list[ConditionalLine]:
    """``user``'s lines in ``game``, oldest first: theirs alone, whoever asks."""
    if not user.is_authenticated:
        return []
    return list(ConditionalLine.objects.filter(game=game, user=user))


@dataclass(frozen=True)
class Step:
    """One move of a line: who makes it, and the engine action."""

    seat: int
    action: object


def walk(game: Game, state, moves: list) -> list[Step]:
    """The moves of a line checked one by one from ``state``: each well formed and legal for
    whoever decides then. MoveRejected says which move is not, and why."""
    steps: list[Step] = []
    for number, data in enumerate(moves, start=1):
        try:
            action = game.engine.Action.from_json(data)
        except game.engine.MalformedAction as error:
            raise MoveRejected(_at(number, refusal_of(error))) from None
        mover = state.to_decide
        if mover is None:
            raise MoveRejected(
                _("the game would be over before move %(number)s of this line") % {"number": number}
            )
        try:
            state = game.engine.apply_action(state, action)
        except game.engine.IllegalAction as error:
            raise MoveRejected(_at(number, refusal_of(error))) from None
        steps.append(Step(mover, action))
    return steps


def _at(number: int, reason: str) -> str:
    return _("move %(number)s of this line: %(reason)s") % {"number": number, "reason": reason}


def prepare(game: Game, user, moves: object, expected_seq: int) -> ConditionalLine:
    """Keep a new line of ``user`` in ``game``, checked against the game as it is at
    ``expected_seq`` (the page the player prepared it on), or raise MoveRejected."""
    if not isinstance(moves, list) or not moves:
        raise MoveRejected(_("a prepared line is a list of moves"))
    if len(moves) > MAX_MOVES:
        raise MoveRejected(
            ngettext(
                "a prepared line holds at most %(count)d move",
                "a prepared line holds at most %(count)d moves",
                MAX_MOVES,
            )
            % {"count": MAX_MOVES}
        )
    with transaction.atomic():
        game = _locked(game)
        seat = _seat_preparing(game, user, expected_seq)
        steps = walk(game, states.load_state(game), moves)
        _check_shape(steps, seat)
        moves = [step.action.to_json() for step in _without_tail(steps, seat)]
        kept = list(ConditionalLine.objects.filter(game=game, user=user))
        _check_against(kept, moves, steps, game.seq)
        if len(kept) >= MAX_LINES:
            raise MoveRejected(
                ngettext(
                    "you have %(count)d prepared line in this game already, the most it holds: "
                    "delete one first",
                    "you have %(count)d prepared lines in this game already, the most it holds: "
                    "delete one first",
                    len(kept),
                )
                % {"count": len(kept)}
            )
        return ConditionalLine.objects.create(
            game=game, user=user, seat=seat, base_seq=game.seq, moves=moves
        )


def _locked(game: Game) -> Game:
    return (
        Game.objects.select_for_update(of=("self",))
        .select_related("seat0", "seat1")
        .get(pk=game.pk)
    )


def _seat_preparing(game: Game, user, expected_seq: int) -> int:
    """The seat of ``user``, who may prepare a line in the locked ``game`` now."""
    seat = game.seat_of(user)
    if seat is None:
        raise NotAllowed(_("only the two players of this game can prepare replies in it"))
    if not game.engine.PERFECT_INFORMATION:
        raise MoveRejected(
            _("%(game)s has hidden information: replies cannot be prepared in it")
            % {"game": game.kind_title}
        )
    if game.status != Game.Status.ACTIVE:
        raise StaleMove(_("this game is not in play"))
    if game.clock_control.live:
        raise MoveRejected(_("replies are prepared in correspondence and untimed games, not live"))
    if expected_seq != game.seq:
        raise StaleMove(str(StaleMove.PAGE))
    if game.to_decide == seat:
        raise MoveRejected(_("it is your move: play it, and prepare replies while you wait"))
    return seat


def _check_shape(steps: list[Step], seat: int) -> None:
    # The first move is the opponent's: the line is checked from a position they decide in.
    if not any(step.seat == seat for step in steps):
        raise MoveRejected(_("a prepared line needs at least one reply of yours"))


def _without_tail(steps: list[Step], seat: int) -> list[Step]:
    """The line up to its player's last reply: the opponent's moves after it prepare nothing."""
    last = max(index for index, step in enumerate(steps) if step.seat == seat)
    return steps[: last + 1]


def _check_against(kept: list[ConditionalLine], moves: list, steps: list[Step], seq: int) -> None:
    """Refuse a line that repeats one kept, or answers the same moves with another reply: the
    server must know which reply to play."""
    for line in kept:
        if line.base_seq != seq:
            continue
        for index, (mine, theirs) in enumerate(zip(moves, line.moves, strict=False)):
            if mine == theirs:
                continue
            if steps[index].seat == line.seat:
                raise MoveRejected(
                    _(
                        "another of your lines answers the same moves with a different move "
                        "%(number)s: delete it first"
                    )
                    % {"number": index + 1}
                )
            break
        else:
            if len(moves) <= len(line.moves):
                raise MoveRejected(_("one of your lines already holds this one"))


def withdraw(game: Game, user, line_id: int) -> None:
    """Delete one of ``user``'s lines. StaleMove if it is gone already: played to its end, or
    dropped by a move it did not foresee."""
    with transaction.atomic():
        game = _locked(game)
        deleted, _rows = ConditionalLine.objects.filter(game=game, user=user, pk=line_id).delete()
    if not deleted:
        raise StaleMove(
            _(
                "that line is gone already: played to its end, or dropped by a move it did not "
                "foresee"
            )
        )


def withdraw_all(game: Game, user) -> int:
    with transaction.atomic():
        game = _locked(game)
        deleted, _rows = ConditionalLine.objects.filter(game=game, user=user).delete()
    return deleted


# -- the move's part: called by the service door under the game's lock --------------------------


def follow(game: Game, seq: int, data: dict) -> list[ConditionalLine]:
    """Action ``seq`` (``data``) was appended to the locked ``game``: advance the lines that
    foresaw it, drop the others (and every line once the game is no longer in play). Returns
    the lines still waiting, the oldest first."""
    if not game.engine.PERFECT_INFORMATION:
        return []  # no game of hidden information has lines: no query for it
    lines = list(ConditionalLine.objects.filter(game=game).select_related("user"))
    if not lines:
        return []
    if game.status != Game.Status.ACTIVE:
        drop_all(game)
        return []
    dropped, advanced = [], []
    for line in lines:
        if line.base_seq == seq - 1 and line.moves[0] == data and len(line.moves) > 1:
            line.moves = line.moves[1:]
            line.base_seq = seq
            advanced.append(line)
        else:
            dropped.append(line.pk)
    if dropped:
        ConditionalLine.objects.filter(pk__in=dropped).delete()
    if advanced:
        ConditionalLine.objects.bulk_update(advanced, ["moves", "base_seq"])
    return advanced


def drop_all(game: Game) -> None:
    """The game is over: nothing more can be replied."""
    ConditionalLine.objects.filter(game=game).delete()


def due(lines: list[ConditionalLine], state) -> ConditionalLine | None:
    """Of the ``lines`` still waiting (``follow``'s), the one whose next move is for
    ``state.to_decide`` to make now, if any."""
    return next((line for line in lines if line.seat == state.to_decide), None)

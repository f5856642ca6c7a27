"""Takeback requests: a player asks to take back their last action, the opponent answers.

Asking marks the game's row with the action at the end of the log (``Game.takeback_seq``);
the request stays open only while the log still ends there, so any later action (the
opponent's move, or the asker's own next action) leaves it behind without a write. A declined
request is not asked again for the same action. Accepting appends the engine's takeback entry
to the log (``games.engine.takeback``) as the accepting player's decision, through the same
lock as a move: every replay then skips the action taken back, and the log keeps both.

The engine decides whether an action may be taken back (``takeback_refusal``: the opponent
acted since, or the action showed something hidden); this module decides who may ask: the
players of a game in play, not against the computer (it answers a move at once, so by the
time one could ask it has acted), and in a rated game only when both players allow it in
their settings. The clock gives no time back, as on lichess: the action's time stays spent,
and the time the opponent took to accept counts as theirs.
"""

from __future__ import annotations

from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from games.engine.takeback import is_takeback, marker
from games.models import Computer, Game, PlayerSettings
from games.play import conditional, services, states, timing, vacation
from games.play.refusals import MoveRejected, NotAllowed, StaleMove, refusal_of
from games.words import say


def asked(game: Game) -> int | None:
    """The seat whose takeback request waits for an answer, or None. A request is for the
    action at the end of the log: a later action leaves it behind, with no write."""
    if (
        game.status != Game.Status.ACTIVE
        or game.takeback_seq != game.seq
        or game.takeback_declined
        or not game.seq
    ):
        return None
    return game.takeback_by


def rules_refusal(game: Game, seat: int) -> str:
    """Why ``seat`` may not ask to take back their last action now, in the player's words,
    or "" if they may: first the site's reasons, then the engine's, which reads the log."""
    if game.status != Game.Status.ACTIVE:
        return _("only a game in play allows takebacks")
    if _against_computer(game):
        return _(
            "the computer answers each move at once, so it has always acted since: "
            "a game against it allows no takebacks"
        )
    if game.rated and not _both_allow(game):
        return _(
            "this rated game allows no takebacks: both players must allow them in their settings"
        )
    state = states.load_state(game)
    before = states.state_at(game, game.seq - 1) if game.seq else state
    reason = game.engine.takeback_refusal(before, state, seat)
    return say(reason) if reason else ""


def offer(game: Game, seat: int | None) -> dict:
    """What the game page shows ``seat`` about takebacks: a request waiting (to answer, or
    theirs), a refusal of theirs for this action, or whether they may ask."""
    if seat is None or game.status != Game.Status.ACTIVE or not game.seq:
        return {}
    waiting = asked(game)
    if waiting is not None:
        return {"asked_by_me": waiting == seat, "asked_of_me": waiting != seat}
    if game.takeback_seq == game.seq:
        return {"declined": game.takeback_by == seat}
    last = states.load_state(game).history[-1]
    if last["player"] != seat or is_takeback(last["action"]) or last.get("taken_back"):
        return {}  # the cheap test first: most pages are not just after one's own action
    return {"can_ask": not rules_refusal(game, seat)}


def ask(game: Game, user, expected_seq: int) -> Game:
    """``user`` asks to take back action ``expected_seq``, the last of the log and theirs."""
    with transaction.atomic():
        game = services.lock(game)
        seat = _seat(game, user)
        _fresh(game, expected_seq)
        if game.takeback_seq == game.seq:
            raise StaleMove(_("you have already asked to take back this action"))
        reason = rules_refusal(game, seat)
        if reason:
            raise MoveRejected(reason)
        game.takeback_seq, game.takeback_by, game.takeback_declined = game.seq, seat, False
        game.save(update_fields=["takeback_seq", "takeback_by", "takeback_declined", "updated_at"])
        services.changed_on_commit(game, by=seat)
    return game


def answer(game: Game, user, expected_seq: int, accept: bool) -> Game:
    """The opponent of the player who asked accepts (the takeback is appended to the log) or
    declines the request for action ``expected_seq``."""
    try:
        with transaction.atomic():
            game = services.lock(game)
            seat = _seat(game, user)
            _fresh(game, expected_seq)
            waiting = asked(game)
            if waiting is None:
                raise StaleMove(_("there is no takeback request to answer"))
            if waiting == seat:
                raise NotAllowed(_("you asked for this takeback: your opponent answers it"))
            if accept:
                _take_back(game, seat, user)
            else:
                game.takeback_declined = True
                game.save(update_fields=["takeback_declined", "updated_at"])
                services.changed_on_commit(game, by=seat)
    except IntegrityError:
        raise StaleMove(str(StaleMove.PAGE)) from None
    return game


def _take_back(game: Game, seat: int, user) -> None:
    """Append the takeback, checked by the engine as any move is, as ``seat``'s decision."""
    reason = rules_refusal(game, 1 - seat)
    if reason:
        raise MoveRejected(reason)
    state = states.load_state(game)
    try:
        following = game.engine.take_back(state)
    except game.engine.IllegalAction as error:
        raise MoveRejected(refusal_of(error)) from None
    data = marker(game.seq)
    # Stored as the decision of the seat whose clock was running (``games.engine.takeback``).
    decider = state.to_decide
    made = game.actions.create(seq=game.seq + 1, player=decider, user=user, data=data)
    game.seq += 1
    game.to_decide = following.to_decide
    game.scores = list(following.returns())
    game.save()
    timing.refresh_deadline(game)
    vacation.end(user)
    conditional.follow(game, game.seq, data)  # drops every prepared line: the position changed
    transaction.on_commit(lambda: timing.decided(game, made.seq, decider, made.created_at))
    services.changed_on_commit(game, by=seat, state=following)


def _seat(game: Game, user) -> int:
    seat = game.seat_of(user)
    if seat is None:
        raise NotAllowed(_("only the two players of this game can ask for or answer a takeback"))
    return seat


def _fresh(game: Game, expected_seq: int) -> None:
    if game.status != Game.Status.ACTIVE:
        raise StaleMove(services.ending_words(game) if game.over else _("this game is not in play"))
    if expected_seq != game.seq:
        raise StaleMove(str(StaleMove.PAGE))


def _against_computer(game: Game) -> bool:
    seats = (game.seat0, game.seat1)
    if not any(user and Computer.may_be(user) for user in seats):
        return False  # two people, surely: no query
    return Computer.objects.filter(user_id__in=[game.seat0_id, game.seat1_id]).exists()


def _both_allow(game: Game) -> bool:
    return all(PlayerSettings.of(game.player(seat)).takebacks_in_rated for seat in (0, 1))


# -- telling of takebacks: the game page, the replay, the records ------------------------------


def taken_back_pairs(state) -> list[tuple[int, int]]:
    """Each takeback in the log of ``state``: (its number, the number of the action it took
    back), the oldest first."""
    return [
        (seq, entry["action"]["seq"])
        for seq, entry in enumerate(state.history, start=1)
        if is_takeback(entry["action"])
    ]


def shown_then(game: Game, seq: int, seat: int | None, reveal: bool = False) -> dict | None:
    """The log entry of action ``seq``, since taken back, as ``seat`` saw it when it was made
    (``reveal``: with everything shown, for a game that is over): the engine's view of the
    game just after it, so a secret it kept then stays kept."""
    state = states.state_at(game, seq)
    seen = game.engine.reveal(state) if reveal else game.engine.view(state, seat)
    for entry in reversed(seen["log"]):
        if entry.get("seq") == seq and entry.get("kind", "place") != "pass":
            return entry
    return None


def asker_of(state, seq: int) -> int:
    """The seat whose action ``seq`` was (and who asked to take it back)."""
    return state.history[seq - 1]["player"]


def taken_back_words(state, takeback_seq: int, names: list[str]) -> str:
    """The takeback at ``takeback_seq`` in a sentence: whose action, and that it was agreed."""
    undone = state.history[takeback_seq - 1]["action"]["seq"]
    asker = asker_of(state, undone)
    return _("%(asker)s's action %(number)s was taken back, by agreement with %(other)s.") % {
        "asker": names[asker],
        "number": undone,
        "other": names[1 - asker],
    }


def last_taken_back(state, names: list[str]) -> str:
    """The sentence for the game page when the last entry of the log is a takeback."""
    if state.history and is_takeback(state.history[-1]["action"]):
        return taken_back_words(state, len(state.history), names)
    return ""

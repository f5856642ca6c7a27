"""The only ways a game changes: create, accept, cancel, ``submit_action``, resign, abort,
a rematch, and the clock running out.

``submit_action`` is the one door through which a move reaches the database: lock the game,
check the clock, who may act and that the page was fresh, apply through the engine, append,
commit. Every way a game ends goes through ``_end``, under the same lock, so a last-second move
and the clock's sweep give exactly one outcome.
"""

from __future__ import annotations

import logging
import secrets

from django.db import IntegrityError, transaction
from django.db.models import Exists
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games import events, kinds
from games.clock import TimeControl
from games.compiled import Compiled
from games.engine.interface import GameAction, GameState
from games.models import Action, Block, Ending, Game, Sanction, Series, player_name
from games.play import conditional, states, timing, vacation
from games.play.refusals import (
    MoveRejected,
    NotAllowed,
    StaleMove,
    refusal_of,
    refuse_if_suspended,
)
from games.ratings import service as ratings
from games.terms import RATING_RANGES, GameSettings, UnplayableSettings

log = logging.getLogger(__name__)
# A line for every move, under a name of its own: the load and benchmark commands, which play
# thousands in one process, quiet it.
moves_log = logging.getLogger("games.moves")


# -- creating and joining games ----------------------------------------------------------------


def create_game(user, settings: GameSettings) -> Game:
    """A game of ``settings`` waiting for an opponent, ``user`` in seat 0; UnplayableSettings,
    before anything is stored, for settings the lobby's form would not give or for a suspended
    player (saying why)."""
    refuse_if_suspended(user, UnplayableSettings)
    kind, first = _checked(settings)
    options = kind.new_options(settings.options, first)
    series = None
    if settings.series:
        series = Series.objects.create(kind=kind.key, length=settings.series)
    game = Game.objects.create(
        created_by=user,
        seat0=user,
        kind=kind.key,
        edition=options.to_json().get("edition", ""),
        options=options.to_json(),
        engine_version=kind.engine.VERSION,
        private=settings.private,
        time_control=settings.time_control,
        series=series,
        series_number=1 if series else None,
        hints=settings.hints and not settings.rated,
        **ratings.seek_terms(
            user,
            kind.key,
            settings.time_control,
            settings.rated,
            settings.private,
            settings.rating_range,
        ),
    )
    events.send_on_commit(events.seek_changed, game=game)
    return game


def checked_terms(settings: GameSettings) -> None:
    """UnplayableSettings, as ``create_game`` would raise it, if no game could be started on
    ``settings`` (a tournament's terms, checked once for all its games)."""
    kind, first = _checked(settings)
    kind.new_options(settings.options, first)


def _checked(settings: GameSettings) -> tuple[kinds.GameKind, int]:
    """The kind of ``settings`` and the seat of its first role, once the platform's part of
    them is one the lobby offers. The creator always sits in seat 0; who takes the first role
    is decided now, as the rules say."""
    try:
        kind = kinds.get(settings.kind)
    except KeyError:
        names = _either([title for _key, title in kinds.choices()])
        raise UnplayableSettings(
            _("This site hosts no such game: choose %(names)s.") % {"names": names}
        ) from None
    firsts = {"me": 0, "opponent": 1, "random": None}
    if type(settings.first) is not str or settings.first not in firsts:
        raise UnplayableSettings(
            _("The first role goes to you, to your opponent or to either at random.")
        )
    try:
        TimeControl.parse(settings.time_control if type(settings.time_control) is str else "?")
    except ValueError:
        raise UnplayableSettings(_("That clock is not one of the lobby's: choose one.")) from None
    if settings.series and (
        type(settings.series) is not int or settings.series not in kind.series_lengths
    ):
        raise UnplayableSettings(_series_words(kind))
    if settings.rating_range and settings.rating_range not in RATING_RANGES:
        raise UnplayableSettings(
            _("A seek is open to any strength or to players rated within %(ranges)s of you.")
            % {"ranges": _either([f"±{r}" for r in RATING_RANGES])}
        )
    first = firsts[settings.first]
    return kind, secrets.randbelow(2) if first is None else first


def _series_words(kind: kinds.GameKind) -> str:
    if not kind.series_lengths:
        return _("%(game)s is played one game at a time, not in a series.") % {"game": kind.title}
    lengths = _either([str(n) for n in kind.series_lengths])
    return _("%(game)s is played one game at a time or in a series of %(lengths)s games.") % {
        "game": kind.title,
        "lengths": lengths,
    }


def _either(words: list[str]) -> str:
    """The words as a sentence lists them: "a, b or c"."""
    if len(words) < 2:
        return "".join(words)
    return _("%(some)s or %(last)s") % {"some": ", ".join(words[:-1]), "last": words[-1]}


def accept_game(game: Game, user) -> Game:
    refuse_if_suspended(user)
    with transaction.atomic():
        game = Game.objects.select_for_update().get(pk=game.pk)
        if game.status != Game.Status.OPEN:
            raise StaleMove(_("this game has already been taken or cancelled"))
        if game.seat0_id == user.pk:
            raise NotAllowed(_("you cannot play against yourself: wait for an opponent"))
        if Block.objects.between(game.seat0_id, user.pk).exists():
            # Silent: a blocked pair's seek reads to either as one already gone.
            raise StaleMove(_("this game has already been taken or cancelled"))
        refusal = ratings.range_refusal(game, user)
        if refusal:
            raise MoveRejected(refusal)
        game.seat1 = user
        game.status = Game.Status.ACTIVE
        game.started_at = timezone.now()
        ratings.decide_at_start(game)
        state = states.load_state(game)
        game.to_decide = state.to_decide
        game.save()
        timing.refresh_deadline(game)
        changed_on_commit(game)
        events.send_on_commit(events.seek_changed, game=game)
    return game


def cancel_game(game: Game, user) -> Game:
    with transaction.atomic():
        game = Game.objects.select_for_update().get(pk=game.pk)
        if game.created_by_id != user.pk:
            raise NotAllowed(_("only the player who opened this game can cancel it"))
        if game.status != Game.Status.OPEN:
            raise StaleMove(_("only a game still waiting for an opponent can be cancelled"))
        game.status = Game.Status.CANCELLED
        game.save()
        events.send_on_commit(events.seek_changed, game=game)
    return game


# -- the one door for a move ------------------------------------------------------------------


def lock(game: Game, mover=None) -> Game:
    """``game``'s row, locked until the transaction ends; ``seq_at_lock`` keeps the seq it had,
    before this transaction appends anything (``timing.decisions`` caches no further).

    With ``mover``, the same query also tells whether they are suspended (``mover_suspended``)
    and on vacation (``mover_away``), which a move must know: two queries fewer a move. Both
    compiled once (``games.compiled``): compiling them cost more than running them."""
    if mover is None:
        locked = _LOCKED.first(game.pk)
    else:
        locked = _LOCKED_FOR_MOVE.first(game.pk, mover.pk, timezone.now())
    if locked is None:
        raise Game.DoesNotExist(f"no game {game.pk}")
    locked.seq_at_lock = locked.seq
    return locked


def _locked(pk: int):
    return Game.objects.select_for_update(of=("self",)).with_players().filter(pk=pk)


_LOCKED = Compiled(_locked)
_LOCKED_FOR_MOVE = Compiled(
    lambda pk, mover_id, now: _locked(pk).annotate(
        mover_suspended=Exists(Sanction.objects.suspensions_of(mover_id, now)),
        mover_away=Exists(vacation.in_progress(mover_id, now)),
    )
)


def submit_action(game: Game, user, data: object, expected_seq: int) -> Game:
    """Apply ``data`` (an engine action as JSON) for ``user``, or raise MoveRejected.

    Nothing is written unless everything checks out; a concurrent submission for the same seq
    either waits for the lock and is then stale, or fails the (game, seq) unique constraint.
    A move that arrives after its player's clock ran out ends the game instead, and is refused.
    """
    try:
        action = game.engine.Action.from_json(data)
    except game.engine.MalformedAction as error:
        raise MoveRejected(refusal_of(error)) from None
    try:
        with transaction.atomic():
            game = lock(game, mover=user)
            if game.mover_suspended:
                refuse_if_suspended(user)  # in their suspension's own words
            seat = game.seat_of(user)
            if seat is None:
                raise NotAllowed(_("only the two players of this game can act in it"))
            flagged = _flag_if_out_of_time(game, timezone.now())
            if not flagged:
                _apply(game, seat, user, action, expected_seq)
    except IntegrityError:
        raise StaleMove(
            _("another move was made at the same moment: here is the game now")
        ) from None
    if flagged:
        raise StaleMove(ending_words(game))
    return game


def _apply(game: Game, seat: int, user, action: GameAction, expected_seq: int) -> None:
    if game.status != Game.Status.ACTIVE:
        raise StaleMove(ending_words(game) if game.over else _("this game is not in play"))
    if expected_seq != game.seq:
        raise StaleMove(str(StaleMove.PAGE))
    state = states.load_state(game)
    if state.to_decide != seat:
        raise NotAllowed(_("it is not your decision now"))
    try:
        following = game.engine.apply_action(state, action)
    except game.engine.IllegalAction as error:
        raise MoveRejected(refusal_of(error)) from None
    waiting = _append(game, seat, user, action, state, following)
    following = _play_prepared_replies(game, following, waiting)
    # Told once, the move and any reply to it appended: the mover's own answer shows both.
    changed_on_commit(game, by=seat, state=following)


def _append(
    game: Game, seat: int, user, action: GameAction, state, following, prepared: bool = False
) -> list:
    """Append a checked action of ``seat`` to the locked ``game``: the log, the game's row, the
    clock and the prepared lines. Returns the prepared lines still waiting after it."""
    data = action.to_json()
    made = Action.objects.create(game=game, seq=game.seq + 1, player=seat, user=user, data=data)
    game.seq += 1
    transaction.on_commit(lambda: timing.decided(game, made.seq, seat, made.created_at))
    transaction.on_commit(lambda: _log_move(game.pk, made.seq, seat))
    # Any move of theirs ends a vacation; a prepared reply is not one. The lock asked already
    # whether the mover is away, where it asked (``lock``).
    if not prepared and getattr(game, "mover_away", True):
        vacation.end(user)
    _record_progress(game, following)
    game.save()
    timing.refresh_deadline(game)
    waiting = conditional.follow(game, game.seq, data)
    transaction.on_commit(lambda: states.keep(game.pk, len(state.history), state))
    return waiting


def _log_move(game_id: int, seq: int, seat: int) -> None:
    """One line for each move that reached the log, once it is committed: with the request id
    of the page that posted it, the game and the seq let an operator follow a game."""
    moves_log.info(
        "game %s: seat %s made move %s", game_id, seat, seq, extra={"game_id": game_id, "seq": seq}
    )


def _play_prepared_replies(game: Game, state, waiting: list):
    """Play at once, in the same transaction, each reply a player prepared for the move just
    made (``games.play.conditional``): checked by the engine like any move, its player told.
    Returns the state after the last of them."""
    while (line := conditional.due(waiting, state)) is not None:
        try:
            action = game.engine.Action.from_log(line.moves[0])
            following = game.engine.apply_action(state, action)
        except ValueError:  # checked when kept: never, unless the rules changed since
            conditional.drop_all(game)
            log.error("game %s: a prepared reply was refused; the lines were dropped", game.pk)
            return state
        waiting = _append(game, line.seat, line.user, action, state, following, prepared=True)
        events.send_on_commit(events.prepared_reply_played, game=game, seat=line.seat, seq=game.seq)
        state = following
    return state


def _record_progress(game: Game, state: GameState) -> None:
    game.to_decide = state.to_decide
    game.scores = list(state.returns())
    if state.finished:
        game.status = Game.Status.FINISHED
        game.finished_at = timezone.now()
        game.winners = list(state.outcome.winners)
        game.termination = state.outcome.termination
        ratings.game_over(game)
        continue_series(game)


def _changed(game: Game, by: int | None, state: GameState | None, seq: int) -> None:
    """On commit: keep the new state for the pages about to ask, then tell the site."""
    if state is not None:
        states.remember(game.pk, seq, state)
    events.send(events.game_changed, game=game, by=by)


def changed_on_commit(game: Game, by: int | None = None, state: GameState | None = None) -> None:
    """Tell the site of ``game``'s change once the transaction that made it commits
    (``games.events.game_changed``); for every change made outside this module too. ``state``
    is the game's at its seq now: a prepared reply may append another action before commit."""
    seq = game.seq
    transaction.on_commit(lambda: _changed(game, by, state, seq))


# -- how a game ends besides its last move ------------------------------------------------------

# Said in the active language when read (``ending_words``).
ENDINGS = {
    Ending.TIMEOUT: gettext_lazy("%(loser)s ran out of time: %(winner)s wins."),
    Ending.RESIGNATION: gettext_lazy("%(loser)s resigned: %(winner)s wins."),
    Ending.ABORTED: gettext_lazy(
        "The game was aborted by %(loser)s before it really began: no result."
    ),
    Ending.ABANDONED: gettext_lazy(
        "The game was aborted: %(loser)s made no first move in time. No result."
    ),
}


def ending_words(game: Game) -> str:
    """The sentence that says how a game that is over ended, when it was not by the rules."""
    template = ENDINGS.get(game.termination)
    if template is None or game.ended_by is None:
        return _("this game is over")
    names = [player_name(u) for u in (game.seat0, game.seat1)]
    return str(template) % {"loser": names[game.ended_by], "winner": names[1 - game.ended_by]}


def _end(game: Game, termination: str, ended_by: int) -> None:
    """End a locked game: a loss for ``ended_by``, or no result for an abort."""
    aborted = termination in Ending.NO_RESULT
    game.status = Game.Status.ABORTED if aborted else Game.Status.FINISHED
    game.termination = termination
    game.ended_by = ended_by
    game.winners = [] if aborted else [1 - ended_by]
    game.to_decide = None
    game.deadline = None
    game.finished_at = timezone.now()
    game.save()
    conditional.drop_all(game)
    if not aborted:
        ratings.game_over(game)
        continue_series(game)
    changed_on_commit(game)


def continue_series(game: Game) -> None:
    """After a finished game of a series, the next one starts at once, roles swapped. (An
    aborted game ends the series where it stands.)"""
    if game.series_id is None or game.series_number >= game.series.length:
        return
    if game.series.games.filter(series_number=game.series_number + 1).exists():
        return
    _swapped(game, series=game.series, series_number=game.series_number + 1)


def _has_moved(game: Game, seat: int) -> bool:
    return game.actions.filter(player=seat).exists()


def _flag_if_out_of_time(game: Game, now) -> bool:
    """On a locked game: end it if the deciding player's clock has run out (unless vacation
    can cover a correspondence game). True if the game ended now."""
    if game.status != Game.Status.ACTIVE:
        return False
    reading = timing.read(game, now)
    seat = reading.flagged
    if seat is None:
        return False
    # A player who never made a first move leaves a game that never really began: it is
    # aborted in the time for one decision, without spending vacation on it.
    began = _has_moved(game, seat)
    if (
        began
        and game.clock_control.correspondence
        and vacation.spend_to_save(game.player(seat), game, reading.deadline, now)
    ):
        timing.refresh_deadline(game, now)
        return False
    _end(game, Ending.TIMEOUT if began else Ending.ABANDONED, seat)
    return True


def enforce_clock(game: Game, now=None) -> Game:
    """End ``game`` if its clock has run out at ``now``; the page and the delayed check call
    this. Returns the game as it now is, its stored deadline brought up to date."""
    return _check_clock(game, now)[0]


def ended_on_time(game: Game, now=None) -> bool:
    """``enforce_clock`` for the sweep, which counts what it did: True only if this call ended
    the game, not when another sweep, a page or a move ended it between the sweep's query and
    the lock."""
    return _check_clock(game, now)[1]


def _check_clock(game: Game, now) -> tuple[Game, bool]:
    now = now or timezone.now()
    with transaction.atomic():
        game = lock(game)
        ended = _flag_if_out_of_time(game, now)
        if not ended:
            timing.refresh_deadline(game, now)  # a vacation may have moved it
    return game, ended


def _ended_by_player(game: Game, user, strangers: str, termination: str, refusal) -> Game:
    """End a locked game by a player's own choice, unless ``refusal(game, seat)`` says why not
    (``strangers``: what anyone else is told). A clock that ran out first ends the game on
    time, committed before the player is told."""
    with transaction.atomic():
        game = lock(game)
        seat = game.seat_of(user)
        if seat is None:
            raise NotAllowed(strangers)
        flagged = _flag_if_out_of_time(game, timezone.now())
        if not flagged:
            reason = refusal(game, seat)
            if reason:
                raise StaleMove(reason)
            _end(game, termination, seat)
    if flagged:
        raise StaleMove(ending_words(game))
    return game


def resign(game: Game, user) -> Game:
    def refusal(game: Game, seat: int) -> str:
        return "" if game.status == Game.Status.ACTIVE else _("this game is already over")

    strangers = _("only the two players of this game can resign it")
    return _ended_by_player(game, user, strangers, Ending.RESIGNATION, refusal)


def games_to_resign(user) -> int:
    """How many games ``resign_everything`` would resign: those running, and the games still to
    come of their series (a resigned game of a series starts the next one)."""
    count = 0
    for game in Game.objects.involving(user).running().select_related("series"):
        count += 1 + (game.series.length - game.series_number if game.series_id else 0)
    return count


def resign_everything(user) -> list[int]:
    """Resign every game ``user`` is playing (an account closed or suspended); their ids. Until
    none is left, since resigning a game of a series starts its next one; a game whose clock ran
    out meanwhile ended on time, a loss all the same."""
    resigned = []
    with transaction.atomic():
        while game := Game.objects.involving(user).running().order_by("pk").first():
            try:
                resign(game, user)
                resigned.append(game.pk)
            except StaleMove:
                game.refresh_from_db()
                if game.status == Game.Status.ACTIVE:
                    raise  # not ended after all: never loop on it
    return resigned


def can_abort(game: Game, seat: int | None) -> bool:
    """A player may abort a game in play until they have made their own first move."""
    if seat is None or game.status != Game.Status.ACTIVE:
        return False
    state = states.cached_state(game)  # every page asks: the state drawn is at hand, mostly
    if state is None:
        return not _has_moved(game, seat)
    return not any(entry["player"] == seat for entry in state.history)


def abort(game: Game, user) -> Game:
    def refusal(game: Game, seat: int) -> str:
        if can_abort(game, seat):
            return ""
        return _("a game can be aborted only before your own first move")

    strangers = _("only the two players of this game can abort it")
    return _ended_by_player(game, user, strangers, Ending.ABORTED, refusal)


# -- rematch ------------------------------------------------------------------------------------


def offer_rematch(game: Game, user) -> Game:
    refuse_if_suspended(user)
    with transaction.atomic():
        game = lock(game)
        seat = game.seat_of(user)
        if seat is None:
            raise NotAllowed(_("only the two players of this game can offer a rematch"))
        if game.status != Game.Status.FINISHED:
            raise StaleMove(_("a rematch can be offered once the game is over"))
        if hasattr(game, "rematch"):
            raise StaleMove(_("the rematch has already begun"))
        if game.rematch_offered_by is not None:
            raise StaleMove(_("a rematch has already been offered"))
        if game.rematch_declined:
            raise StaleMove(_("the rematch was declined: open a new game in the lobby instead"))
        game.rematch_offered_by = seat
        game.rematch_declined = False
        game.save()
        events.send_on_commit(events.rematch_offered, game=game)
    return game


def answer_rematch(game: Game, user, accept: bool) -> Game:
    """The other player accepts (the new game begins at once) or declines the offer.
    Returns the new game, or the old one when declined."""
    if accept:
        refuse_if_suspended(user)
    with transaction.atomic():
        game = lock(game)
        seat = game.seat_of(user)
        if seat is None:
            raise NotAllowed(_("only the two players of this game can answer a rematch"))
        if game.rematch_offered_by is None or hasattr(game, "rematch"):
            raise StaleMove(_("there is no rematch offer to answer"))
        if game.rematch_offered_by == seat:
            raise NotAllowed(_("you made this offer: your opponent answers it"))
        if not accept:
            game.rematch_offered_by = None
            game.rematch_declined = True
            game.save()
            changed_on_commit(game)
            return game
        rematch = _start_rematch(game)
        # The old game's row changes too, so that its pushes (kept by the row's version) draw
        # the link to the rematch, not the offer still waiting.
        game.save(update_fields=["updated_at"])
        changed_on_commit(game)
    return rematch


def _start_rematch(game: Game) -> Game:
    """Same options, seats swapped: whoever moved second now moves first. A rematch is a new
    game, on today's rules."""
    return _swapped(game, rematch_of=game, engine_version=kinds.get(game.kind).engine.VERSION)


def _swapped(game: Game, **fields) -> Game:
    """A new game in play with ``game``'s options and its seats swapped, on ``game``'s rules
    version unless ``fields`` say otherwise (the games of a series keep the rules it began
    with, so that both players take each role under the same rules)."""
    # The options name roles by seat; swapping the seats gives each role to the other player.
    seat0, seat1 = game.seat1, game.seat0
    rematch = Game.objects.create(
        created_by=seat0,
        seat0=seat0,
        seat1=seat1,
        kind=game.kind,
        edition=game.edition,
        options=game.options,
        private=game.private,
        time_control=game.time_control,
        status=Game.Status.ACTIVE,
        started_at=timezone.now(),
        rated=ratings.asked(game),
        hints=game.hints,
        **{"engine_version": game.engine_version, **fields},
    )
    ratings.decide_at_start(rematch)
    rematch.to_decide = states.load_state(rematch).to_decide
    rematch.save()
    timing.refresh_deadline(rematch)
    changed_on_commit(rematch)
    return rematch

"""A game's clocks, read off its stored action times and its players' vacations.

Only the game's time control, start, action log (who decided, when) and the seat that must
decide now are used, so every game kind gets the same clocks.
"""

from __future__ import annotations

from collections import OrderedDict
from datetime import datetime
from threading import Lock

from django.db import transaction
from django.db.models import F, Q
from django.utils import timezone

from games import clock
from games.models import Action, Ending, Game, Vacation

# A live clock is a fold over every decision's time, read at every move, page and push: the
# decisions already read are kept, by game, so a read fetches only the new ones. A log is only
# appended to, so what was read stays true; the seed tells a game from a later one given the
# same id (a restored database; tests, which reuse ids and seeds, forget them between tests).
_DECIDED_MAX = 1024
_decided: OrderedDict[tuple[int, int], tuple[clock.Decision, ...]] = OrderedDict()
_decided_lock = Lock()


def decisions(game: Game) -> list[clock.Decision]:
    """Who decided when, for the game's first ``game.seq`` actions."""
    key = (game.pk, game.seed)
    with _decided_lock:
        known = list(_decided.get(key, ())[: game.seq])
    if len(known) < game.seq:
        rows = (
            game.actions.filter(seq__gt=len(known))
            .order_by("seq")
            .values_list("player", "created_at")
        )
        known += [
            clock.Decision(seat=player, at=at) for player, at in rows[: game.seq - len(known)]
        ]
    if len(known) == game.seq:
        # Inside a transaction the newest decisions may be this transaction's own (a move, and
        # a prepared reply to it), which may yet roll back: kept only once read outside one.
        # ``seq_at_lock`` is the seq the game had when its row was locked (services.lock).
        committed = getattr(game, "seq_at_lock", game.seq - 1)
        keep = known[:committed] if transaction.get_connection().in_atomic_block else known
        with _decided_lock:
            _decided[key] = tuple(keep)
            _decided.move_to_end(key)
            while len(_decided) > _DECIDED_MAX:
                _decided.popitem(last=False)
    return known


def decided(game: Game, seq: int, seat: int, at: datetime) -> None:
    """Action ``seq`` of ``game``, by ``seat``, has committed: its clock's next reads, by the
    answer and by every push, need not fetch it."""
    key = (game.pk, game.seed)
    with _decided_lock:
        known = _decided.get(key)
        if known is not None and len(known) == seq - 1:
            _decided[key] = (*known, clock.Decision(seat=seat, at=at))
            _decided.move_to_end(key)


def forget_decisions() -> None:
    with _decided_lock:
        _decided.clear()


VACATION_FIELDS = ("user_id", "starts_at", "ends_at", "days", "saved_id")


def pauses(game: Game, vacations: list[Vacation] | None = None) -> dict[int, list[clock.Interval]]:
    """Each seat's vacations that overlap the game. A vacation spent to save this game holds
    its clock for the whole days spent, though its player came back sooner (``vacation.end``),
    until they move in it. ``vacations``: rows read for many games at once (``read_many``)."""
    out: dict[int, list[clock.Interval]] = {0: [], 1: []}
    seats = {game.seat0_id: 0, game.seat1_id: 1}
    since = game.started_at or game.created_at
    if vacations is None:
        rows = Vacation.objects.filter(
            Q(ends_at__gt=since) | Q(saved=game), user_id__in=list(seats)
        ).only(*VACATION_FIELDS)
    else:
        rows = [
            row
            for row in vacations
            if row.user_id in seats and (row.ends_at > since or row.saved_id == game.pk)
        ]
    for row in rows:
        seat, end = seats[row.user_id], row.ends_at
        if (
            row.saved_id == game.pk
            and row.paid_until > end
            and not game.actions.filter(player=seat, created_at__gt=row.starts_at).exists()
        ):
            end = row.paid_until
        out[seat].append((row.starts_at, end))
    return out


_UNREAD = object()


def read(game: Game, now: datetime | None = None, last=_UNREAD, vacations=None) -> clock.Reading:
    """The clocks of ``game`` at ``now`` (the present by default). ``last`` (its last decision,
    or None) and ``vacations`` are given when ``read_many`` has read them for many games."""
    control = game.clock_control
    if not control.timed or game.started_at is None:
        return clock.UNTIMED
    to_decide = game.to_decide if game.status == Game.Status.ACTIVE else None
    if game.over and game.finished_at is not None:
        # The clocks as they stood when the game ended: a player out of time reads zero, not
        # what was left at their last decision.
        now = game.finished_at
        to_decide = game.ended_by if game.termination in Ending.OUT_OF_TIME else None
    if control.live:
        # Only the times of decisions matter; the last one is enough for correspondence.
        made = decisions(game)
    else:
        if last is _UNREAD:
            last = game.actions.order_by("-seq").values_list("player", "created_at").first()
        made = [clock.Decision(seat=last[0], at=last[1])] if last else []
    return clock.read(
        control,
        game.started_at,
        made,
        to_decide,
        now or timezone.now(),
        pauses(game, vacations) if control.correspondence else None,
    )


def read_many(games: list[Game], now: datetime | None = None) -> list[clock.Reading]:
    """The clocks of ``games`` (a player's list of them) at ``now``, with two queries for them
    all instead of two a correspondence game: their last decisions and their players'
    vacations. A live clock's decisions are kept in memory anyway (``decisions``)."""
    now = now or timezone.now()
    by_days = [g for g in games if g.clock_control.correspondence and g.started_at is not None]
    if not by_days:
        return [read(game, now) for game in games]
    last = {
        game_id: (player, at)
        for game_id, player, at in Action.objects.filter(
            game__in=by_days, seq=F("game__seq")
        ).values_list("game_id", "player", "created_at")
    }
    players = {g.seat0_id for g in by_days} | {g.seat1_id for g in by_days}
    since = min(g.started_at for g in by_days)
    vacations = list(
        Vacation.objects.filter(
            Q(ends_at__gt=since) | Q(saved__in=by_days), user_id__in=players
        ).only(*VACATION_FIELDS)
    )
    read_here = {g.pk for g in by_days}
    return [
        read(game, now, last.get(game.pk), vacations) if game.pk in read_here else read(game, now)
        for game in games
    ]


def refresh_deadline(game: Game, now: datetime | None = None) -> datetime | None:
    """Store when the running clock reaches zero (the sweep's index), and return it."""
    deadline = read(game, now).deadline if game.status == Game.Status.ACTIVE else None
    if game.deadline != deadline:
        game.deadline = deadline
        Game.objects.filter(pk=game.pk).update(deadline=deadline)
    return deadline

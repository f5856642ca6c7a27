"""A game's clocks, read off its stored action times and its players' vacations.

Only the game's time control, start, action log (who decided, when) and the seat that must
decide now are used, so every game kind gets the same clocks.
"""

from __future__ import annotations

from collections import OrderedDict
from datetime import datetime
from threading import Lock

from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from games import clock
from games.models import Ending, Game, Vacation

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
        # Inside a transaction the newest decision may be this transaction's own move, which
        # may yet roll back: it is kept only once read outside one.
        keep = known[:-1] if transaction.get_connection().in_atomic_block else known
        with _decided_lock:
            _decided[key] = tuple(keep)
            _decided.move_to_end(key)
            while len(_decided) > _DECIDED_MAX:
                _decided.popitem(last=False)
    return known


def decided(game: Game, seat: int, at: datetime) -> None:
    """A move of ``game`` (now at ``game.seq``) by ``seat`` has committed: its clock's next
    reads, by the answer and by every push, need not fetch it."""
    key = (game.pk, game.seed)
    with _decided_lock:
        known = _decided.get(key)
        if known is not None and len(known) == game.seq - 1:
            _decided[key] = (*known, clock.Decision(seat=seat, at=at))
            _decided.move_to_end(key)


def forget_decisions() -> None:
    with _decided_lock:
        _decided.clear()


def pauses(game: Game) -> dict[int, list[clock.Interval]]:
    """Each seat's vacations that overlap the game. A vacation spent to save this game holds
    its clock for the whole days spent, though its player came back sooner (``vacation.end``),
    until they move in it."""
    out: dict[int, list[clock.Interval]] = {0: [], 1: []}
    seats = {game.seat0_id: 0, game.seat1_id: 1}
    since = game.started_at or game.created_at
    rows = Vacation.objects.filter(
        Q(ends_at__gt=since) | Q(saved=game), user_id__in=list(seats)
    ).only("user_id", "starts_at", "ends_at", "days", "saved_id")
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


def read(game: Game, now: datetime | None = None) -> clock.Reading:
    """The clocks of ``game`` at ``now`` (the present by default)."""
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
        last = game.actions.order_by("-seq").values_list("player", "created_at").first()
        made = [clock.Decision(seat=last[0], at=last[1])] if last else []
    return clock.read(
        control,
        game.started_at,
        made,
        to_decide,
        now or timezone.now(),
        pauses(game) if control.correspondence else None,
    )


def refresh_deadline(game: Game, now: datetime | None = None) -> datetime | None:
    """Store when the running clock reaches zero (the sweep's index), and return it."""
    deadline = read(game, now).deadline if game.status == Game.Status.ACTIVE else None
    if game.deadline != deadline:
        game.deadline = deadline
        Game.objects.filter(pk=game.pk).update(deadline=deadline)
    return deadline

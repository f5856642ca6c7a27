"""What a committed change of a game tells the rest of the site.

The core (``games.play``) changes a game inside a transaction and, when it commits, sends one of
these signals; it knows nothing of who listens. The listeners are connected in
``GamesConfig.ready``, in the order in which they run:

``game_changed(game, by)``: a game was created, joined, moved, ended or decided. ``by`` is the
seat whose own request made the change, or None (a clock, the computer's worker, the referee).
    1. the live push to the game's sockets: the push of each player's socket open in this
       process but ``by``'s, drawn first (``games.live.pushes``), then the announcement to
       them all (``games.live.announce``); and the notice to the pages listing the games being
       played now, for a public game (``games.live.lobby``);
    2. the live clock's check at the moment it runs out, and the notifications the change may
       call for (``games.tasks``);
    3. the computer's move when a bot must decide (``games.tasks``), after the push, so that
       the opponent's page shows the move before the bot's reply;
    4. the watcher that pushes the worker's bot moves from this process
       (``games.live.watch``).
``rematch_offered(game)``: a player offered a rematch: the push, and the other's email.
``seek_changed(game)``: a game waiting for an opponent was opened, accepted or cancelled: the
lobby's list of open seeks is told (``games.live.lobby``), and so is a waiting page of a game
cancelled (``games.live.announce``; an accepted game is told by ``game_changed``).
``prepared_reply_played(game, seat, seq)``: the server played, as action ``seq``, a reply the
player in ``seat`` had prepared (``games.play.conditional``): their email and browser push.
``notification_queued(notification)``: a notification was recorded: its delivery.
``account_closed(user)``: a player closed their account (``games.play.closing``; ``user`` is the
row kept, already anonymised): each concern that keeps rows of a player forgets them.
``chat_posted(message)``: a chat message was stored (``games.community.chat``): the push to the
game's sockets, each of which shows it only to a viewer who may read it (``games.live.chat``).

Each listener is called even if one before it failed; a failure is logged and never undoes or
hides the change, which is committed already (a lost push is caught up by the page's seq check).
"""

from __future__ import annotations

import logging

from django.db import transaction
from django.dispatch import Signal

log = logging.getLogger(__name__)

game_changed = Signal()
rematch_offered = Signal()
seek_changed = Signal()
prepared_reply_played = Signal()
notification_queued = Signal()
account_closed = Signal()
chat_posted = Signal()


def send(signal: Signal, **facts) -> None:
    """Call every listener of ``signal``; log the ones that fail, and go on."""
    for receiver, outcome in signal.send_robust(sender=None, **facts):
        if isinstance(outcome, Exception):
            name = getattr(receiver, "__qualname__", repr(receiver))
            log.error("%s failed on %s", name, _subject(facts), exc_info=outcome)


def send_on_commit(signal: Signal, **facts) -> None:
    """``send`` once the current transaction commits (at once outside one); never if it rolls
    back, so no listener hears of a change that did not happen."""
    transaction.on_commit(lambda: send(signal, **facts))


def _subject(facts: dict) -> str:
    game = facts.get("game")
    if game is not None:
        return f"game {game.pk}"
    if facts.get("user") is not None:
        return f"user {facts['user'].pk}"
    message = facts.get("message")
    if message is not None:
        return f"chat message {message.pk}"
    note = facts.get("notification")
    return f"notification {note.pk}" if note is not None else "an event"

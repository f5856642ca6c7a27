"""The game's websocket: after every committed move, each viewer gets the page's partials
rendered for them (a player sees their choices, a spectator none), swapped in by htmx. Opened on
a game still waiting for its opponent, it tells the waiting page only the game's status.

The lists' websocket (the lobby's open seeks, the games being played now) tells its page only
that the list changed.

Every push carries the seq; the page fetches the partials over HTTP when it sees a gap or
reconnects. Moves themselves stay plain HTTP POSTs.

The consumer is asynchronous so that a push already rendered (every spectator's after the
first) is sent without a trip to a worker thread or the database; only a rendering, a query or a
write goes to a thread.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import math
import random
import time
from urllib.parse import parse_qs

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.template.loader import render_to_string
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from games.community import chat, presence, relations
from games.correspondence import notify
from games.live import chat as live_chat
from games.live import gate, lobby, pushes, watch
from games.live.announce import changed_at, group_name
from games.models import Computer, Game
from games.web import metrics
from games.web.locale import locale_of_socket

# The codes a server closes with are an application's own (4000-4999): daphne's websocket library
# refuses the protocol's 1008 from a server, and the close then fails as an error (1011).
CLOSE_TALKED = 4008  # the client sent something: the page never does (1008's meaning)
CLOSE_TOO_MANY = 4029  # its owner holds as many sockets as anyone needs (HTTP's 429)
SEEN_EVERY = 30  # seconds; well inside notify's window of "watching" (NOTIFY_WATCHING_SECONDS)
GROUP_EXPIRY = 86400  # seconds: the channel layers' own default, for a layer that names none

log = logging.getLogger(__name__)


def _watchable(game_id: int, user) -> Game | None:
    """The game, if ``user`` may watch it, or may wait on its page for its opponent: its players,
    and anyone while a public game waits (its page offers them to accept it)."""
    game = Game.objects.select_related("seat0", "seat1").filter(pk=game_id).first()
    if game is None:
        return None
    seeking = game.status == Game.Status.OPEN and not game.private
    if seeking and relations.apart(game.seat0, user):
        return None  # a blocked pair's seek does not exist for either
    return game if game.can_watch(user) or seeking else None


def _opening(scope: dict, game_id: int, user) -> tuple[Game | None, pushes.Locale]:
    return _watchable(game_id, user), locale_of_socket(scope, user)


class CountedConsumer(AsyncWebsocketConsumer):
    """A socket that counts against its owner's cap (``pushes.open_socket``) while it is open,
    and in this process's figure of open sockets (``metrics.OPEN_SOCKETS``)."""

    owner: tuple | None = None  # whom this socket counts against, while it counts
    page = ""  # what the socket serves, as the figure of open sockets names it
    stamping: asyncio.Task | None = None  # the stamps of its player's presence, while it lives
    joined: tuple[str, ...] = ()  # the groups it hears, joined again while it lives
    rejoining: asyncio.Task | None = None

    async def __call__(self, scope, receive, send) -> None:
        # Whatever way the socket ends (refused, closed by either side, an error in a handler,
        # or cancelled by the server), its owner gets their place back, and their presence its
        # last stamp ("last seen").
        try:
            await super().__call__(scope, receive, send)
        finally:
            self.release()
            await self.leave_all()
            await self.gone()

    async def counted(self, user) -> bool:
        """Count this socket against its owner (a visitor who is not signed in, by address);
        past the cap, accept it only to close it saying why: the page then stops instead of
        retrying in a loop."""
        owner = pushes.socket_owner(user, (self.scope.get("client") or [None])[0])
        if not pushes.open_socket(owner):
            await self.accept()
            await self.close(code=CLOSE_TOO_MANY)
            return False
        self.owner = owner
        metrics.OPEN_SOCKETS.labels(self.page).inc()
        if user.is_authenticated:
            await database_sync_to_async(presence.touch)(user)
            self.stamping = asyncio.ensure_future(self.stay_present(user))
        return True

    async def stay_present(self, user) -> None:
        """Stamp the player's presence while the socket lives: the stamps stop with the
        process, so a socket that dies without closing does not keep its player online."""
        while True:
            await asyncio.sleep(presence.EVERY)
            await database_sync_to_async(presence.touch)(user)

    async def join(self, group: str) -> None:
        """Hear ``group`` for as long as the socket lives. The channel layer forgets a member
        after its ``group_expiry`` (a day) unless it joins again, while a correspondence game's
        page may stay open for days: without a word, it would hear no move after the first day.
        So the socket joins again, four times in every such period."""
        await self.channel_layer.group_add(group, self.channel_name)
        self.joined = (*self.joined, group)
        if self.rejoining is None:
            self.rejoining = asyncio.ensure_future(self.stay_joined())

    async def leave(self, group: str) -> None:
        self.joined = tuple(g for g in self.joined if g != group)
        if not self.joined:
            self.stop_rejoining()
        await self.channel_layer.group_discard(group, self.channel_name)

    async def leave_all(self) -> None:
        """The groups a socket ended without leaving (an error in a handler): left, so that
        no push waits in its process for a channel nobody reads."""
        self.stop_rejoining()
        for group in self.joined:
            with contextlib.suppress(Exception):  # best-effort: the layer forgets it in a day
                await self.leave(group)

    async def stay_joined(self) -> None:
        # A little apart for each socket, so that those opened together (a restart's
        # reconnections) do not all join again in the same moment.
        every = getattr(self.channel_layer, "group_expiry", GROUP_EXPIRY) / 4
        while True:
            await asyncio.sleep(every * random.uniform(0.9, 1.0))
            for group in self.joined:
                if group not in self.joined:
                    continue  # left while the group before was joined again
                try:
                    await self.channel_layer.group_add(group, self.channel_name)
                except Exception:  # Redis away a moment: the next round joins again
                    log.warning(
                        "socket %s could not join %s again", self.channel_name, group, exc_info=True
                    )

    def stop_rejoining(self) -> None:
        rejoining, self.rejoining = self.rejoining, None
        if rejoining is not None:
            rejoining.cancel()

    async def gone(self) -> None:
        """The socket closed: its player was last seen now (once, however it closed)."""
        stamping, self.stamping = self.stamping, None
        if stamping is None:
            return
        stamping.cancel()
        with contextlib.suppress(Exception):  # a last stamp is best-effort; the next socket's
            await database_sync_to_async(presence.touch)(self.scope["user"])

    def release(self) -> None:
        """Give the owner's place back, once."""
        owner, self.owner = self.owner, None
        if owner is not None:
            pushes.close_socket(owner)
            metrics.OPEN_SOCKETS.labels(self.page).dec()

    async def receive(self, text_data=None, bytes_data=None) -> None:
        """Viewers only listen: moves are HTTP POSTs. The page never sends anything, so a
        client that does (a script, a flood) is closed at its first message, and its session's
        next handshakes are refused for a while (``gate``)."""
        gate.shut_out(self.scope)
        await self.close(code=CLOSE_TALKED)

    async def send_notice(self, notice: dict) -> None:
        await self.send(text_data=json.dumps(notice))


class GameConsumer(CountedConsumer):
    page = "game"
    waiting = False  # opened on a game still waiting for an opponent: its page is no board

    async def connect(self) -> None:
        user = self.scope["user"]
        game, self.where = await database_sync_to_async(_opening)(
            self.scope, self.scope["url_route"]["kwargs"]["pk"], user
        )
        # The socket speaks its page's language, in its zone: activated once for this consumer's
        # task (the worker threads it calls inherit it), and named in the pushes' cache keys.
        translation.activate(self.where[0])
        if self.where[1] is not None:
            timezone.activate(self.where[1])
        if game is None:
            await self.close()  # refused before accept: the handshake fails, as for no game
            return
        # Anyone may watch a public game: a visitor who is not signed in is counted by address.
        if not await self.counted(user):
            return
        self.game_id = game.pk
        self.seat = game.seat_of(user)
        self.shown_seq = game.seq  # the last seq this page was sent: a higher one is a move
        self.group = group_name(game.pk)
        if game.status == Game.Status.OPEN:
            await self.wait_for_opponent(game)
            return
        self.present: dict[str, int] = {}  # other players' channels on this page -> their seat
        self.seen_at: float | None = None
        self.against_computer = False  # the opponent plays from the server, never on a page
        await self.join(self.group)
        await self.accept()
        if self.seat is not None:
            # Its page's token (its pushes' forms carry it), for as long as the socket lives.
            self.csrf_token = self.scope.get("cookies", {}).get("csrftoken", "")
            pushes.player_socket_opened(
                game.pk, self.channel_name, self.seat, user, self.csrf_token, self.where
            )
            await database_sync_to_async(self.player_arrived)(game)
        await self.send_notice({"type": "seq", "seq": game.seq, "status": game.status})
        await self.group_event("presence.ping", reply_to=self.channel_name)
        await self.send_presence()

    async def wait_for_opponent(self, game: Game) -> None:
        """A waiting page's socket: told only the game's status, now and at each change (its
        acceptance or its cancellation), never a board; it takes no part in presence."""
        self.waiting = True
        await self.join(self.group)
        await self.accept()
        await self.send_notice({"type": "seq", "seq": game.seq, "status": game.status})

    def release(self) -> None:
        super().release()
        if hasattr(self, "csrf_token"):
            pushes.player_socket_closed(self.game_id, self.channel_name)

    async def disconnect(self, code: int) -> None:
        self.release()
        if not hasattr(self, "group"):
            return
        if self.seat is not None and not self.waiting:
            await database_sync_to_async(notify.seen)(self.scope["user"], self.game_id)
            await self.group_event("presence.left")
        await self.leave(self.group)

    # -- events from the group ---------------------------------------------------------------

    async def game_moved(self, event: dict) -> None:
        moved = event["seq"] > self.shown_seq  # not a clock, a resignation or a rematch offer
        self.shown_seq = max(self.shown_seq, event["seq"])
        if self.waiting:
            await self.send_notice({"type": "seq", "seq": event["seq"], "status": event["status"]})
            return
        if self.seat is not None and event.get("by") == self.seat:
            # This player's own request answered with the new page: no rendering for them here,
            # only the seq (another tab of theirs catches up) and the header's count.
            turns = await database_sync_to_async(self.players_turns)(event["seq"])
            notice = {"type": "seq", "seq": event["seq"], "status": event.get("status")}
            await self.send_notice({**notice, "yours": True})
            await self.send(text_data=turns)
            return
        prepared = None
        if self.seat is None:
            html = await pushes.watchers_push(
                self.game_id, event.get("version"), self.scope["user"], self.where
            )
        else:
            # Drawn by the move's request when it ran in this process; else drawn here.
            html = prepared = pushes.prepared_push(
                self.game_id,
                event.get("version"),
                self.seat,
                self.scope["user"],
                self.csrf_token,
                self.where,
            )
            if html is None:
                html = await database_sync_to_async(self.players_push)()
        await self.send(text_data=html)
        if prepared is not None and self.seen_due():
            await database_sync_to_async(self.mark_seen)()
        if moved and self.seat is not None and event.get("version"):
            # The opponent's push (the mover's own sockets returned above).
            waited = time.time() - changed_at(event["version"]).timestamp()
            metrics.MOVE_TO_PUSH.observe(max(waited, 0.0))  # another machine's clock may lead

    def players_push(self) -> str:
        """In a worker thread: the push as this player sees it, with the header's count of the
        games waiting for them."""
        user = self.scope["user"]
        html = pushes.render_push(self.game_id, user, self.seat, self.csrf_token, None, self.where)
        return html + self.players_turns()

    def players_turns(self, seq: int | None = None) -> str:
        """In a worker thread: the header's count of the games waiting for this player; with
        ``seq``, it is the push of that seq (every push carries its seq)."""
        self.mark_seen()  # watching: no "your turn" email for this move
        return pushes.players_turns(self.scope["user"], seq)

    async def chat_posted(self, event: dict) -> None:
        """A chat message: sent, rendered in this viewer's language, only to a viewer who may
        read its room and has not turned the chat off (``games.community.chat``)."""
        if self.waiting or not chat.may_reach(event, self.seat, self.scope["user"]):
            return  # a watcher's socket, for a line of the players' room: nothing read
        html = await database_sync_to_async(self.chat_push)(event["message"], event.get("held"))
        if html:
            await self.send(text_data=html)

    def chat_push(self, message_id: int, held: bool | None) -> str:
        """In a worker thread: the message as this viewer sees it, or "" if it is not theirs
        to read."""
        user = self.scope["user"]
        message = live_chat.message_row(message_id, held)
        if message is None or message.game_id != self.game_id:
            return ""  # gone, or (ids given again after a restore) another game's
        if not chat.shows_to(message, user):
            return ""
        if not chat.chat_on(message.game, user):
            return ""
        return render_to_string(
            "games/_chat.html#pushed", {"message": message, "user": user, "game": message.game}
        )

    async def presence_ping(self, event: dict) -> None:
        if event["sender"] == self.channel_name or self.waiting:
            return
        if self.seat is not None:
            await self.channel_layer.send(
                event["reply_to"],
                {"type": "presence.here", "sender": self.channel_name, "seat": self.seat},
            )
        if event["seat"] is not None:
            self.present[event["sender"]] = event["seat"]
            await self.send_presence()

    async def presence_here(self, event: dict) -> None:
        if self.waiting:
            return
        self.present[event["sender"]] = event["seat"]
        await self.send_presence()

    async def presence_left(self, event: dict) -> None:
        if self.waiting:
            return
        if self.present.pop(event["sender"], None) is not None:
            await self.send_presence()

    # -- helpers -----------------------------------------------------------------------------

    async def group_event(self, kind: str, **data) -> None:
        await self.channel_layer.group_send(
            self.group, {"type": kind, "sender": self.channel_name, "seat": self.seat, **data}
        )

    async def send_presence(self) -> None:
        seats = set(self.present.values())
        here = 1 - (self.seat or 0) in seats
        if self.seat is None:
            text = _("Players on this page: %(count)d of 2.") % {"count": len(seats)}
        elif self.against_computer:
            here = True
            text = _("Your opponent is the computer: it plays on the server, not on a page.")
        elif here:
            text = _("Your opponent is here, on this page.")
        else:
            text = _("Your opponent is away from this page.")
        await self.send_notice({"type": "presence", "text": text, "opponent": here})

    def player_arrived(self, game: Game) -> None:
        """In a worker thread: the player has the game open (no "your turn" email), and if the
        computer must move, its move will be pushed here. A computer is never "away": it has
        no page to be on."""
        opponent = game.seat1_id if self.seat == 0 else game.seat0_id
        self.against_computer = Computer.objects.filter(user_id=opponent).exists()
        self.mark_seen()
        watch.watch_if_waiting(game)

    def seen_due(self) -> bool:
        return self.seen_at is None or time.monotonic() - self.seen_at >= SEEN_EVERY

    def mark_seen(self) -> None:
        """Tell the notifications that the player has the game open. "Watching" is judged over
        minutes, so a socket writes it at most every ``SEEN_EVERY`` seconds, not at every push."""
        if self.seen_due():
            self.seen_at = time.monotonic()
            notify.seen(self.scope["user"], self.game_id)


def _since(scope: dict) -> float:
    """When the socket's page was drawn (its ``since``, a time.time()); 0 if it says nothing
    sensible, so that the page asks once rather than miss a change."""
    query = parse_qs(scope.get("query_string", b"").decode("latin-1"))
    try:
        since = float(query.get("since", [""])[0])
    except ValueError:
        return 0.0
    return since if math.isfinite(since) else 0.0


class ListConsumer(CountedConsumer):
    """The socket of a list that follows the site (``games.live.lobby``): it tells its page
    only that the list changed, and the page asks the view for it. ``which`` names the list;
    ``members_only`` mirrors a page that needs its visitor signed in (the lobby's)."""

    group = ""

    def __init__(self, *args, which: str, members_only: bool = False, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.which = self.page = which
        self.members_only = members_only

    async def connect(self) -> None:
        user = self.scope["user"]
        if self.members_only and not user.is_authenticated:
            await self.close()  # refused before accept, as the page sends a stranger to log in
            return
        if not await self.counted(user):
            return
        self.group = lobby.group_name(self.which)
        await self.join(self.group)
        await self.accept()
        # A change between the page's drawing and now (its first moments, or a connection lost
        # and found again) reached no socket of this page: the page asks once.
        if await database_sync_to_async(lobby.changed_since)(self.which, _since(self.scope)):
            await self.send_notice({"type": "changed", "list": self.which})

    async def disconnect(self, code: int) -> None:
        self.release()
        if self.group:
            await self.leave(self.group)

    async def list_changed(self, event: dict) -> None:
        await self.send_notice({"type": "changed", "list": self.which})

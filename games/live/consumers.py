"""The game's websocket: after every committed move, each viewer gets the page's partials
rendered for them (a player sees their choices, a spectator none), swapped in by htmx.

Every push carries the seq; the page fetches the partials over HTTP when it sees a gap or
reconnects. Moves themselves stay plain HTTP POSTs.

The consumer is asynchronous so that a push already rendered (every spectator's after the
first) is sent without a trip to a worker thread or the database; only a rendering, a query or a
write goes to a thread.
"""

from __future__ import annotations

import json
import time

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.template.loader import render_to_string
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from games.correspondence import notify
from games.live import pushes, watch
from games.live.announce import group_name
from games.models import Computer, Game
from games.web.locale import locale_of_socket

# The codes a server closes with are an application's own (4000-4999): daphne's websocket library
# refuses the protocol's 1008 from a server, and the close then fails as an error (1011).
CLOSE_TALKED = 4008  # the client sent something: the page never does (1008's meaning)
CLOSE_TOO_MANY = 4029  # its owner holds as many sockets as anyone needs (HTTP's 429)
SEEN_EVERY = 30  # seconds; well inside notify's window of "watching" (NOTIFY_WATCHING_SECONDS)


def _watchable(game_id: int, user) -> Game | None:
    game = Game.objects.select_related("seat0", "seat1").filter(pk=game_id).first()
    return game if game is not None and game.can_watch(user) else None


def _opening(scope: dict, game_id: int, user) -> tuple[Game | None, pushes.Locale]:
    return _watchable(game_id, user), locale_of_socket(scope, user)


class GameConsumer(AsyncWebsocketConsumer):
    owner: tuple | None = None  # whom this socket counts against, while it counts

    async def __call__(self, scope, receive, send) -> None:
        # Whatever way the socket ends (refused, closed by either side, an error in a handler,
        # or cancelled by the server), its owner gets their place back.
        try:
            await super().__call__(scope, receive, send)
        finally:
            self.release()

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
        owner = pushes.socket_owner(user, (self.scope.get("client") or [None])[0])
        if not pushes.open_socket(owner):
            # Accepted only to say why: the page then stops instead of retrying in a loop.
            await self.accept()
            await self.close(code=CLOSE_TOO_MANY)
            return
        self.owner = owner
        self.game_id = game.pk
        self.seat = game.seat_of(user)
        self.group = group_name(game.pk)
        self.present: dict[str, int] = {}  # other players' channels on this page -> their seat
        self.seen_at: float | None = None
        self.against_computer = False  # the opponent plays from the server, never on a page
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()
        if self.seat is not None:
            await database_sync_to_async(self.player_arrived)(game)
        await self.send_notice({"type": "seq", "seq": game.seq, "status": game.status})
        await self.group_event("presence.ping", reply_to=self.channel_name)
        await self.send_presence()

    def release(self) -> None:
        """Give the owner's place back, once."""
        owner, self.owner = self.owner, None
        if owner is not None:
            pushes.close_socket(owner)

    async def disconnect(self, code: int) -> None:
        self.release()
        if not hasattr(self, "group"):
            return
        if self.seat is not None:
            await database_sync_to_async(notify.seen)(self.scope["user"], self.game_id)
            await self.group_event("presence.left")
        await self.channel_layer.group_discard(self.group, self.channel_name)

    async def receive(self, text_data=None, bytes_data=None) -> None:
        """Viewers only listen: moves are HTTP POSTs. The page never sends anything, so a
        client that does (a script, a flood) is closed at its first message."""
        await self.close(code=CLOSE_TALKED)

    # -- events from the group ---------------------------------------------------------------

    async def game_moved(self, event: dict) -> None:
        if self.seat is not None and event.get("by") == self.seat:
            # This player's own request answered with the new page: no rendering for them here,
            # only the seq (another tab of theirs catches up) and the header's count.
            turns = await database_sync_to_async(self.players_turns)(event["seq"])
            notice = {"type": "seq", "seq": event["seq"], "status": event.get("status")}
            await self.send_notice({**notice, "yours": True})
            await self.send(text_data=turns)
            return
        if self.seat is None:
            html = await pushes.watchers_push(
                self.game_id, event.get("version"), self.scope["user"], self.where
            )
        else:
            html = await database_sync_to_async(self.players_push)()
        await self.send(text_data=html)

    def players_push(self) -> str:
        """In a worker thread: the push as this player sees it, with the header's count of the
        games waiting for them."""
        user = self.scope["user"]
        csrf_token = self.scope.get("cookies", {}).get("csrftoken", "")
        html = pushes.render_push(self.game_id, user, self.seat, csrf_token, None, self.where)
        return html + self.players_turns()

    def players_turns(self, seq: int | None = None) -> str:
        """In a worker thread: the header's count of the games waiting for this player; with
        ``seq``, it is the push of that seq (every push carries its seq)."""
        self.mark_seen()  # watching: no "your turn" email for this move
        waiting = Game.objects.waiting_for(self.scope["user"]).count()
        return render_to_string(
            "base.html#turns", {"turn_count": waiting, "oob": True, "pushed_seq": seq}
        )

    async def presence_ping(self, event: dict) -> None:
        if event["sender"] == self.channel_name:
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
        self.present[event["sender"]] = event["seat"]
        await self.send_presence()

    async def presence_left(self, event: dict) -> None:
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

    def mark_seen(self) -> None:
        """Tell the notifications that the player has the game open. "Watching" is judged over
        minutes, so a socket writes it at most every ``SEEN_EVERY`` seconds, not at every push."""
        now = time.monotonic()
        if self.seen_at is None or now - self.seen_at >= SEEN_EVERY:
            self.seen_at = now
            notify.seen(self.scope["user"], self.game_id)

    async def send_notice(self, notice: dict) -> None:
        await self.send(text_data=json.dumps(notice))

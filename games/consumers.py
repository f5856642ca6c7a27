"""The game's websocket: after every committed move, each viewer gets the page's partials
rendered for them (a player sees their choices, a spectator none), swapped in by htmx.

Every push carries the seq; the page fetches the partials over HTTP when it sees a gap or
reconnects. Moves themselves stay plain HTTP POSTs.
"""

from __future__ import annotations

import json

from asgiref.sync import async_to_sync
from channels.generic.websocket import WebsocketConsumer
from django.template.loader import render_to_string

from games import notify, pushes
from games.live import group_name
from games.models import Game

POLICY_VIOLATION = 1008  # the close code for a client that breaks the protocol


class GameConsumer(WebsocketConsumer):
    def connect(self) -> None:
        user = self.scope["user"]
        game = (
            Game.objects.select_related("seat0", "seat1")
            .filter(pk=self.scope["url_route"]["kwargs"]["pk"])
            .first()
        )
        if game is None or not game.can_watch(user):
            self.close()  # refused before accept: the handshake fails
            return
        # Anyone may watch a public game: a visitor who is not signed in is counted by address.
        self.owner = pushes.socket_owner(user, (self.scope.get("client") or [None])[0])
        if not pushes.open_socket(self.owner):
            self.close()  # this user already holds as many sockets as anyone needs
            return
        self.counted = True
        self.game_id = game.pk
        self.seat = game.seat_of(user)
        self.group = group_name(game.pk)
        self.present: dict[str, int] = {}  # other players' channels on this page -> their seat
        async_to_sync(self.channel_layer.group_add)(self.group, self.channel_name)
        self.accept()
        if self.seat is not None:
            notify.seen(user, game.pk)
        self.send_notice({"type": "seq", "seq": game.seq, "status": game.status})
        self.group_event("presence.ping", reply_to=self.channel_name)
        self.send_presence()

    def disconnect(self, code: int) -> None:
        if getattr(self, "counted", False):
            self.counted = False
            pushes.close_socket(self.owner)
        if not hasattr(self, "group"):
            return
        if self.seat is not None:
            notify.seen(self.scope["user"], self.game_id)
            self.group_event("presence.left")
        async_to_sync(self.channel_layer.group_discard)(self.group, self.channel_name)

    def receive(self, text_data=None, bytes_data=None) -> None:
        """Viewers only listen: moves are HTTP POSTs. The page never sends anything, so a
        client that does (a script, a flood) is closed at its first message."""
        self.close(code=POLICY_VIOLATION)

    # -- events from the group ---------------------------------------------------------------

    def game_moved(self, event: dict) -> None:
        user = self.scope["user"]
        csrf_token = self.scope.get("cookies", {}).get("csrftoken", "")
        html = pushes.render_push(self.game_id, user, self.seat, csrf_token)
        if self.seat is not None:
            notify.seen(user, self.game_id)  # watching: no "your turn" email for this move
            turns = {"turn_count": Game.objects.waiting_for(user).count(), "oob": True}
            html += render_to_string("base.html#turns", turns)
        self.send(text_data=html)

    def presence_ping(self, event: dict) -> None:
        if event["sender"] == self.channel_name:
            return
        if self.seat is not None:
            async_to_sync(self.channel_layer.send)(
                event["reply_to"],
                {"type": "presence.here", "sender": self.channel_name, "seat": self.seat},
            )
        if event["seat"] is not None:
            self.present[event["sender"]] = event["seat"]
            self.send_presence()

    def presence_here(self, event: dict) -> None:
        self.present[event["sender"]] = event["seat"]
        self.send_presence()

    def presence_left(self, event: dict) -> None:
        if self.present.pop(event["sender"], None) is not None:
            self.send_presence()

    # -- helpers -----------------------------------------------------------------------------

    def group_event(self, kind: str, **data) -> None:
        async_to_sync(self.channel_layer.group_send)(
            self.group, {"type": kind, "sender": self.channel_name, "seat": self.seat, **data}
        )

    def send_presence(self) -> None:
        seats = set(self.present.values())
        if self.seat is None:
            text = f"Players on this page: {len(seats)} of 2."
        elif 1 - self.seat in seats:
            text = "Your opponent is here, on this page."
        else:
            text = "Your opponent is away from this page."
        self.send_notice(
            {"type": "presence", "text": text, "opponent": 1 - (self.seat or 0) in seats}
        )

    def send_notice(self, notice: dict) -> None:
        self.send(text_data=json.dumps(notice))

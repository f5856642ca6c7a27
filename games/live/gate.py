"""The sockets' gate, after the origin's check and before the session is read: a handshake from a
session whose socket was just closed for talking is refused, and so is a session's handshake
past ``settings.SOCKET_HANDSHAKES`` in a window: for a dictionary lookup instead of the session,
the user, the game and the presence written that a socket's opening costs. (Visitors without a
session are kept to their address's cap of open sockets, ``consumers.CountedConsumer``: one
address may be a whole classroom.) The refusal is a failed handshake, which the page's socket
meets as a lost connection and retries after a growing pause.

A page never sends anything up its socket and reconnects a few times a minute at most (after a
lost connection, with a growing pause), so neither ever meets a player; a script's loop of
handshakes meets both.
"""

from __future__ import annotations

from django.conf import settings
from django.http.cookie import parse_cookie

from games.community import floods

CLOSE_WAIT = 4029  # as a socket past its owner's cap (consumers.CLOSE_TOO_MANY): HTTP's 429


def key_of(scope: dict) -> str:
    """Whom a socket's handshake counts against: its session cookie, else its address (the
    first ``Cookie`` header that names a session: Channels reads only the first)."""
    for name, value in scope.get("headers", ()):
        if name == b"cookie":
            session = parse_cookie(value.decode("latin-1")).get(settings.SESSION_COOKIE_NAME)
            if session:
                return f"session:{session}"
    return f"address:{(scope.get('client') or ['?'])[0]}"


def shut_out(scope: dict) -> None:
    """The socket of ``scope`` talked: its session's next handshakes are refused for
    ``settings.SOCKET_SHUT_OUT_SECONDS``. A visitor without a session is only closed: their
    address may be a whole school's, or a phone network's, whose other visitors did nothing
    (they are held to the address's cap of open sockets, and the proxy's limits)."""
    key = key_of(scope)
    if key.startswith("session:"):
        floods.SOCKETS.tell(key, settings.SOCKET_SHUT_OUT_SECONDS)


class Gate:
    """ASGI middleware around the websockets' stack."""

    def __init__(self, app) -> None:
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] == "websocket":
            key = key_of(scope)
            most, seconds = settings.SOCKET_HANDSHAKES
            if floods.SOCKETS.reason(key) is not None or (
                key.startswith("session:") and not floods.HANDSHAKES.allow(key, most, seconds)
            ):
                return await self.refuse(receive, send)
        return await self.app(scope, receive, send)

    @staticmethod
    async def refuse(receive, send) -> None:
        """Close before accepting: the handshake fails (HTTP 403), and nothing else happens."""
        message = await receive()
        if message["type"] == "websocket.connect":
            await send({"type": "websocket.close", "code": CLOSE_WAIT})

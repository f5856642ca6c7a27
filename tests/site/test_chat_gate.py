"""A chat flood as daphne serves it: the posts of a session told to wait are answered at the site's
ASGI entry, before Django reads them; every other post goes on to the chat as before."""

from __future__ import annotations

import asyncio

import pytest
from asgiref.sync import sync_to_async
from factories import post_through_asgi, session_of, started_game
from prometheus_client import REGISTRY

from basilica_site.asgi import application
from games.community import floods
from games.models import ChatMessage
from games.web.metrics import TOLD_TO_WAIT

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]

CSRF_TOKEN = "csrfTokenOfAnnabel0123456789abcd"  # a CSRF secret: 32 letters and digits


def answered_at_the_gate() -> float:
    """The chat posts counted in the requests' figures as answered by a gate."""
    sample = {"view": TOLD_TO_WAIT, "status": "2xx"}
    return REGISTRY.get_sample_value("basilica_http_request_duration_seconds_count", sample) or 0.0


def headers_of(session: str, htmx: bool) -> dict[str, str]:
    sent = {"Cookie": f"sessionid={session}; csrftoken={CSRF_TOKEN}", "X-CSRFToken": CSRF_TOKEN}
    if htmx:
        sent["HX-Request"] = "true"
    return sent


async def a_game_and_anns_session():
    game = await sync_to_async(started_game)()
    return game, await sync_to_async(session_of)(game.seat0)


async def test_a_post_from_a_session_told_to_wait_is_answered_before_its_body_is_read():
    game, session = await a_game_and_anns_session()
    floods.CHAT_POSTS.tell(session, 60, "too fast")
    read = []

    async def receive():
        read.append(True)
        if len(read) > 1:
            await asyncio.Event().wait()  # the client stays connected
        return {"type": "http.request", "body": b"room=players&text=spam", "more_body": False}

    sent = []

    async def send(message):
        sent.append(message)

    counted = answered_at_the_gate()
    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "POST",
        "scheme": "http",
        "path": f"/games/{game.pk}/chat/",
        "raw_path": f"/games/{game.pk}/chat/".encode(),
        "query_string": b"",
        "root_path": "",
        "headers": [
            (b"host", b"testserver"),
            (b"hx-request", b"true"),
            (b"cookie", f"theme=dark; sessionid={session}".encode()),
        ],
        "client": ("127.0.0.1", 50000),
        "server": ("127.0.0.1", 8000),
    }
    await asyncio.wait_for(application(scope, receive, send), timeout=10)
    assert [m["type"] for m in sent] == ["http.response.start", "http.response.body"]
    assert (sent[0]["status"], sent[1]["body"]) == (204, b"")  # htmx swaps nothing
    assert read == []  # not even the body was read
    assert answered_at_the_gate() == counted + 1  # the operator's figures still count it
    assert not await sync_to_async(ChatMessage.objects.exists)()


async def test_a_post_from_a_session_nobody_told_to_wait_goes_on_to_the_chat():
    game, session = await a_game_and_anns_session()
    said = await post_through_asgi(chat_path(game), line("Good luck"), headers_of(session, True))
    assert said["status"] == 200  # stored, and the form drawn again
    assert await texts_stored() == ["Good luck"]


async def test_a_post_without_javascript_goes_on_to_the_view_even_from_a_session_told_to_wait():
    game, session = await a_game_and_anns_session()
    # The view decides by the chat's own limit (here it has room: only this process's memory was
    # told) and leads back to the chat, or to the reason.
    floods.CHAT_POSTS.tell(session, 60, "too fast")
    plain = await post_through_asgi(chat_path(game), line("again"), headers_of(session, False))
    assert plain["status"] == 302
    assert await texts_stored() == ["again"]


async def test_the_opponent_and_the_waiting_players_other_posts_are_not_held_back():
    game, session = await a_game_and_anns_session()
    floods.CHAT_POSTS.tell(session, 60, "too fast")
    bobs = await sync_to_async(session_of)(game.seat1)
    bob_said = await post_through_asgi(chat_path(game), line("Thanks"), headers_of(bobs, True))
    assert bob_said["status"] == 200
    notes = await post_through_asgi(
        f"/games/{game.pk}/notes/", {"text": "a plan"}, headers_of(session, htmx=True)
    )
    assert notes["status"] == 200  # saved, and the notes' status drawn
    assert await texts_stored() == ["Thanks"]


def chat_path(game) -> str:
    return f"/games/{game.pk}/chat/"


def line(text: str) -> dict[str, str]:
    return {"room": "players", "text": text, "csrfmiddlewaretoken": CSRF_TOKEN}


async def texts_stored() -> list[str]:
    return await sync_to_async(lambda: sorted(ChatMessage.objects.values_list("text", flat=True)))()

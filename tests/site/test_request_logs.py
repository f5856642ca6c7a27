"""Production's logs: one JSON object a line, each line of a request carrying its request id (the
proxy's, or one the site made and sent back) and the user's id, a move's line its game and seq."""

from __future__ import annotations

import io
import json
import logging
import logging.config
from contextlib import contextmanager

import pytest
from asgiref.sync import sync_to_async
from channels.testing import HttpCommunicator
from factories import first_legal, post_through_asgi, session_of, started_game

from basilica_site.asgi import application
from basilica_site.logs import logging_config

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]

CSRF_TOKEN = "csrfTokenOfAnnabel0123456789abcd"  # a CSRF secret: 32 letters and digits


@contextmanager
def production_logging():
    """The site's logging as production configures it (DEBUG off), its console written to a
    string; the test run's own logging as it was afterwards."""
    loggers = [logging.getLogger(), *map(logging.getLogger, logging_config(False)["loggers"])]
    before = [(lg, lg.handlers[:], lg.level, lg.propagate) for lg in loggers]
    console = io.StringIO()
    logging.config.dictConfig(logging_config(False))
    logging.getLogger().handlers[0].setStream(console)
    try:
        yield console
    finally:
        for lg, handlers, level, propagate in before:
            lg.handlers[:] = handlers
            lg.setLevel(level)
            lg.propagate = propagate


async def post_move(game, session_key: str, action: dict, headers: dict[str, str]) -> dict:
    """The move posted through the site's ASGI application, as daphne hands it one."""
    form = {"action": json.dumps(action), "seq": 0, "csrfmiddlewaretoken": CSRF_TOKEN}
    sent = {"Cookie": f"sessionid={session_key}; csrftoken={CSRF_TOKEN}", **headers}
    return await post_through_asgi(f"/games/{game.pk}/act/", form, sent)


def lines_of(console: io.StringIO) -> list[dict]:
    return [json.loads(line) for line in console.getvalue().splitlines()]


async def test_a_move_logs_one_json_line_with_its_request_user_game_and_seq():
    game = await sync_to_async(started_game)()
    action = await sync_to_async(first_legal)(game)
    session_key = await sync_to_async(session_of)(game.seat0)

    with production_logging() as console:
        response = await post_move(game, session_key, action, {})

    assert response["status"] == 302
    request_id = response["headers"]["x-request-id"]
    assert len(request_id) == 32
    [line] = [line for line in lines_of(console) if line["request_id"] == request_id]
    assert line["level"] == "INFO"
    assert line["logger"] == "games.moves"
    assert line["message"] == f"game {game.pk}: seat 0 made move 1"
    assert line["user_id"] == game.seat0.pk
    assert line["game_id"] == game.pk
    assert line["seq"] == 1
    assert line["time"]


async def test_the_proxy_s_request_id_is_kept_when_it_looks_like_one():
    game = await sync_to_async(started_game)()
    action = await sync_to_async(first_legal)(game)
    session_key = await sync_to_async(session_of)(game.seat0)

    with production_logging() as console:
        response = await post_move(game, session_key, action, {"X-Request-ID": "f3a9c2e1d4b5"})

    assert response["headers"]["x-request-id"] == "f3a9c2e1d4b5"
    assert [line["request_id"] for line in lines_of(console)] == ["f3a9c2e1d4b5"]


async def test_a_request_id_that_could_forge_a_log_line_is_replaced():
    game = await sync_to_async(started_game)()
    action = await sync_to_async(first_legal)(game)
    session_key = await sync_to_async(session_of)(game.seat0)
    forged = 'x", "level": "CRITICAL'

    with production_logging() as console:
        response = await post_move(game, session_key, action, {"X-Request-ID": forged})

    made = response["headers"]["x-request-id"]
    assert made != forged
    assert [line["request_id"] for line in lines_of(console)] == [made]


async def test_django_s_own_line_for_a_missing_page_carries_the_request_id_too():
    """Django says "Not Found" once the middleware has answered: the id must outlive it."""
    communicator = HttpCommunicator(
        application, "GET", "/no-such-page/", headers=[(b"host", b"testserver")]
    )
    with production_logging() as console:
        response = await communicator.get_response(timeout=30)
        await communicator.wait()

    assert response["status"] == 404
    request_id = dict(response["headers"])[b"X-Request-ID"].decode()
    [line] = lines_of(console)
    assert line["message"] == "Not Found: /no-such-page/"
    assert line["level"] == "WARNING"
    assert line["request_id"] == request_id
    assert line["user_id"] is None

"""`/metrics/` as Prometheus sees it: refused (the site's 404) to anyone but the allowed
addresses and the token's bearer; each of the site's figures moves when its event happens;
the requests, the open sockets and the time from a move to its push, of this process."""

from __future__ import annotations

import json
import socket
from datetime import timedelta

import pytest
from asgiref.sync import sync_to_async
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client
from factories import client_for, first_legal, make_user, play, player, started_game
from huey.contrib.djhuey import HUEY
from huey.storage import SqliteStorage
from prometheus_client.parser import text_string_to_metric_families

from basilica_site.asgi import application
from games import tasks
from games.live import pushes
from games.models import Ending, Game, Notification
from games.play import services, states
from games.tasks import COMPUTE

pytestmark = pytest.mark.django_db

STRANGER = "203.0.113.9"  # an address of the internet, not the scraper's


def scrape(client: Client | None = None, **request) -> dict[tuple, float]:
    """Every sample of /metrics/, as Prometheus parses it: (name, sorted labels) -> value."""
    answer = (client or Client()).get("/metrics/", **request)
    assert answer.status_code == 200
    return {
        (sample.name, tuple(sorted(sample.labels.items()))): sample.value
        for family in text_string_to_metric_families(answer.content.decode())
        for sample in family.samples
    }


def figure(name: str, **labels) -> float:
    return scrape().get((name, tuple(sorted(labels.items()))), 0.0)


def decide(game):
    """Whoever must decide makes the first legal decision, in whichever game."""
    first = game.engine.legal_actions(states.load_state(game))[0]
    return play(game, [first.to_json()])


def hand_over(game):
    """Whoever decides now plays until the decision passes to the other player."""
    seat = game.to_decide
    while game.to_decide == seat:
        game = decide(game)
    return game


# -- who may ask --------------------------------------------------------------------------------


def test_another_address_is_told_there_is_nothing_here(client):
    assert client.get("/metrics/", REMOTE_ADDR=STRANGER).status_code == 404
    # Asked otherwise, the same: nothing tells a stranger that something is here.
    as_a_browser = Client(enforce_csrf_checks=True)  # a POST without a token: not 403 either
    assert as_a_browser.post("/metrics/", REMOTE_ADDR=STRANGER).status_code == 404
    assert client.get("/metrics/?part=site", REMOTE_ADDR=STRANGER).status_code == 404


def test_the_scraper_may_only_read(client):
    assert client.post("/metrics/", REMOTE_ADDR="127.0.0.1").status_code == 405


def test_the_scrapers_own_address_is_answered(client):
    answer = client.get("/metrics/", REMOTE_ADDR="127.0.0.1")
    assert answer.status_code == 200
    assert answer["Content-Type"].startswith("text/plain; version=")  # the exposition format
    assert b"basilica_moves_total" in answer.content
    assert client.get("/metrics/", REMOTE_ADDR="::1").status_code == 200


def test_the_token_opens_it_from_anywhere_and_a_wrong_one_does_not(client, settings):
    settings.METRICS_TOKEN = "a long random token"
    bearer = "Bearer a long random token"
    assert (
        client.get("/metrics/", REMOTE_ADDR=STRANGER, HTTP_AUTHORIZATION=bearer).status_code == 200
    )
    wrong = "Bearer a long random tokeN"
    assert (
        client.get("/metrics/", REMOTE_ADDR=STRANGER, HTTP_AUTHORIZATION=wrong).status_code == 404
    )


def test_no_token_is_set_so_none_is_accepted(client, settings):
    settings.METRICS_TOKEN = ""
    bare = "Bearer "
    assert client.get("/metrics/", REMOTE_ADDR=STRANGER, HTTP_AUTHORIZATION=bare).status_code == 404


def test_the_allowed_addresses_may_be_a_network(client, settings):
    settings.METRICS_ALLOWED_IPS = ["10.0.0.0/8"]
    assert client.get("/metrics/", REMOTE_ADDR="10.1.2.3").status_code == 200
    assert client.get("/metrics/", REMOTE_ADDR="127.0.0.1").status_code == 404


# -- the site's figures, the same from every process ------------------------------------------


def test_a_move_counts_once_for_its_kind():
    game = started_game()
    basilica, cathedral = (
        figure("basilica_moves_total", kind="basilica"),
        figure("basilica_moves_total", kind="cathedral"),
    )
    decide(game)
    assert figure("basilica_moves_total", kind="basilica") == basilica + 1
    assert figure("basilica_moves_total", kind="cathedral") == cathedral


def test_a_cathedral_move_counts_for_cathedral():
    game = started_game(kind="cathedral")
    decide(game)
    assert figure("basilica_moves_total", kind="cathedral") == 1


def test_a_game_timed_out_by_the_sweep_counts_as_ended_on_time(calendar):
    ann, bob = player("ann"), player("bob")  # no vacation days to save a clock
    # Both have played: running out now is a loss on time, not a game that never began.
    hand_over(hand_over(started_game(ann, bob, time_control="1d")))
    running = figure("basilica_games_running", kind="basilica", speed="correspondence")
    assert running == 1
    assert figure("basilica_games_ended_on_time_total", kind="basilica") == 0

    calendar.shift(timedelta(days=3))
    assert tasks.sweep()["ended"] == 1
    assert Game.objects.get().termination == Ending.TIMEOUT

    assert figure("basilica_games_ended_on_time_total", kind="basilica") == 1
    assert figure("basilica_games_running", kind="basilica", speed="correspondence") == 0


def test_a_live_game_is_counted_among_the_live_ones():
    started_game(time_control="10+5")
    assert figure("basilica_games_running", kind="basilica", speed="live") == 1
    assert figure("basilica_games_running", kind="basilica", speed="correspondence") == 0


def your_turn_email(settings, django_capture_on_commit_callbacks) -> None:
    """Alice plays her whole first turn: Bob is told by email that it is his."""
    settings.NOTIFY_DELAY_SECONDS = 0  # the check a worker would run two minutes later
    settings.SITE_URL = "http://basilica.example"
    game = started_game(make_user("alice"), make_user("bob", email="bob@example.com"))
    with django_capture_on_commit_callbacks(execute=True):
        hand_over(game)


def test_an_email_sent_counts_as_sent(settings, django_capture_on_commit_callbacks, mailoutbox):
    your_turn_email(settings, django_capture_on_commit_callbacks)
    assert len(mailoutbox) == 1
    assert figure("basilica_notifications_total", channel="email", outcome="sent") == 1
    assert figure("basilica_notifications_total", channel="email", outcome="failed") == 0


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def test_an_email_the_mail_server_never_took_counts_as_failed(
    settings, django_capture_on_commit_callbacks
):
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST, settings.EMAIL_PORT = "127.0.0.1", free_port()  # nothing listens there
    settings.EMAIL_USE_TLS = settings.EMAIL_USE_SSL = False
    settings.NOTIFY_RETRY_DELAY_SECONDS = 0
    your_turn_email(settings, django_capture_on_commit_callbacks)
    assert Notification.objects.get().outcome == Notification.Outcome.FAILED
    assert figure("basilica_notifications_total", channel="email", outcome="failed") == 1
    assert figure("basilica_notifications_total", channel="email", outcome="sent") == 0


@pytest.fixture
def queues_kept(tmp_path):
    """Both queues in a SQLite file, as the embedded default keeps them, with nothing run at
    once: a task waits there until a consumer takes it."""
    path = str(tmp_path / "huey.sqlite3")
    for huey in (HUEY, COMPUTE):
        huey._immediate = False
        huey.storage = SqliteStorage(huey.name, filename=path)
    yield
    for huey in (HUEY, COMPUTE):
        huey.storage.flush_all()
        huey._immediate = True
        huey.storage = huey.create_storage()


def test_the_queue_lengths_count_the_tasks_waiting(queues_kept):
    game = started_game()
    assert figure("basilica_queue_length", queue="light") == 0

    tasks.check_clock(game.pk)
    assert figure("basilica_queue_length", queue="light") == 1
    assert figure("basilica_queue_length", queue="compute") == 0

    tasks.computer_hint(game.pk, 0, game.seq)
    assert figure("basilica_queue_length", queue="compute") == 1


def test_the_workers_lag_is_the_time_since_its_last_sweep(calendar):
    assert figure("basilica_worker_lag_seconds") == float("inf")  # no sweep ever
    tasks.sweep_every_minute()
    calendar.shift(timedelta(seconds=90))
    assert figure("basilica_worker_lag_seconds") == 90


def test_the_site_figures_are_three_queries_however_many_games(django_assert_num_queries):
    for _ in range(3):
        decide(started_game())
    with django_assert_num_queries(3):
        scrape(REMOTE_ADDR="127.0.0.1", QUERY_STRING="part=site")


def test_each_part_may_be_asked_for_alone(django_assert_num_queries):
    with django_assert_num_queries(0):
        process = scrape(QUERY_STRING="part=process")
    site = scrape(QUERY_STRING="part=site")
    assert not any(name.startswith("basilica_moves") for name, _ in process)
    assert any(name.startswith("basilica_http_request") for name, _ in process)
    assert any(name.startswith("basilica_moves") for name, _ in site)
    assert not any(name.startswith("basilica_http_request") for name, _ in site)
    assert Client().get("/metrics/?part=everything").status_code == 404


# -- this process's own figures ----------------------------------------------------------------


def test_each_request_is_counted_by_its_view_and_status_class():
    name = "basilica_http_request_duration_seconds_count"
    pages, missing = (
        figure(name, view="rules", status="2xx"),
        figure(name, view="games:detail", status="4xx"),
    )
    Client().get("/rules/")
    Client().get("/games/999999/")
    assert figure(name, view="rules", status="2xx") == pages + 1
    assert figure(name, view="games:detail", status="4xx") == missing + 1


def session_cookie(user) -> bytes:
    client = client_for(user)
    return f"sessionid={client.cookies['sessionid'].value}; csrftoken=abc".encode()


def socket_of(game_id: int, cookie: bytes) -> WebsocketCommunicator:
    headers = [(b"origin", b"http://localhost"), (b"host", b"localhost"), (b"cookie", cookie)]
    return WebsocketCommunicator(application, f"/ws/games/{game_id}/", headers=headers)


async def received_push(communicator: WebsocketCommunicator) -> str:
    """The next HTML push (notices of seq and presence are JSON)."""
    for _ in range(10):
        message = await communicator.receive_from(timeout=3)
        if not message.startswith("{"):
            return message
        json.loads(message)
    raise AssertionError("no push came")


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_the_open_sockets_go_up_on_connect_and_down_on_disconnect():
    pushes.forget_sockets()
    game = await database_sync_to_async(started_game)()
    bob = await database_sync_to_async(lambda: game.seat1)()
    opened = await sync_to_async(figure)("basilica_open_websockets", page="game")

    bobs = socket_of(game.pk, await database_sync_to_async(session_cookie)(bob))
    assert (await bobs.connect())[0]
    assert await sync_to_async(figure)("basilica_open_websockets", page="game") == opened + 1

    await bobs.disconnect()
    assert await sync_to_async(figure)("basilica_open_websockets", page="game") == opened


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_a_move_pushed_to_the_opponent_is_timed_once_and_a_spectators_push_not():
    pushes.forget_sockets()
    game = await database_sync_to_async(started_game)()
    ann, bob = await database_sync_to_async(lambda: (game.seat0, game.seat1))()
    carl = await database_sync_to_async(make_user)("carl")
    bobs = socket_of(game.pk, await database_sync_to_async(session_cookie)(bob))
    carls = socket_of(game.pk, await database_sync_to_async(session_cookie)(carl))
    assert (await bobs.connect())[0]
    assert (await carls.connect())[0]
    before = await sync_to_async(figure)("basilica_move_push_seconds_count")

    move = await database_sync_to_async(first_legal)(game)
    await database_sync_to_async(services.submit_action)(game, ann, move, 0)
    assert 'data-seq="1"' in await received_push(bobs)
    assert 'data-seq="1"' in await received_push(carls)

    assert await sync_to_async(figure)("basilica_move_push_seconds_count") == before + 1
    await bobs.disconnect()
    await carls.disconnect()

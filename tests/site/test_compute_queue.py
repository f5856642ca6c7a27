"""The computer's work on a queue of its own: bot moves and hints on the compute queue, the clocks
and emails on the light one; a live game's bot first; a bot move asked for once; one a worker
dropped asked for again, once; the periodic tasks run once however many light consumers run.

Here the two queues are the embedded default's (a SQLite file) and production's (Redis), with
nothing run at once: a task waits until the test takes it, as a consumer would."""

from __future__ import annotations

from datetime import timedelta

import pytest
import time_machine
from django.utils import timezone
from factories import make_user
from huey.contrib.djhuey import HUEY
from huey.storage import PriorityRedisStorage, RedisStorage, SqliteStorage
from multiprocess.services_up import ensure_redis

from games import tasks
from games.live import watch
from games.models import Action, Game
from games.play import computer, services
from games.tasks import COMPUTE
from games.terms import GameSettings

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(params=["sqlite", "redis"])
def queued(request, tmp_path, monkeypatch):
    """Both queues where a site keeps them, with tasks waiting for a consumer: in one SQLite file
    (the embedded default), or in Redis (production: the compute queue a sorted set, for its
    priorities). No web process watches for the bot's moves here: there is no browser to tell."""
    monkeypatch.setattr(watch, "pushes_stay_in_process", lambda: False)
    if request.param == "redis":
        problem = ensure_redis()
        if problem:
            pytest.skip(problem)
        url = "redis://127.0.0.1:6379/12"
        storages = {
            HUEY: RedisStorage(HUEY.name, url=url),
            COMPUTE: PriorityRedisStorage(COMPUTE.name, url=url),
        }
    else:
        path = str(tmp_path / "huey.sqlite3")
        storages = {huey: SqliteStorage(huey.name, filename=path) for huey in (HUEY, COMPUTE)}
    for huey, storage in storages.items():
        huey._immediate = False
        huey.storage = storage
        storage.flush_all()
    yield
    for huey, storage in storages.items():
        storage.flush_all()
        huey._immediate = True
        huey.storage = huey.create_storage()


def names(huey) -> list[str]:
    """The tasks waiting in ``huey``'s queue, in the order a consumer takes them."""
    return [huey.deserialize_task(data).name for data in huey.storage.enqueued_items()]


def against_the_bot(name: str, clock: str = "3d", level: str = "search") -> Game:
    """A game against the bot, which moves first: its move is asked for as the game begins."""
    terms = GameSettings(first="opponent", time_control=clock)
    return computer.play_the_computer(make_user(name), terms, level)


def run_next(huey):
    """What a consumer does: take the first task of the queue and run it."""
    task = huey.dequeue()
    huey.execute(task)
    return task


def run_all(huey) -> None:
    """A consumer's work until its queue is empty (a bot may act several times in a row: each
    of its actions is a task of its own)."""
    for _ in range(100):
        if not huey.pending_count():
            return
        run_next(huey)
    raise AssertionError("the queue never emptied")


def test_each_task_lands_on_its_queue(queued):
    game = against_the_bot("alice", clock="5+3")
    assert names(COMPUTE) == ["computer_move"]
    # The live game's flag is the light queue's (a consumer holds it until its moment).
    assert names(HUEY) == ["check_clock"]

    run_all(COMPUTE)
    game.refresh_from_db()
    game.refresh_from_db()
    assert game.seq > 0  # the bot moved ...
    assert game.to_decide == 0  # ... and it is alice's turn


def test_a_hint_is_thought_out_on_the_compute_queue(queued, client):
    alice = make_user("alice")
    terms = GameSettings(first="me", time_control="none")
    game = computer.play_the_computer(alice, terms, "random")
    client.force_login(alice)
    client.post(f"/games/{game.pk}/hint/", {"seq": game.seq}, HTTP_HX_REQUEST="true")
    assert names(COMPUTE) == ["computer_hint"]
    assert "computer_hint" not in names(HUEY), names(HUEY)


def test_a_live_bot_move_jumps_a_queue_of_correspondence_ones(queued):
    waiting = [against_the_bot(f"player{i}") for i in range(3)]
    live = against_the_bot("hurried", clock="5+3")
    assert COMPUTE.pending_count() == 4

    taken = [COMPUTE.dequeue().args for _ in range(4)]
    # The live one first, then the correspondence ones in the order they were asked for.
    assert taken == [(game.pk, 0) for game in [live, *waiting]]


def test_a_bot_move_asked_for_twice_at_the_same_point_is_queued_once(queued):
    game = against_the_bot("alice")
    assert COMPUTE.pending_count() == 1
    tasks.schedule_computer_move(game)  # the same change heard again
    assert not tasks.request_computer_move(game.pk, game.seq, live=False)
    assert COMPUTE.pending_count() == 1

    run_all(COMPUTE)
    game.refresh_from_db()
    assert game.to_decide == 0
    assert Action.objects.filter(game=game, player=1).count() >= 1


def test_the_same_move_run_twice_is_played_once(queued):
    # A retry of a move that was made (its worker died after the commit): the game is past the
    # seq the move was asked for at, and nothing more is played.
    game = against_the_bot("alice", level="random")
    task = COMPUTE.dequeue()
    COMPUTE.execute(task)
    after_one = Action.objects.filter(game=game).count()
    tasks.computer_move.call_local(game.pk, 0)
    assert Action.objects.filter(game=game).count() == after_one


def test_a_move_a_dead_worker_dropped_is_asked_for_again_once(queued, settings):
    settings.COMPUTER_STALLED_SECONDS = 30
    game = against_the_bot("alice", level="random")
    task = COMPUTE.dequeue()  # a worker takes it ...
    key = f"computer-move:{game.pk}:0"
    note = COMPUTE.get(key, peek=True)
    thinking = {**note, "state": "thinking", "at": timezone.now().timestamp()}
    COMPUTE.put(key, thinking)  # ... starts to think, and dies: nothing else happens

    # A game waiting long for the bot, but a search begun 10 s ago: it may still be going on.
    Game.objects.filter(pk=game.pk).update(updated_at=timezone.now() - timedelta(minutes=2))
    COMPUTE.put(key, {**thinking, "at": (timezone.now() - timedelta(seconds=10)).timestamp()})
    assert tasks.computer_moves_stalled(timezone.now()) == 0
    COMPUTE.put(key, {**thinking, "at": (timezone.now() - timedelta(minutes=2)).timestamp()})
    assert tasks.computer_moves_stalled(timezone.now()) == 1
    assert names(COMPUTE) == ["computer_move"]
    assert COMPUTE.get(key, peek=True)["attempt"] == 2

    # The second try dies too: the sweep asks no third time, and the game waits for an admin.
    again = COMPUTE.dequeue()
    assert again.args == task.args
    COMPUTE.put(key, {**COMPUTE.get(key, peek=True), "state": "thinking", "at": 0})
    assert tasks.computer_moves_stalled(timezone.now()) == 0
    assert COMPUTE.pending_count() == 0
    assert COMPUTE.get(key, peek=True)["state"] == "given up"
    assert tasks.computer_moves_stalled(timezone.now()) == 0
    # The player can still end it: the game is not locked by the lost move.
    game.refresh_from_db()
    services.resign(game, game.seat0)
    game.refresh_from_db()
    assert game.status != Game.Status.ACTIVE


def test_a_move_whose_request_was_lost_is_asked_for_anew(queued):
    # The queue and its notes emptied under it (a Redis restarted, an earlier release's task).
    game = against_the_bot("alice", level="random")
    COMPUTE.flush()
    Game.objects.filter(pk=game.pk).update(updated_at=timezone.now() - timedelta(minutes=2))
    assert tasks.computer_moves_stalled(timezone.now()) == 1
    run_all(COMPUTE)
    game.refresh_from_db()
    assert game.to_decide == 0


def test_a_move_noted_as_queued_but_gone_from_the_queue_is_asked_for_anew(queued, settings):
    # Lost between its note and the queue: only the queue was emptied.
    settings.COMPUTER_STALLED_SECONDS = 30
    game = against_the_bot("alice", level="random")
    COMPUTE.storage.flush_queue()
    key = f"computer-move:{game.pk}:0"
    Game.objects.filter(pk=game.pk).update(updated_at=timezone.now() - timedelta(hours=1))
    assert tasks.computer_moves_stalled(timezone.now()) == 0  # queued just now: its turn comes
    note = COMPUTE.get(key, peek=True)
    COMPUTE.put(key, {**note, "at": (timezone.now() - timedelta(minutes=6)).timestamp()})
    assert tasks.computer_moves_stalled(timezone.now()) == 1
    run_all(COMPUTE)
    game.refresh_from_db()
    assert game.to_decide == 0


def test_a_move_that_fails_is_retried_then_asked_for_once_more(queued, monkeypatch):
    # A stand-in for a broken bot (unit test): its move raises every time.
    game = against_the_bot("alice", level="random")
    key = f"computer-move:{game.pk}:0"
    monkeypatch.setattr(tasks.computer, "move", lambda *args: 1 / 0)
    task = COMPUTE.dequeue()
    COMPUTE.execute(task)
    assert COMPUTE.get(key, peek=True)["state"] == "queued"  # waiting for its retry
    assert [t.args for t in COMPUTE.scheduled()] == [(game.pk, 0)]
    task.retries, task.eta = 0, None  # its last try, come due
    COMPUTE.execute(task)
    assert COMPUTE.get(key, peek=True)["state"] == "failed"

    Game.objects.filter(pk=game.pk).update(updated_at=timezone.now() - timedelta(minutes=2))
    assert tasks.computer_moves_stalled(timezone.now()) == 1  # once more, a second attempt
    assert COMPUTE.get(key, peek=True)["attempt"] == 2
    again = COMPUTE.dequeue()
    again.retries = 0
    COMPUTE.execute(again)
    assert tasks.computer_moves_stalled(timezone.now()) == 0  # and never a third
    assert COMPUTE.get(key, peek=True)["state"] == "given up"


def test_a_move_cut_short_by_a_stop_is_queued_again(queued, monkeypatch):
    # A consumer stopped at once (SIGINT) in the middle of the search: huey interrupts it.
    game = against_the_bot("alice", level="random")

    def interrupted(*args):
        raise KeyboardInterrupt

    monkeypatch.setattr(tasks.computer, "move", interrupted)
    COMPUTE.execute(COMPUTE.dequeue())
    assert [
        task.args for task in map(COMPUTE.deserialize_task, COMPUTE.storage.enqueued_items())
    ] == [(game.pk, 0)]
    assert COMPUTE.get(f"computer-move:{game.pk}:0", peek=True)["state"] == "queued"


def test_a_move_still_queued_is_left_to_wait_its_turn(queued):
    game = against_the_bot("alice", level="random")
    Game.objects.filter(pk=game.pk).update(updated_at=timezone.now() - timedelta(hours=1))
    assert tasks.computer_moves_stalled(timezone.now()) == 0
    assert COMPUTE.pending_count() == 1


def test_periodic_tasks_run_once_with_two_light_consumers(queued, monkeypatch):
    swept, digests = [], []
    monkeypatch.setattr(tasks, "sweep", lambda: swept.append(1) or {"ended": 0})
    monkeypatch.setattr(tasks.notify, "daily_digests", lambda: digests.append(1))
    consumers = [HUEY.create_consumer(workers=1, periodic=True) for _ in range(2)]
    on_the_hour = timezone.now().replace(minute=0, second=5, microsecond=0)
    with time_machine.travel(on_the_hour, tick=False):
        for consumer in consumers:  # each one's scheduler queues the minute's periodic tasks
            consumer._create_scheduler().enqueue_periodic_tasks(on_the_hour)
        assert names(HUEY).count("sweep_every_minute") == 2
        while HUEY.pending_count():
            run_next(HUEY)
        assert swept == [1]
        assert digests == [1]
    # The next minute's copies, one late by a minute: one sweep more, no digest.
    for moment in (
        on_the_hour + timedelta(minutes=1),
        on_the_hour + timedelta(minutes=1, seconds=50),
    ):
        with time_machine.travel(moment, tick=False):
            consumers[0]._create_scheduler().enqueue_periodic_tasks(moment)
            run_all(HUEY)
    # A copy of minute one's, run late at two past, takes minute two's tick: minute two's own
    # copy then does nothing. One sweep a minute all the same.
    with time_machine.travel(on_the_hour + timedelta(minutes=2, seconds=1), tick=False):
        tasks.sweep_every_minute.call_local()
        tasks.sweep_every_minute.call_local()
    assert swept == [1, 1, 1]
    assert digests == [1]

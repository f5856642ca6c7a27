"""A rate limit's bucket in the site's caches (``basilica_site.cache``): a turn is read and taken
in one step, so a flood of posts arriving at the same instant passes no faster than the bucket
allows, in one process (the in-memory cache) or in many (Redis, which every process shares)."""

from __future__ import annotations

import threading
import time

import pytest
from django.core.cache import cache

from basilica_site.cache import LocalCache
from tests.multiprocess.services_up import ensure_redis

pytestmark = pytest.mark.django_db

SITE_REDIS = {
    "BACKEND": "basilica_site.cache.ForgivingRedisCache",
    "LOCATION": "redis://127.0.0.1:6379/9",
    "OPTIONS": {"socket_timeout": 1, "socket_connect_timeout": 1},
}


@pytest.fixture(params=["in memory", "redis"])
def site_cache(request, settings, monkeypatch):
    """Each of the site's two caches, empty. The in-memory one reads slowly (a fiftieth of a
    second), so that threads taking turns at once would meet between a read and a write if
    anything let them (each thread has a cache object of its own, as Django makes them)."""
    if request.param == "in memory":
        reads = LocalCache.get

        def slow_read(self, *args, **kwargs):
            found = reads(self, *args, **kwargs)
            time.sleep(0.02)  # the value read, not yet used: another thread may write now
            return found

        monkeypatch.setattr(LocalCache, "get", slow_read)
    if request.param == "redis":
        problem = ensure_redis()
        if problem:
            pytest.skip(problem)
        settings.CACHES = {"default": SITE_REDIS}
    cache.clear()
    yield cache
    cache.clear()


def all_at_once(count: int, work) -> list:
    """``work()`` in ``count`` threads let go at the same instant: what each returned."""
    start = threading.Barrier(count)
    answers: list = [None] * count

    def one(number: int) -> None:
        start.wait()
        answers[number] = work()

    threads = [threading.Thread(target=one, args=(n,)) for n in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return answers


def test_a_flood_at_one_instant_takes_no_more_turns_than_the_bucket_holds(site_cache):
    for _round in range(5):  # a race lost once in a while must not pass unseen
        site_cache.delete("bucket")
        waits = all_at_once(24, lambda: site_cache.take_turn("bucket", every=60, burst=5))
        assert waits.count(0) == 5, waits  # the others are told to wait (for about a minute)


def test_processes_whose_clocks_differ_share_a_bucket_by_redis_s_clock(settings, monkeypatch):
    """Several machines' processes share Redis's bucket; their clocks may differ by seconds. A
    turn is taken, and the wait told, at Redis's moment: the process whose clock is behind is
    not refused for the others' time ahead (four turns taken by a clock five seconds fast leave
    one of five), and every process tells the player the same wait."""
    problem = ensure_redis()
    if problem:
        pytest.skip(problem)
    settings.CACHES = {"default": SITE_REDIS}
    cache.clear()
    clock = time.time
    monkeypatch.setattr(time, "time", lambda: clock() + 5)
    assert [cache.take_turn("bucket", every=60, burst=5) for _ in range(4)] == [0] * 4
    monkeypatch.setattr(time, "time", clock)
    assert cache.take_turn("bucket", every=60, burst=5) == 0
    told = cache.take_turn("bucket", every=60, burst=5)
    assert 55 < told <= 60
    for skew in (-5, 5):
        monkeypatch.setattr(time, "time", lambda skew=skew: clock() + skew)
        assert abs(cache.turn_wait("bucket", every=60, burst=5) - told) < 1
    cache.clear()


def test_the_bucket_refills_one_turn_at_a_time_at_its_pace(site_cache):
    assert [site_cache.take_turn("b", every=2, burst=2, now=100) for _ in range(3)] == [0, 0, 2]
    assert site_cache.turn_wait("b", every=2, burst=2, now=101) == 1
    assert site_cache.take_turn("b", every=2, burst=2, now=101.5) == 0.5
    assert site_cache.take_turn("b", every=2, burst=2, now=102) == 0  # one turn back, taken
    assert site_cache.take_turn("b", every=2, burst=2, now=102) == 2
    site_cache.give_back_turn("b", every=2, now=102)  # taken at 102 for something refused
    assert site_cache.turn_wait("b", every=2, burst=2, now=102) == 0
    assert site_cache.take_turn("b", every=2, burst=2, now=102) == 0  # that one turn, no more
    assert site_cache.take_turn("b", every=2, burst=2, now=102) == 2
    assert site_cache.take_turn("b", every=2, burst=2, now=110) == 0  # full again after a pause
    assert site_cache.take_turn("b", every=2, burst=2, now=110) == 0
    assert site_cache.take_turn("b", every=2, burst=2, now=110) == 2

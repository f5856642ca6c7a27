"""The site's caches: Django's Redis cache, answering as an empty cache while Redis is away, and
Django's in-process cache for the embedded default; both take a rate limit's turns atomically.

Nothing the site caches is more than a copy or a count: drawn thumbnails, the word filter's
list, a list's last change, the rate limits' counts. A Redis that restarts, or stops answering,
must not turn the front page, the lobby or a chat line into a server error, as it did: while it
is away, a read finds nothing, a write keeps nothing, and a count starts afresh at each request
(the limits let everything through until Redis is back; django-otp's own throttle of wrong
second-factor codes, in the database, still holds; a bucket's turns are all given). The socket timeouts of ``OPTIONS`` bound
how long one call waits for a Redis that hangs, and after a call that failed the cache does not
ask Redis again for ``AWAY_SECONDS``: a page of many cached pieces waits once, not once each.
What happened is logged, once a minute at most per process. (``aincr`` and ``adecr``, which
Django builds on ``aget``, say a count is missing instead: nothing here counts asynchronously.)
"""

from __future__ import annotations

import logging
import math
import threading
import time
from functools import wraps

from django.core.cache.backends.locmem import LocMemCache
from django.core.cache.backends.redis import RedisCache
from redis.exceptions import ConnectionError as RedisAway
from redis.exceptions import TimeoutError as RedisSlow

log = logging.getLogger(__name__)

AWAY = (RedisAway, RedisSlow)
AWAY_SECONDS = 5  # after a failed call, how long the cache answers empty without asking Redis
TOLD_EVERY = 60  # seconds between two warnings of one process

_asked_again_at = float("-inf")
_told_at = float("-inf")


def _away(operation: str, error: Exception) -> None:
    global _asked_again_at, _told_at
    now = time.monotonic()
    _asked_again_at = now + AWAY_SECONDS
    if now - _told_at >= TOLD_EVERY:
        _told_at = now
        log.warning("cache: Redis away (%s: %s); answering as an empty cache", operation, error)


def _or(answer):
    """A method of Django's Redis cache, giving ``answer(*its arguments)`` while Redis is away."""

    def forgiving(method):
        @wraps(method)
        def call(self, *args, **kwargs):
            if time.monotonic() < _asked_again_at:
                return answer(*args, **kwargs)  # away a moment ago: not asked again yet
            try:
                return method(self, *args, **kwargs)
            except AWAY as error:
                _away(method.__name__, error)
                return answer(*args, **kwargs)

        return call

    return forgiving


def _nothing(*_args, **_kwargs) -> None:
    return None


def _no(*_args, **_kwargs) -> bool:
    return False


class _Turns:
    """A rate limit's bucket, as "generic cell rate": one moment per key, when its bucket will be
    full again (in milliseconds, an integer). Holding ``burst`` turns and refilling one every
    ``every`` seconds, a bucket lets a flood through one turn at a time at the steady pace, never
    as a burst each time a window opens. A turn is read and taken in one step, so that posts of
    one player arriving at the same instant in several threads or processes cannot each pass."""

    def take_turn(self, key: str, every: float, burst: int, now: float | None = None) -> float:
        """Take a turn from the bucket ``key``: 0 if taken, else the seconds before one is there
        (nothing taken). The moment is the store's own clock, read in the same step (``now``
        only in tests): callers whose clocks differ, or who read theirs a little before their
        turn comes, would otherwise each be refused for the others' few milliseconds ahead."""
        every_ms = _ms(every)
        return self._take(key, _ms_or_none(now), every_ms, (burst - 1) * every_ms) / 1000

    def give_back_turn(self, key: str, every: float, now: float | None = None) -> None:
        """Give back the turn just taken from ``key`` (what it was taken for was refused)."""
        self._give_back(key, _ms(every), _ms_or_none(now))

    def turn_wait(self, key: str, every: float, burst: int, now: float | None = None) -> float:
        """Seconds before the bucket ``key`` holds a turn again; 0 if it holds one now (at the
        store's clock too, as the turns are taken)."""
        return max(0, self._wait(key, _ms_or_none(now), (burst - 1) * _ms(every))) / 1000


def _ms(seconds: float) -> int:
    return math.ceil(seconds * 1000)


def _ms_or_none(seconds: float | None) -> int | None:
    return None if seconds is None else _ms(seconds)


def _now_or(now: int | None) -> int:
    """The moment a test gives, or this process's clock (in milliseconds)."""
    return _ms(time.time()) if now is None else now


def _early(full_at: int, now: int, room: int) -> int:
    """How long before a bucket full at ``full_at`` holds a turn again (> 0: it is empty)."""
    return max(full_at, now) - now - room


# In Redis, as one script: Redis runs a script whole, nothing else between its commands. The
# moment is stored as a bare integer, which Django's Redis cache reads back as one. A script's
# moment is Redis's clock, one for every process (read before writing: allowed since Redis 5's
# effects replication), unless a test gives one; the bucket is full then or later.
_NOW_AND_FULL_AT = """
local now = tonumber(ARGV[1])
if not now then
  local clock = redis.call('TIME')
  now = tonumber(clock[1]) * 1000 + math.ceil(tonumber(clock[2]) / 1000)
end
local full_at = math.max(tonumber(redis.call('GET', KEYS[1]) or '') or now, now)
"""
TAKE_TURN = (
    _NOW_AND_FULL_AT
    + """
local every, room = tonumber(ARGV[2]), tonumber(ARGV[3])
local early = full_at - now - room
if early > 0 then return early end
full_at = full_at + every
redis.call('SET', KEYS[1], string.format('%d', full_at), 'PX', full_at - now + 1000)
return 0
"""
)
TURN_WAIT = (
    _NOW_AND_FULL_AT
    + """
return full_at - now - tonumber(ARGV[2])
"""
)
GIVE_BACK_TURN = """
local full_at = tonumber(redis.call('GET', KEYS[1]))
if full_at then
  redis.call('SET', KEYS[1], string.format('%d', full_at - tonumber(ARGV[1])), 'KEEPTTL')
end
"""


_turn_locks: dict[str, threading.Lock] = {}  # per cache, shared by its every thread's object


class LocalCache(_Turns, LocMemCache):
    """Django's cache in this process's memory (the embedded default: one process). Django makes
    an object of it for each thread (and each request, under ASGI); they share its contents,
    and its turns' lock, by the cache's name."""

    def __init__(self, name, params) -> None:
        super().__init__(name, params)
        self._turns = _turn_locks.setdefault(name, threading.Lock())

    def _take(self, key: str, now: int | None, every: int, room: int) -> int:
        with self._turns:
            now = _now_or(now)
            full_at = max(self.get(key, now), now)
            early = _early(full_at, now, room)
            if early > 0:
                return early
            full_at += every
            self.set(key, full_at, timeout=_kept_for(full_at, now))
            return 0

    def _give_back(self, key: str, every: int, now: int | None) -> None:
        with self._turns:
            now = _now_or(now)
            full_at = self.get(key)
            if full_at is not None:
                self.set(key, full_at - every, timeout=_kept_for(full_at, now))  # as long as it was

    def _wait(self, key: str, now: int | None, room: int) -> int:
        now = _now_or(now)
        return _early(self.get(key, now), now, room)


def _kept_for(full_at: int, now: int) -> int:
    """Seconds a bucket full at ``full_at`` is kept: until it is full, and a second."""
    return math.ceil((full_at - now) / 1000) + 1


class ForgivingRedisCache(_Turns, RedisCache):
    get = _or(lambda key, default=None, version=None: default)(RedisCache.get)
    get_many = _or(lambda keys, version=None: {})(RedisCache.get_many)
    has_key = _or(_no)(RedisCache.has_key)
    add = _or(_no)(RedisCache.add)
    set = _or(_nothing)(RedisCache.set)
    touch = _or(_no)(RedisCache.touch)
    delete = _or(_no)(RedisCache.delete)
    delete_many = _or(_nothing)(RedisCache.delete_many)
    clear = _or(_no)(RedisCache.clear)
    incr = _or(lambda key, delta=1, version=None: delta)(RedisCache.incr)  # a count afresh
    # The keys not kept, as Django's backends name them.
    set_many = _or(lambda data, timeout=None, version=None: list(data))(RedisCache.set_many)

    @_or(lambda key, now, every, room: 0)  # every turn given while Redis is away
    def _take(self, key: str, now: int | None, every: int, room: int) -> int:
        keys = [self.make_and_validate_key(key)]
        args = ["" if now is None else now, every, room]
        return int(self._script(key, TAKE_TURN)(keys=keys, args=args))

    @_or(_nothing)
    def _give_back(self, key: str, every: int, now: int | None) -> None:
        self._script(key, GIVE_BACK_TURN)(keys=[self.make_and_validate_key(key)], args=[every])

    @_or(lambda key, now, room: 0)  # no wait while Redis is away
    def _wait(self, key: str, now: int | None, room: int) -> int:
        keys = [self.make_and_validate_key(key)]
        return int(self._script(key, TURN_WAIT)(keys=keys, args=["" if now is None else now, room]))

    def _script(self, key: str, source: str):
        # redis-py runs a registered script by its hash, and sends it whole the first time.
        client = self._cache.get_client(self.make_and_validate_key(key), write=True)
        return client.register_script(source)

"""Django's Redis cache, answering as an empty cache while Redis is away.

Nothing the site caches is more than a copy or a count: drawn thumbnails, the word filter's
list, a list's last change, the rate limits' counts. A Redis that restarts, or stops answering,
must not turn the front page, the lobby or a chat line into a server error, as it did: while it
is away, a read finds nothing, a write keeps nothing, and a count starts afresh at each request
(the limits let everything through until Redis is back; django-otp's own throttle of wrong
second-factor codes, in the database, still holds). The socket timeouts of ``OPTIONS`` bound
how long one call waits for a Redis that hangs, and after a call that failed the cache does not
ask Redis again for ``AWAY_SECONDS``: a page of many cached pieces waits once, not once each.
What happened is logged, once a minute at most per process. (``aincr`` and ``adecr``, which
Django builds on ``aget``, say a count is missing instead: nothing here counts asynchronously.)
"""

from __future__ import annotations

import logging
import time
from functools import wraps

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


class ForgivingRedisCache(RedisCache):
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

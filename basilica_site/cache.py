"""Django's Redis cache, answering as an empty cache while Redis is away.

Nothing the site caches is more than a copy or a count: drawn thumbnails, the word filter's
list, a list's last change, the rate limits' counts. A Redis that restarts, or stops answering,
must not turn the front page, the lobby or a chat line into a server error, as it did: while it
is away, a read finds nothing, a write keeps nothing, and a count starts afresh at each request
(the limits let everything through until Redis is back). The socket timeouts of ``OPTIONS``
bound how long a page waits for a Redis that hangs. What happened is logged, once a minute at
most per process.
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
TOLD_EVERY = 60  # seconds between two warnings of one process

_told_at = float("-inf")


def _away(operation: str, error: Exception) -> None:
    global _told_at
    now = time.monotonic()
    if now - _told_at >= TOLD_EVERY:
        _told_at = now
        log.warning("cache: Redis away (%s: %s); answering as an empty cache", operation, error)


def _or(answer):
    """A method of Django's Redis cache, giving ``answer(*its arguments)`` while Redis is away."""

    def forgiving(method):
        @wraps(method)
        def call(self, *args, **kwargs):
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
    # A count starts afresh; the keys not kept, as Django's backends name them.
    incr = _or(lambda key, delta=1, version=None: delta)(RedisCache.incr)
    set_many = _or(lambda data, timeout=None, version=None: list(data))(RedisCache.set_many)

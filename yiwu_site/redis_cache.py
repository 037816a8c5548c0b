"""Django's Redis cache, with one redis-py client per connection pool instead of one per call.

Django's ``RedisCacheClient.get_client`` makes a new ``redis.Redis`` for every cache operation.
With redis-py 8 that constructor fills a case-insensitive table of about 170 response
callbacks, and it cost more than the round trip to Redis: a quiet poll's one ``cache.get``
took about 0.3 ms of CPU in process, 0.1 ms with the client kept, and the quiet poll a third
less over HTTP (bench/web.py's last part; docs/deploy.md, "Quiet polls with the Redis client
kept"). A
``redis.Redis`` holds no connection of its own (each command takes one from the pool and gives
it back) and redis-py documents it as safe to share between threads, so keeping one per pool
changes nothing but the time. Django makes a cache object per thread anyway.

Everything else (keys, serialisation, timeouts, the pools and their options) is Django's.
"""

from django.core.cache.backends import redis


class KeptClientRedisCacheClient(redis.RedisCacheClient):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._clients = {}  # Django's pool (which it keeps for good) → the redis.Redis on it

    def get_client(self, key=None, *, write=False):
        pool = self._get_connection_pool(write)  # Django's choice of server, and its pool
        client = self._clients.get(pool)
        if client is None:
            client = self._clients[pool] = self._client(connection_pool=pool)
        return client


class RedisCache(redis.RedisCache):
    """``BACKEND: "yiwu_site.redis_cache.RedisCache"``: Django's RedisCache, the client kept."""

    def __init__(self, server, params):
        super().__init__(server, params)
        self._class = KeptClientRedisCacheClient

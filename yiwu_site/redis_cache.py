"""Django's Redis cache, with one redis-py client per connection pool instead of one per call.

Making a ``redis.Redis`` cost more than the round trip (docs/deploy.md, "Quiet polls with the Redis
client kept"); one holds no connection of its own and is thread-safe, so keeping it changes only the time.
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

"""The version each polling phone compares with, kept in the shared cache when there is one.

With ``settings.SHARED_CACHE`` (REDIS_URL or CACHE_URL: Django's Redis cache, one for every app
server), a quiet poll reads its game's version from the cache and touches no database. Each
link token has its own key (a poll knows only its token), holding the game's version:

- every change bumps the version in the game's row (``Game.bump_version``) and, once that
  transaction has committed, raises both of its tokens' keys to it (``announce``): a poll on
  any server sees the change as soon as the writer's commit returns;
- a poll that finds no key reads the version from the database and raises the key to it
  (``remember``).

Keys only ever go up (one Lua script, atomic in Redis), so a poll that read the database just
before a commit can never put back the older version after the writer wrote the new one, and
two writers' announcements arriving out of order leave the later version. A key lives
``SECONDS``: should an announcement be lost (Redis unreachable at that moment), phones see the
change within that time anyway. Deleting a game forgets its keys.

Without a shared cache nothing here is used: each poll asks the database (scoring/access.py).
"""

import logging
import re
from functools import partial

from django.conf import settings
from django.core.cache import cache
from django.db import transaction
from django.http import HttpRequest, HttpResponse

log = logging.getLogger(__name__)

PREFIX = "poll-version:1:"  # bump if what the key holds ever changes meaning
SECONDS = 300

# Raise KEYS[i] to ARGV[1] (a whole number) unless it already holds as much; ARGV[2]: seconds.
# Django's Redis cache stores a whole number as its digits and reads it back as an int.
RAISE = """
for _, key in ipairs(KEYS) do
  local now = tonumber(redis.call('GET', key))
  if now == nil or now < tonumber(ARGV[1]) then
    redis.call('SET', key, ARGV[1], 'EX', ARGV[2])
  end
end
return 1
"""


def shared() -> bool:
    return settings.SHARED_CACHE


def _key(token: str) -> str:
    return PREFIX + token


def cached_version(token: str) -> int | None:
    """The version the shared cache holds for ``token``, or None (nothing cached yet)."""
    value = cache.get(_key(token))
    return value if isinstance(value, int) else None


def _raise(tokens: list[str], version: int) -> None:
    keys = [cache.make_and_validate_key(_key(token)) for token in tokens]
    client = cache._cache.get_client(keys[0], write=True)  # Django's RedisCacheClient: a redis-py client
    client.eval(RAISE, len(keys), *keys, version, SECONDS)


def remember(token: str, version: int) -> None:
    """A poll read ``version`` from the database: the key holds at least that from now on."""
    _raise([token], version)


def announce(game) -> None:
    """After the transaction that bumped ``game.version`` commits, raise both links' keys to it
    (nothing if it rolls back). A failure is logged; the write itself has happened."""
    if not shared():
        return
    tokens, version = [game.edit_token, game.view_token], game.version
    transaction.on_commit(lambda: _raise(tokens, version), robust=True)


def announce_versions(games) -> None:
    """``announce`` for games (a queryset) whose versions one UPDATE bumped: read back now, in
    the same transaction, and raised once it commits."""
    if not shared():
        return
    for edit_token, view_token, version in games.values_list("edit_token", "view_token", "version"):
        transaction.on_commit(partial(_raise, [edit_token, view_token], version), robust=True)


def forget(game) -> None:
    """After the game is deleted: its links answer 404 again, on every server."""
    if not shared():
        return
    keys = [_key(game.edit_token), _key(game.view_token)]
    transaction.on_commit(lambda: cache.delete_many(keys), robust=True)


def etag(version: int) -> str:
    return f'"v{version}"'


def quiet_answer(request: HttpRequest, version: int) -> HttpResponse | None:
    """The answer to a poll of a game at ``version`` that has nothing new for it: 304 when its
    If-None-Match names that version (weak or not: GZipMiddleware weakens ours), else 204 when
    its ``v`` is that version; None when the phone shows another version."""
    tags = {tag.strip().removeprefix("W/") for tag in request.headers.get("If-None-Match", "").split(",")}
    if etag(version) in tags:
        response = HttpResponse(status=304)
    elif request.GET.get("v") == str(version):
        response = HttpResponse(status=204)
    else:
        return None
    response.headers["ETag"] = etag(version)
    return response


def well_formed(token: str) -> bool:
    from scoring.access import well_formed  # scoring.access counts with this module

    return well_formed(token)


# The poll's address, scoring/urls.py's ``g/<str:token>/poll`` under the root (``str``: no
# slash). Matched here rather than through the URL resolver, which tries the patterns before it
# in turn: a tenth of a quiet poll's time. tests/web/test_it_shared_cache.py checks that the two
# agree.
POLL_PATH = re.compile(r"/g/(?P<token>[^/]+)/poll")


class QuietPollMiddleware:
    """With the shared cache only (settings.MIDDLEWARE): a poll whose game has not changed is
    answered here, from the cached version, before sessions, CSRF, accounts, the locale and the
    URL resolver, which it needs none of (about half of a quiet poll's time on the server:
    bench/load.py). Anything else, a version not cached yet included, goes on to the view. It
    sits below SecurityMiddleware, whose headers and HTTPS redirect still apply, and checks the
    Host as the rest of the stack would (400 for one not allowed)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if request.method in ("GET", "HEAD") and (match := POLL_PATH.fullmatch(request.path_info)):
            if well_formed(token := match["token"]):
                request.get_host()  # DisallowedHost: 400, as CommonMiddleware would answer
                version = cached_version(token)
                if version is not None and (quiet := quiet_answer(request, version)) is not None:
                    quiet.headers["Cache-Control"] = "private, no-store"  # as for every token page
                    return quiet
        return self.get_response(request)

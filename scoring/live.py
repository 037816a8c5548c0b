"""The version each polling phone compares with, held in the shared cache when there is one.

Keys only ever go up (one atomic Lua script), so out-of-order writes and retries are safe; what
Redis holds and losing it: docs/deploy.md. Without a shared cache each poll asks the database."""

import logging
import re
import threading
import time
from functools import partial

from django.conf import settings
from django.core.cache import cache
from django.db import transaction
from django.http import HttpRequest, HttpResponse

log = logging.getLogger(__name__)

PREFIX = "poll-version:1:"  # bump if what the key holds ever changes meaning
# How long a lost announcement can go unseen at worst; each expiry costs a poll one indexed query
# (docs/deploy.md, "What Redis holds, and losing it").
SECONDS = 30
TOKEN_SHAPE = re.compile(r"[A-Za-z0-9_-]{1,64}", re.ASCII)  # secrets.token_urlsafe's alphabet

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
    if _late:
        retry_late()
    value = cache.get(_key(token))
    return value if isinstance(value, int) else None


def _raise(tokens: list[str], version: int, client=None) -> None:
    """``RAISE`` on both links' keys, through ``client`` (a redis-py client or pipeline) or the cache's own."""
    keys = [cache.make_and_validate_key(_key(token)) for token in tokens]
    client = client or cache._cache.get_client(keys[0], write=True)  # Django's RedisCacheClient: redis-py's
    client.eval(RAISE, len(keys), *keys, version, SECONDS)


def remember(token: str, version: int) -> None:
    """A poll read ``version`` from the database: the key holds at least that from now on."""
    _raise([token], version)


# Announcements that failed, held for the next try: game pk → (its tokens, the highest version).
_late: dict[int, tuple[list[str], int]] = {}
_late_lock = threading.Lock()
# While the cache stays down, only one request in this many seconds pays for a retry's timeout.
RETRY_SECONDS = 2
_next_retry = 0.0


def _keep_late(game_id: int, tokens: list[str], version: int) -> None:
    with _late_lock:
        _, held = _late.get(game_id, (tokens, version))
        _late[game_id] = (tokens, max(held, version))


def retry_late() -> None:
    """Retry every lost announcement in one round trip; a failure keeps them, since each loss was logged."""
    global _next_retry
    now = time.monotonic()
    with _late_lock:
        if not _late or now < _next_retry:
            return
        late = dict(_late)
        _late.clear()
        _next_retry = now + RETRY_SECONDS
    try:
        pipeline = cache._cache.get_client(write=True).pipeline(transaction=False)
        for tokens, version in late.values():
            _raise(tokens, version, pipeline)
        pipeline.execute()
    except Exception:
        for game_id, (tokens, version) in late.items():
            _keep_late(game_id, tokens, version)
    else:
        games = ", ".join(f"{game_id} (version {version})" for game_id, (_, version) in late.items())
        log.warning("shared cache: announced on a later try: game %s", games)


def _announce(game_id: int, tokens: list[str], version: int) -> None:
    """Once the write has committed; a failure is logged (never the tokens, which are the links) and held for a retry."""
    if _late:
        retry_late()
    try:
        _raise(tokens, version)
    except Exception:
        log.exception(
            "shared cache: game %s's version %s was not announced; retried at this process's next"
            " poll or write, and every poll sees it within %s s anyway",
            game_id,
            version,
            SECONDS,
        )
        _keep_late(game_id, tokens, version)


def announce(game) -> None:
    """After the commit that bumped ``game.version``, raise both links' keys to it (nothing on rollback)."""
    if not shared():
        return
    transaction.on_commit(partial(_announce, game.pk, [game.edit_token, game.view_token], game.version), robust=True)


def announce_versions(games) -> None:
    """``announce`` for games one UPDATE bumped, read back now in the same transaction."""
    if not shared():
        return
    for pk, edit_token, view_token, version in games.values_list("pk", "edit_token", "view_token", "version"):
        transaction.on_commit(partial(_announce, pk, [edit_token, view_token], version), robust=True)


def _forget(game_id: int, keys: list[str]) -> None:
    with _late_lock:
        _late.pop(game_id, None)  # a retry must not bring back a deleted game's version
    try:
        cache.delete_many(keys)
    except Exception:
        log.exception(
            "shared cache: deleted game %s's versions were not forgotten; its links answer 404 within %s s",
            game_id,
            SECONDS,
        )


def forget(game) -> None:
    """After the game is deleted: its links answer 404 again, on every server."""
    if not shared():
        return
    transaction.on_commit(partial(_forget, game.pk, [_key(game.edit_token), _key(game.view_token)]), robust=True)


def etag(version: int) -> str:
    return f'"v{version}"'


def quiet_answer(request: HttpRequest, version: int) -> HttpResponse | None:
    """304 or 204 for a poll at ``version`` with nothing new (weak ETags too: GZipMiddleware weakens ours), else None."""
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
    """Could this be a link token? Anything else is refused without asking the database, which PostgreSQL would error on."""
    return TOKEN_SHAPE.fullmatch(token) is not None


# scoring/urls.py's ``g/<str:token>/poll``, matched here to skip the URL resolver's walk of every
# pattern before it (tests/core/test_it_shared_cache.py checks that the two agree).
POLL_PATH = re.compile(r"/g/(?P<token>[^/]+)/poll")


class QuietPollMiddleware:
    """Answer a poll of an unchanged game from the cached version, before sessions, CSRF and the resolver.

    It sits below SecurityMiddleware, so its headers and HTTPS redirect still apply, and checks the Host
    as the rest of the stack would (400 for one not allowed)."""

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

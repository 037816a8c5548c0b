"""Several app servers, one PostgreSQL, one Redis (docs/deploy.md): with REDIS_URL the poll reads
each game's version from the shared cache, so a quiet poll asks no database, and every write on
one server is seen by the polls on every other as soon as it commits. The budgets' counts are
never there, where what a client makes the cache hold could push them out: database rows, or
counters in a Redis of their own (REDIS_BUDGETS_URL). A real Redis (tests/redis_server.py),
never a stand-in."""

import pytest
from django.core.cache import caches
from django.core.cache.backends.redis import RedisCache
from django.db import transaction
from django.test import Client

from scoring import live
from scoring.models import AccessMiss, Game, Hand
from tests.helpers import FINISH, game_url, record, version_of

ZIMO = {"outcome": "win", "winner": 2, "win_type": "zimo"}


def another_server() -> None:
    """What a poll on another app server starts from: its own connections to the cache (this
    process's are dropped), and nothing of this one's memory."""
    from asgiref.local import Local

    caches.close_all()
    caches._connections = Local()


def seen_by_a_second_client(url: str, game: Game) -> list:
    """The versions of both links as a separate client of the same Redis reads them."""
    other = RedisCache(url, {})
    return [other.get(live.PREFIX + token) for token in (game.edit_token, game.view_token)]


def poll(phone: Client, game: Game, version: int, view: bool = False, **headers):
    return phone.get(game_url(game, view=view) + f"poll?v={version}", headers=headers)


def test_a_quiet_poll_asks_no_database_once_the_version_is_cached(
    client, game, shared_cache, django_assert_num_queries
):
    client.get(game_url(game))
    assert poll(client, game, 0).status_code == 204  # the first poll of a game reads it
    another_server()
    with django_assert_num_queries(0):
        response = poll(client, game, 0)
    assert response.status_code == 204
    assert response.content == b""
    assert response["Cache-Control"] == "private, no-store"
    assert response["ETag"] == '"v0"'
    assert response["X-Content-Type-Options"] == "nosniff"  # SecurityMiddleware's headers still apply
    elsewhere = client.get(game_url(game) + "poll?v=0", headers={"Host": "evil.example.com"})
    assert elsewhere.status_code == 400  # ALLOWED_HOSTS, as for every request


def test_without_a_shared_cache_each_poll_asks_the_database_as_before(
    client, game, settings, django_assert_num_queries
):
    assert settings.SHARED_CACHE is False  # no REDIS_URL or CACHE_URL under the tests
    assert "redis" not in settings.CACHES["default"]["BACKEND"].lower()
    poll(client, game, 0)
    with django_assert_num_queries(1):
        assert poll(client, game, 0).status_code == 204


WRITES = {
    "confirm": lambda phone, game: record(phone, game, ZIMO),
    "edit": lambda phone, game: phone.post(
        game_url(game) + "hand/1/edit",
        {"outcome": "draw", "revision": "0", "confirm": "1", "version": version_of(game)},
    ),
    "void": lambda phone, game: phone.post(
        game_url(game) + "hand/1/void", {"reason": "记错了", "revision": "0", "version": version_of(game)}
    ),
    "undo": lambda phone, game: phone.post(
        phone.get(game_url(game) + "undo").url, {"reason": "撤销上一局", "revision": "0", "version": version_of(game)}
    ),
    "settle": lambda phone, game: phone.post(game_url(game) + "finish", FINISH),
}


@pytest.mark.django_db(transaction=True)  # real commits: the cache is written once the write commits
@pytest.mark.parametrize("write", WRITES)
def test_a_write_on_one_server_is_seen_by_a_poll_on_another_at_once(
    game, shared_cache, write, django_assert_num_queries
):
    writer, watcher = Client(), Client()
    if write != "confirm":
        record(writer, game, {"outcome": "win", "winner": 0, "win_type": "zimo"})
    before = Game.objects.get(pk=game.pk).version
    assert poll(watcher, game, before, view=True).status_code == 204  # cached on every server now
    assert poll(watcher, game, before).status_code == 204

    another_server()  # the writer's server
    assert WRITES[write](writer, game).status_code == 302
    after = Game.objects.get(pk=game.pk).version
    assert after == before + 1
    assert seen_by_a_second_client(shared_cache, game) == [after, after]  # in Redis as the write returns

    another_server()  # the watcher's
    for view in (False, True):
        response = poll(watcher, game, before, view=view)
        assert response.status_code == 200
        assert f"poll?v={after}" in response.content.decode()
        with django_assert_num_queries(0):
            assert poll(watcher, game, after, view=view).status_code == 204


@pytest.mark.django_db(transaction=True)
def test_a_write_that_rolls_back_leaves_the_cached_version_alone(client, game, shared_cache):
    assert poll(client, game, 0).status_code == 204
    seen_inside = []

    def refused_write():
        with transaction.atomic():
            Game.objects.select_for_update().get(pk=game.pk).bump_version(("x", "x"))
            seen_inside.append(seen_by_a_second_client(shared_cache, game)[0])
            raise RuntimeError("refused")

    with pytest.raises(RuntimeError):
        refused_write()
    assert seen_inside == [0]  # not before the commit
    assert seen_by_a_second_client(shared_cache, game)[0] == 0
    another_server()
    assert poll(client, game, 0).status_code == 204


@pytest.mark.django_db(transaction=True)
def test_a_poll_that_read_an_older_version_never_puts_it_back(game, shared_cache):
    """A poll that read version 0 from the database just before a write committed version 1
    stores what it read after the writer announced 1: the cache keeps 1."""
    record(Client(), game, ZIMO)
    assert seen_by_a_second_client(shared_cache, game)[0] == 1
    live.remember(game.edit_token, 0)
    assert seen_by_a_second_client(shared_cache, game)[0] == 1
    assert poll(Client(), game, 0).status_code == 200


@pytest.mark.django_db(transaction=True)
def test_eight_phones_confirming_at_once_record_one_hand_and_every_server_sees_it(make_game, shared_cache):
    from tests.concurrency.test_concurrent_phones import at_once, post_hand

    game = make_game()
    assert poll(Client(), game, 0).status_code == 204
    responses = at_once(lambda i: post_hand(game, i, next_seq=1))
    assert all(getattr(r, "status_code", None) == 302 for r in responses), responses
    assert Hand.objects.filter(game=game).count() == 1
    assert seen_by_a_second_client(shared_cache, game) == [1, 1]
    another_server()
    assert poll(Client(), game, 1).status_code == 204


@pytest.mark.django_db(transaction=True)
def test_a_deleted_games_links_answer_404_on_every_server_at_once(
    client, game, shared_cache, django_assert_num_queries
):
    for view in (False, True):
        assert poll(client, game, 0, view=view).status_code == 204
    with django_assert_num_queries(0):  # both links' versions are cached
        assert poll(client, game, 0).status_code == 204
        assert poll(client, game, 0, view=True).status_code == 204
    assert client.post(game_url(game) + "delete").status_code == 302
    another_server()
    assert poll(client, game, 0).status_code == 404
    assert poll(client, game, 0, view=True).status_code == 404


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(
    "shared", [False, pytest.param(True, marks=pytest.mark.services)], ids=["one server", "shared cache"]
)
def test_a_poll_names_the_version_as_its_etag_and_answers_304_to_it(client, game, request, shared):
    if shared:
        request.getfixturevalue("shared_cache")
    response = client.get(game_url(game) + "poll")
    assert response.status_code == 200
    assert response["ETag"] == '"v0"'
    unchanged = client.get(game_url(game) + "poll", headers={"If-None-Match": 'W/"v0"'})
    assert unchanged.status_code == 304
    assert unchanged.content == b""
    assert unchanged["ETag"] == '"v0"'
    assert poll(client, game, 0)["ETag"] == '"v0"'

    record(client, game, ZIMO)
    changed = client.get(game_url(game) + "poll", headers={"If-None-Match": '"v0"'})
    assert changed.status_code == 200
    assert changed["ETag"] == '"v1"'
    assert "poll?v=1" in changed.content.decode()


def test_budgets_are_counters_in_their_own_redis_not_rows(client, game, shared_cache, shared_budgets, settings):
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "hands": 2, "miss": 3, "anon": 2}
    for _ in range(2):
        assert record(client, game, ZIMO).status_code == 302
    refused = record(client, game, ZIMO)
    assert refused.status_code == 429
    assert "一分钟内记了太多局" in refused.content.decode()
    assert Hand.objects.filter(game=game).count() == 2

    for _ in range(3):
        assert client.get("/g/nosuchtoken/").status_code == 404
    assert client.get("/g/nosuchtoken/").status_code == 429
    for _ in range(2):
        assert client.post("/api/score", "{}", content_type="application/json").status_code == 400
    assert client.post("/api/score", "{}", content_type="application/json").status_code == 429

    assert not AccessMiss.objects.exists()
    assert not [key for key in caches["default"]._cache.get_client().keys("*") if b"budget:" in key]
    another_server()  # every server counts on the same counters
    assert record(Client(), game, ZIMO).status_code == 429
    assert client.get("/g/nosuchtoken/").status_code == 429
    assert Client(REMOTE_ADDR="10.9.9.9").get("/g/nosuchtoken/").status_code == 404  # another client


def test_with_only_the_pages_redis_the_budgets_are_database_rows(client, game, shared_cache, settings):
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "hands": 2}
    for _ in range(2):
        assert record(client, game, ZIMO).status_code == 302
    assert record(client, game, ZIMO).status_code == 429
    assert AccessMiss.objects.get(kind="hands").count == 2
    assert not [key for key in caches["default"]._cache.get_client().keys("*") if b"budget:" in key]


@pytest.fixture
def small_lru_redis():
    """A Redis of 2 MB that pushes out the least recently used keys when full, as a cache of
    pages is set up (docs/deploy.md)."""
    from tests import redis_server

    server, url, folder = redis_server.start(options=("--maxmemory", "2mb", "--maxmemory-policy", "allkeys-lru"))
    yield url
    redis_server.stop(server, folder)


@pytest.mark.services
@pytest.mark.parametrize("budgets_in", ["database", "own redis"])
def test_flooding_the_page_cache_pushes_out_no_budget(db, settings, small_lru_redis, budgets_in, request):
    """The review's probe: junk enough to fill the pages' Redis evicted a client's import count,
    and its next imports in the same window were accepted."""
    import json

    settings.CACHES = {"default": {"BACKEND": "yiwu_site.redis_cache.RedisCache", "LOCATION": small_lru_redis}}
    settings.SHARED_CACHE = True
    if budgets_in == "own redis":
        request.getfixturevalue("shared_budgets")
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "imports": 2, "games": 100}
    backup = json.dumps({"players": ["甲", "乙", "丙", "丁"], "hands": [{"outcome": "draw"}]})
    phone = Client(REMOTE_ADDR="10.1.2.3")
    for _ in range(2):
        assert phone.post("/import", {"text": backup}).status_code == 302

    pages = caches["default"]
    for i in range(3000):  # 6 MB of pages into 2 MB
        pages.set(f"page:junk:{i}", "x" * 2000, 3600)
    assert pages._cache.get_client().info("stats")["evicted_keys"] > 0

    for _ in range(3):
        assert phone.post("/import", {"text": backup}).status_code == 429
    assert Game.objects.count() == 2


def test_a_spent_budget_takes_back_the_counts_of_the_same_request(db, shared_cache, shared_budgets, settings):
    """New games count for the client and for the account: when the account's budget is spent,
    the client's count is not taken either (nothing at all), as with the database's counts."""
    from django.contrib.auth.models import User

    from tests.helpers import NEW_GAME

    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "games": 2}
    user = User.objects.create(username="laowang")
    for address in ("10.0.0.1", "10.0.0.2"):
        phone = Client(REMOTE_ADDR=address)
        phone.force_login(user)
        assert phone.post("/new", NEW_GAME).status_code == 302
    phone = Client(REMOTE_ADDR="10.0.0.3")
    phone.force_login(user)
    assert phone.post("/new", NEW_GAME).status_code == 429  # the account's budget is spent
    for _ in range(2):  # 10.0.0.3 was not counted: its whole budget is left
        assert Client(REMOTE_ADDR="10.0.0.3").post("/new", NEW_GAME).status_code == 302
    assert Client(REMOTE_ADDR="10.0.0.3").post("/new", NEW_GAME).status_code == 429
    assert not AccessMiss.objects.exists()


@pytest.mark.django_db(transaction=True)
def test_a_settle_up_paid_together_is_seen_by_the_polls_of_every_game_it_took_in(client, shared_cache):
    """已付 on a transfer that settles several evenings together bumps all their versions at once
    (scoring/groups/evenings.py): every one of their links' polls sees it, on any server."""
    from scoring.models import Group, SettleUpTransfer
    from tests.groups.test_it_groups import plan_ids, settled_pair

    group = Group.objects.create(name="周五牌友", roster=["老王", "小李", "阿华", "大刘"])
    last_week, tonight = settled_pair(client, group)
    client.post(game_url(tonight) + "carry", {"ids": plan_ids(group)})
    before = {game.pk: Game.objects.get(pk=game.pk).version for game in (last_week, tonight)}
    for game in (last_week, tonight):
        assert poll(client, game, before[game.pk]).status_code == 204
    paid = SettleUpTransfer.objects.first()
    client.post(game_url(tonight) + f"carry/{paid.pk}/paid", {"paid": "1"})
    another_server()
    for game in (last_week, tonight):
        assert Game.objects.get(pk=game.pk).version == before[game.pk] + 1
        assert poll(client, game, before[game.pk]).status_code == 200


POLL_LIKE = [
    "/g/{t}/poll",
    "/g/{t}/poll/",
    "/g/{t}/polls",
    "/g/{t}/x/poll",
    "/g//poll",
    "/g/{t}",
    "/g/{t}/",
    "/gg/{t}/poll",
    "/x/g/{t}/poll",
    "/g/{t}/poll\n",
    "/g/a b/poll",
    "/g/%2F/poll",
    "/g/{t}/record",
    "/i18n/g/{t}/poll",
]


@pytest.mark.parametrize("shape", POLL_LIKE)
def test_the_quiet_polls_address_is_the_one_the_url_resolver_sends_to_the_poll(shape, game):
    """The middleware matches the poll's address itself (scoring/live.py POLL_PATH) instead of
    asking the resolver: for addresses like it and unlike it, the two agree."""
    from django.urls import Resolver404, resolve

    path = shape.format(t=game.edit_token)
    try:
        resolved = resolve(path).url_name == "poll"
    except Resolver404:
        resolved = False
    matched = live.POLL_PATH.fullmatch(path)
    assert (matched is not None) == resolved, path
    if matched:
        assert resolve(path).kwargs == {"token": matched["token"]}


def test_the_redis_client_is_made_once_per_pool_and_answers_as_djangos(shared_cache):
    """yiwu_site/redis_cache.py keeps one redis-py client per connection pool, where Django makes
    one per operation: the same client each time, on Django's own pool, and every operation
    answers as Django's cache does against the same Redis."""
    from django.core.cache import cache

    kept = cache._cache
    assert kept.get_client() is kept.get_client(write=True) is kept.get_client("any key")
    assert kept.get_client().connection_pool is kept._get_connection_pool(write=True)
    djangos = RedisCache(shared_cache, {})
    cache.set("k", {"hand": 1}, 30)
    assert djangos.get("k") == {"hand": 1}
    djangos.set("n", 41, 30)
    assert cache.incr("n") == 42
    assert djangos.get("n") == 42
    assert (
        cache.get_many(["k", "n", "missing"]) == djangos.get_many(["k", "n", "missing"]) == {"k": {"hand": 1}, "n": 42}
    )
    cache.delete("k")
    assert djangos.get("k") is None


def test_each_replica_has_its_own_kept_client_and_writes_go_to_the_first(redis_url):
    """With several addresses (Django: the first takes writes, the others reads), each server's
    pool has its own client: a read never goes to the writer's client when there are readers."""
    from yiwu_site.redis_cache import RedisCache as Kept

    cache = Kept([redis_url, redis_url, redis_url], {})._cache
    writer = cache.get_client(write=True)
    readers = {id(cache.get_client()) for _ in range(40)}
    assert id(writer) not in readers
    assert len(readers) == 2  # both readers drawn in 40 reads (all alike: a chance of 2**-39)
    assert writer.connection_pool is cache._pools[0]


@pytest.fixture
def fail_next_announcement(monkeypatch):
    """Once called, the next write to Redis of a version fails, as against a Redis that has
    stopped answering (redis-py's own error); every other use of Redis works. Nothing left from
    another test to retry. Returns the versions that failed."""
    import redis

    real, armed, failed = live._raise, [], []

    def raise_once(tokens, version, client=None):
        if armed and not failed:
            failed.append(version)
            raise redis.exceptions.TimeoutError("Timeout reading from socket")
        real(tokens, version, client)

    monkeypatch.setattr(live, "_raise", raise_once)
    monkeypatch.setattr(live, "_late", {})
    monkeypatch.setattr(live, "_next_retry", 0.0)

    def arm():
        armed.append(True)
        return failed

    return arm


def lost_announcements(caplog) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.name == "scoring.live" and r.levelname == "ERROR"]


@pytest.mark.django_db(transaction=True)
def test_a_lost_announcement_is_logged_and_every_poll_sees_the_write_once_its_key_expires(
    game, shared_cache, fail_next_announcement, monkeypatch, caplog
):
    """The writer's server gone before it could retry: the key's life is the bound. Measured
    with the key's life shortened to 1 s; the real one is checked to be 30 s."""
    import time

    import redis

    watcher, redis_client = Client(), redis.Redis.from_url(shared_cache)
    key = caches["default"].make_and_validate_key(live.PREFIX + game.edit_token)
    assert poll(watcher, game, 0).status_code == 204
    assert 25_000 < redis_client.pttl(key) <= live.SECONDS * 1000 == 30_000
    monkeypatch.setattr(live, "SECONDS", 1)
    redis_client.delete(key)
    assert poll(watcher, game, 0).status_code == 204  # the key again, living 1 s

    failed = fail_next_announcement()
    assert record(Client(), game, ZIMO).status_code == 302
    written = time.monotonic()
    assert failed == [1]
    assert lost_announcements(caplog) == [
        f"shared cache: game {game.pk}'s version 1 was not announced; retried at this process's next"
        " poll or write, and every poll sees it within 1 s anyway"
    ]
    assert game.edit_token not in caplog.text
    live._late.clear()  # the writer's server is gone: nobody retries

    another_server()
    assert poll(watcher, game, 0).status_code == 204  # the loss: "nothing new" from the old key
    while (answer := poll(watcher, game, 0)).status_code == 204:
        assert time.monotonic() - written < 1.5
        time.sleep(0.05)
    assert answer.status_code == 200
    assert "poll?v=1" in answer.content.decode()
    assert seen_by_a_second_client(shared_cache, game)[0] == 1


@pytest.mark.django_db(transaction=True)
def test_a_lost_announcement_is_made_at_the_writers_next_poll_and_every_server_sees_it(
    game, shared_cache, fail_next_announcement, caplog
):
    watcher = Client()
    assert poll(watcher, game, 0).status_code == 204
    fail_next_announcement()
    assert record(Client(), game, ZIMO).status_code == 302
    assert len(lost_announcements(caplog)) == 1
    assert seen_by_a_second_client(shared_cache, game) == [0, None]  # lost

    assert poll(Client(), game, 0, view=True).status_code == 200  # any poll on the writer's server
    assert seen_by_a_second_client(shared_cache, game) == [1, 1]
    assert f"shared cache: announced on a later try: game {game.pk} (version 1)" in caplog.text
    assert live._late == {}
    another_server()
    assert poll(watcher, game, 0).status_code == 200


def test_while_the_cache_stays_down_a_lost_announcement_is_retried_once_in_a_while(shared_cache, monkeypatch):
    import time

    monkeypatch.setattr(live, "_late", {7: (["edit7", "view7"], 3)})
    monkeypatch.setattr(live, "_next_retry", time.monotonic() + live.RETRY_SECONDS)  # the last try just failed
    live.retry_late()
    assert live._late == {7: (["edit7", "view7"], 3)}  # not tried: a request pays for one try in 2 s
    assert caches["default"].get(live.PREFIX + "edit7") is None
    monkeypatch.setattr(live, "_next_retry", 0.0)
    live.retry_late()
    assert live._late == {}
    assert [caches["default"].get(live.PREFIX + token) for token in ("edit7", "view7")] == [3, 3]


@pytest.mark.django_db(transaction=True)
def test_a_deleted_game_is_not_announced_again_by_a_retry(client, game, shared_cache, monkeypatch):
    monkeypatch.setattr(live, "_late", {game.pk: ([game.edit_token, game.view_token], 4)})
    monkeypatch.setattr(live, "_next_retry", float("inf"))  # no retry before the delete
    assert client.post(game_url(game) + "delete").status_code == 302
    assert live._late == {}
    monkeypatch.setattr(live, "_next_retry", 0.0)
    assert poll(client, game, 0).status_code == 404
    assert seen_by_a_second_client(shared_cache, game) == [None, None]

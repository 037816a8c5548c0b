import os

import pytest
from django.db.backends.signals import connection_created
from django.dispatch import receiver

from scoring.models import Game
from scoring.rulesets.yiwu.engine import Rules
from tests import speed

speed.load()  # HYPOTHESIS_PROFILE: quick by default, "ci" for the full counts


@receiver(connection_created)
def _commit_without_waiting_for_the_disk(sender, connection, **kwargs):
    """The test database is thrown away after the run, so a commit need not wait for the disk:
    SQLite's fsync on every commit cost each browser test ~0.2 s in its flush alone (the live
    server's writes commit, and a transactional test empties every table after it). Locking, and
    so the concurrency tests, are unchanged."""
    with connection.cursor() as cursor:
        if connection.vendor == "sqlite":
            cursor.execute("PRAGMA synchronous = OFF")
        elif connection.vendor == "postgresql":
            cursor.execute("SET synchronous_commit TO OFF")


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup, django_db_blocker):
    """pytest-django's test database; on PostgreSQL, before it is dropped at the end, every other
    session still attached to it is ended and named (a thread of a test that kept its connection:
    the drop failed with "database … is being accessed by other users", a warning in CI)."""
    yield
    from django.db import connection

    if connection.vendor != "postgresql":
        return
    with django_db_blocker.unblock(), connection.cursor() as cursor:
        cursor.execute(
            "SELECT application_name, state, left(query, 120), pg_terminate_backend(pid) FROM pg_stat_activity"
            " WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )
        left = cursor.fetchall()
    if left:
        print(f"\nsessions left attached to the test database, ended: {left}")


@pytest.fixture(scope="session")
def playwright():
    """One Playwright per test process: its sync API runs only one at a time in a thread, so the
    browser tests' Chromium (tests/browser/conftest.py) and the HTTPS test's own, which trusts a
    local authority (tests/host/test_https.py), both start from this one."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        yield playwright


NAMES = ["老王", "小李", "阿华", "大刘"]


@pytest.hookimpl(tryfirst=True)  # before -m deselects by marker
def pytest_itemcollected(item):
    """A test that uses the private redis-server (``redis_url``, under ``shared_cache`` and
    ``shared_budgets``) is marked ``services``, which ``make test-quick`` leaves out."""
    if "redis_url" in getattr(item, "fixturenames", ()):
        item.add_marker(pytest.mark.services)
    if speed.slow(item):  # tests/speed.py SLOW: make test runs them, make test-quick does not
        item.add_marker(pytest.mark.slow)


@pytest.hookimpl(trylast=True)  # after pytest-django has put the tests in its order
def pytest_collection_modifyitems(items):
    """Under xdist (``make test``), each worker starts its share of the long tests early, longest
    first, instead of one worker ending the run alone with them (tests/speed.py ``share_out``)."""
    workers = int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "1"))
    if workers > 1:
        items[:] = speed.share_out(items, workers)


@pytest.fixture
def make_game(db):
    def make(first_dealer: int = 0, **rules) -> Game:
        return Game.objects.create(players=NAMES, first_dealer=first_dealer, rules=Rules(**rules).to_dict())

    return make


@pytest.fixture
def game(make_game) -> Game:
    return make_game()


ZHUJI_NAMES = ["阿强", "阿芳", "老周", "小陈"]
WUYI2_NAMES = ["老王", "阿芳"]


def new_ruleset_game(code: str, players: list[str]) -> Game:
    """A new game of ruleset ``code`` with its default rules and its first table state stored."""
    from scoring.engine import get_ruleset
    from scoring.engine.seating import seat
    from scoring.replay import state_json

    ruleset = get_ruleset(code)
    return Game.objects.create(
        ruleset=code,
        players=players,
        rules=ruleset.rules_class().to_dict(),
        state=state_json(seat(ruleset.new_state(0), players), active=0, last_seq=0),
    )


@pytest.fixture
def one_hand_game(game) -> Game:
    """``game`` with one hand recorded through the write path: the dealer (seat 0) 自摸."""
    from tests.factories import add_hand

    add_hand(game, {"outcome": "win", "winner": 0, "win_type": "zimo"})
    return game


@pytest.fixture
def zhuji_game(db) -> Game:
    return new_ruleset_game("zhuji", ZHUJI_NAMES)


@pytest.fixture
def wuyi2_game(db) -> Game:
    return new_ruleset_game("wuyi2", WUYI2_NAMES)


@pytest.fixture(autouse=True)
def _fresh_cache():
    """Each test starts with an empty cache: the hand rows cached by another test's game (whose
    database ids this test's database reuses) never show here."""
    from django.core.cache import cache

    cache.clear()


@pytest.fixture(autouse=True)
def _one_rate_limit_window(monkeypatch):
    """Every test runs inside one rate-limit window of each kind, so a test that straddles a
    window's edge (its counts starting afresh) cannot fail by the clock."""
    import scoring.access

    real, windows = scoring.access._window, {}
    monkeypatch.setattr(scoring.access, "_window", lambda kind="miss": windows.setdefault(kind, real(kind)))


@pytest.fixture(scope="session")
def redis_url():
    """A private redis-server for this test process (tests/redis_server.py): its address."""
    from tests import redis_server

    server, url, folder = redis_server.start()
    yield url
    redis_server.stop(server, folder)


@pytest.fixture
def shared_cache(settings, redis_url):
    """The settings REDIS_URL gives (yiwu_site/settings.py): Django's Redis cache shared by every
    app server, here the private Redis, emptied first. Returns its address."""
    settings.CACHES = {"default": {"BACKEND": "yiwu_site.redis_cache.RedisCache", "LOCATION": redis_url}}
    settings.SHARED_CACHE = True
    from yiwu_site.settings import with_quiet_polls

    settings.MIDDLEWARE = with_quiet_polls(settings.MIDDLEWARE)
    from django.core.cache import cache

    cache.clear()
    return redis_url


@pytest.fixture
def shared_budgets(settings, redis_url):
    """The settings REDIS_BUDGETS_URL gives: the budgets' counters in a Redis of their own, here
    another database of the private Redis, emptied first. Returns its address."""
    url = f"{redis_url}?db=1"
    settings.CACHES = {**settings.CACHES, "budgets": {"BACKEND": "yiwu_site.redis_cache.RedisCache", "LOCATION": url}}
    settings.SHARED_BUDGETS = True
    from django.core.cache import caches

    caches["budgets"].clear()
    return url

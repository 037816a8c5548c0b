"""/healthz is liveness (the process answers), /readyz readiness (its database and shared cache
answer too): a load balancer stops sending to a server whose /readyz says 503 (docs/deploy.md).

The failures are real ones, not stand-ins: a database address nothing listens on, a PostgreSQL
reached through a relay that stops passing bytes (what a stopped server looks like to its
clients: its machine still acknowledges them, nothing answers), and a private redis-server
stopped with SIGSTOP. Only the test of the default connection making its cursor fail is a
simulation, for SQLite, which has no server to stop. The relay's PostgreSQL is the local one
(127.0.0.1:5432, as .ci/run starts it, or DATABASE_URL's), whichever database the suite uses.
"""

import os
import re
import selectors
import signal
import socket
import threading
import time
from contextlib import contextmanager

import dj_database_url
import pytest
from django.db import OperationalError, connections
from django.db.backends.postgresql.base import DatabaseWrapper

from scoring import ready
from scoring.models import AccessMiss
from tests import redis_server
from tests.required import unavailable

# As yiwu_site/settings.py gives the shared cache (test_it_settings.py checks it does).
REDIS_OPTIONS = {"socket_connect_timeout": 1, "socket_timeout": 1}


def postgres_url(port: int | None = None) -> str:
    url = os.environ.get("DATABASE_URL", "")
    settings = dj_database_url.parse(
        url if url.startswith("postgres") else "postgres://postgres@127.0.0.1:5432/postgres"
    )
    host = "127.0.0.1" if port else (settings["HOST"] or "127.0.0.1")
    password = f":{settings['PASSWORD']}" if settings["PASSWORD"] else ""
    return f"postgres://{settings['USER']}{password}@{host}:{port or settings['PORT'] or 5432}/postgres"


def a_connection(url: str) -> DatabaseWrapper:
    """A Django connection of its own to ``url`` (the suite's own are left alone), with the
    connect_timeout yiwu_site/settings.py gives PostgreSQL."""
    parsed = dj_database_url.parse(url)
    parsed.setdefault("OPTIONS", {}).setdefault("connect_timeout", 2)
    return DatabaseWrapper(connections.configure_settings({"default": parsed})["default"], alias="probe")


class Relay:
    """A TCP relay in front of PostgreSQL; ``freeze()`` stops it passing anything either way, and
    stops it taking new connections, which the kernel still completes (its backlog)."""

    def __init__(self, upstream: tuple[str, int]):
        self.upstream = upstream
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.frozen, self.stopped = threading.Event(), threading.Event()
        self.thread = threading.Thread(target=self.run, daemon=True)
        self.thread.start()

    def freeze(self):
        self.frozen.set()

    def run(self):
        selector = selectors.DefaultSelector()
        selector.register(self.listener, selectors.EVENT_READ)
        pairs = []
        while not self.stopped.is_set():
            if self.frozen.is_set():
                time.sleep(0.02)
                continue
            for key, _ in selector.select(0.02):
                if key.fileobj is self.listener:
                    client, _ = self.listener.accept()
                    server = socket.create_connection(self.upstream)
                    pairs += [client, server]
                    selector.register(client, selectors.EVENT_READ, server)
                    selector.register(server, selectors.EVENT_READ, client)
                    continue
                if key.fileobj.fileno() < 0:
                    continue  # its pair closed it earlier in this round
                try:
                    data = key.fileobj.recv(65536)
                    if data:
                        key.data.sendall(data)
                        continue
                except OSError:
                    pass
                for end in (key.fileobj, key.data):
                    selector.unregister(end)
                    end.close()
        for end in [self.listener, *pairs]:
            end.close()

    def stop(self):
        self.stopped.set()
        self.thread.join(5)


def postgres_or_stop(host: str, port: int) -> None:
    """The relay tests need a PostgreSQL; without one they stop (tests/required.py)."""
    try:
        socket.create_connection((host, port), timeout=2).close()
    except OSError:
        unavailable(f"no PostgreSQL at {host}:{port} for the relay tests (.ci/run starts it)")


@contextmanager
def relayed_postgres():
    parsed = dj_database_url.parse(postgres_url())
    postgres_or_stop(parsed["HOST"] or "127.0.0.1", int(parsed["PORT"] or 5432))
    relay = Relay((parsed["HOST"] or "127.0.0.1", int(parsed["PORT"] or 5432)))
    connection = a_connection(postgres_url(relay.port))
    try:
        yield relay, connection
    finally:
        relay.stop()
        connection.close()


def closed_port() -> int:
    with socket.create_server(("127.0.0.1", 0)) as held:
        return held.getsockname()[1]  # free once closed: nothing listens there


def readyz(client):
    started = time.monotonic()
    response = client.get("/readyz")
    return response, time.monotonic() - started


def test_ready_names_each_check_and_writes_nothing(client, db, django_assert_num_queries):
    with django_assert_num_queries(1):  # the SELECT 1
        response = client.get("/readyz")
    assert response.status_code == 200
    assert response.json() == {"database": "ok"}
    assert response["Cache-Control"] == "no-store"
    assert response["Content-Type"] == "application/json"
    assert not response.cookies
    assert not AccessMiss.objects.exists()
    for _ in range(5):  # never counted: no budget is spent by a balancer polling it
        assert client.get("/readyz").status_code == 200
    assert client.post("/readyz").status_code in (403, 405)
    assert client.generic("PUT", "/readyz").status_code == 405
    assert client.head("/readyz").status_code == 200


def test_ready_with_the_shared_cache_checks_it_too(client, db, shared_cache):
    response = client.get("/readyz")
    assert response.status_code == 200
    assert response.json() == {"database": "ok", "cache": "ok"}


def test_ready_checks_the_budgets_redis_with_or_without_the_shared_cache(client, db, shared_budgets):
    assert client.get("/readyz").json() == {"database": "ok", "cache budgets": "ok"}


def test_a_database_whose_connections_fail_is_not_ready_and_the_process_still_lives(client, db, monkeypatch, caplog):
    """The suite's own connection, its cursor failing as a lost database's does (a simulation:
    SQLite has no server to stop; the tests below stop a real PostgreSQL). The reason is logged
    once, by scoring.ready: not again as a request's error, mailed to ADMINS at every check."""
    import logging

    monkeypatch.setattr(logging.getLogger("django.request"), "propagate", True)  # for caplog to see it

    def lost(*args, **kwargs):
        raise OperationalError("connection to server lost")

    with monkeypatch.context() as patched:
        patched.setattr(connections["default"], "cursor", lost)
        response = client.get("/readyz")
    assert response.status_code == 503
    assert response.json() == {"database": "failed"}
    assert "lost" not in response.content.decode()  # the reason is in the log, not the answer
    (record,) = caplog.records
    assert (record.name, record.levelname) == ("scoring.ready", "WARNING")
    assert re.fullmatch(
        r"readiness: database failed after 0\.\d\d s: OperationalError: connection to server lost", record.getMessage()
    )
    assert response["Cache-Control"] == "no-store"
    assert client.get("/healthz").status_code == 200


def test_a_database_address_nothing_listens_on_is_not_ready_at_once(client, db, monkeypatch, django_db_blocker):
    probe = a_connection(postgres_url(closed_port()))
    monkeypatch.setattr(ready, "connections", {"default": probe})
    response, took = readyz(client)
    assert response.status_code == 503
    assert response.json() == {"database": "failed"}
    assert took < 1
    assert client.get("/healthz").status_code == 200


@pytest.mark.services
def test_a_postgresql_that_stops_answering_is_not_ready_within_the_deadline(client, db, monkeypatch):
    with relayed_postgres() as (relay, probe):
        monkeypatch.setattr(ready, "connections", {"default": probe})
        response, took = readyz(client)
        assert response.status_code == 200, response.content
        assert probe.connection is not None  # kept open, as a worker keeps its connection
        relay.freeze()
        response, took = readyz(client)
        assert response.status_code == 503
        assert response.json() == {"database": "failed"}
        assert ready.SECONDS <= took < ready.SECONDS + 0.5
        assert client.get("/healthz").status_code == 200


@pytest.mark.services
def test_a_postgresql_that_stops_answering_before_the_connection_is_made_fails_at_its_connect_timeout(
    client, db, monkeypatch
):
    with relayed_postgres() as (relay, probe):
        monkeypatch.setattr(ready, "connections", {"default": probe})
        relay.freeze()
        response, took = readyz(client)
        assert response.status_code == 503
        assert 2 <= took < 2.5  # connect_timeout: libpq's least, 2 s


@pytest.fixture
def stoppable_redis(settings):
    """A private redis-server of this test's own (SIGSTOP would stall the session's for the
    other tests), as the shared cache, with the settings' socket timeouts."""
    from django.core.cache import caches

    server, url, folder = redis_server.start()
    settings.CACHES = {
        "default": {"BACKEND": "yiwu_site.redis_cache.RedisCache", "LOCATION": url, "OPTIONS": REDIS_OPTIONS}
    }
    settings.SHARED_CACHE = True
    try:
        yield server
    finally:
        server.send_signal(signal.SIGCONT)
        caches.close_all()
        redis_server.stop(server, folder)


@pytest.mark.services
def test_a_redis_that_hangs_is_not_ready_within_its_socket_timeout_and_ready_again_after(client, db, stoppable_redis):
    assert client.get("/readyz").status_code == 200
    stoppable_redis.send_signal(signal.SIGSTOP)
    try:
        response, took = readyz(client)
        assert response.status_code == 503
        assert response.json() == {"database": "ok", "cache": "failed"}
        assert 1 <= took < 1.5
        assert client.get("/healthz").status_code == 200
    finally:
        stoppable_redis.send_signal(signal.SIGCONT)
    response, took = readyz(client)
    assert response.status_code == 200
    assert took < 0.5


ASK_OVER_HTTP = """
from django.test import Client
for path in ("/healthz", "/readyz", "/"):
    response = Client(raise_request_exception=False).get(path, HTTP_HOST="mj.example.com")
    print(path, response.status_code, response.get("Location"), response.content.decode()[:40])
"""


def test_under_production_settings_a_balancer_asks_over_plain_http_and_gets_the_answer(tmp_path):
    """With the redirect to HTTPS on (the default), as the balancer asks each app server at its
    own address: every other address is redirected."""
    from tests.helpers import PRODUCTION, manage

    result = manage("shell", "-c", ASK_OVER_HTTP, env={**PRODUCTION, "DATABASE_URL": f"sqlite:///{tmp_path}/db"})
    assert result.stdout.splitlines()[-3:] == [
        "/healthz 200 None ok",
        '/readyz 200 None {"database": "ok"}',
        "/ 301 https://mj.example.com/ ",
    ], result.stderr

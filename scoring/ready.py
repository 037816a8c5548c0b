"""Readiness (``/readyz``, docs/deploy.md "Readiness"): can this app server answer pages now?

Each check is bounded: Redis by the caches' socket timeouts, PostgreSQL by a deadline that shuts
the socket (``_deadline``), since a silent server on an open connection ends no timeout of its own.
"""

import logging
import os
import socket
import threading
import time
from contextlib import contextmanager

from django.conf import settings
from django.core.cache import caches
from django.core.cache.backends.redis import RedisCache
from django.db import connections

log = logging.getLogger(__name__)

SECONDS = 1.0  # the database check's deadline; the caches' own socket timeouts bound theirs
PROBE = "readyz"  # the key each check sets (under the cache's own prefix and version)


class NoAnswer(Exception):
    pass


def probes() -> dict[str, str]:
    results = {"database": _run("database", lambda: database(connections["default"]))}
    for alias in settings.CACHES:  # the shared cache, and the budgets' Redis
        if isinstance(store := caches[alias], RedisCache):
            name = "cache" if alias == "default" else f"cache {alias}"
            results[name] = _run(name, lambda store=store: store.set(PROBE, 1, 10))
    return results


def _run(name: str, probe) -> str:
    started = time.monotonic()
    try:
        probe()
    except Exception as error:
        took = time.monotonic() - started
        log.warning("readiness: %s failed after %.2f s: %s: %s", name, took, type(error).__name__, error)
        return "failed"
    return "ok"


def database(connection) -> None:
    """``SELECT 1`` on ``connection`` (a Django connection), within ``SECONDS`` once connected."""
    with _deadline(connection, SECONDS) as cut:
        # Django's own health check is one more round trip, and reconnects after a failure.
        connection.health_check_done = True
        try:
            with connection.cursor() as cursor:
                cursor.execute("SELECT 1")
                cursor.fetchone()
        except Exception as error:
            if cut.is_set():
                raise NoAnswer(f"no answer within {SECONDS:g} s") from error
            raise


@contextmanager
def _deadline(connection, seconds: float):
    """Past ``seconds``, shut ``connection``'s socket so a query waiting on it fails at once; yields an Event set then."""
    cut, done, lock = threading.Event(), threading.Event(), threading.Lock()
    if connection.vendor != "postgresql":  # SQLite: a local file, nothing to wait for over a network
        yield cut
        return

    def cutter():
        if done.wait(seconds):
            return
        while True:
            with lock:
                if done.is_set():
                    return
                raw = connection.connection  # None while a connection is still being made
                if raw is not None and not raw.closed:
                    try:
                        with socket.socket(fileno=os.dup(raw.fileno())) as same:
                            same.shutdown(socket.SHUT_RDWR)
                    except OSError:
                        pass
                    cut.set()
                    return
            if done.wait(0.05):
                return

    thread = threading.Thread(target=cutter, name="readyz-deadline", daemon=True)
    thread.start()
    try:
        yield cut
    finally:
        with lock:
            done.set()

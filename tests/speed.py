"""How hard the property tests try: quick by default, the full counts under ``HYPOTHESIS_PROFILE=ci``.

``tests/conftest.py`` loads the profile. A test that names its own count writes
``@settings(max_examples=examples(300))``: 300 in CI, an eighth of it (at least 10) elsewhere.
"""

import os

from hypothesis import HealthCheck, settings

PROFILE = os.environ.get("HYPOTHESIS_PROFILE", "dev")
FULL = PROFILE == "ci"

# Generation speed is no property of the app: a loaded machine must not fail a test for it.
SLOW_IS_FINE = [HealthCheck.too_slow]
settings.register_profile(
    "ci", deadline=None, print_blob=True, suppress_health_check=SLOW_IS_FINE
)  # counts as each test names them
settings.register_profile("dev", max_examples=30, deadline=None, suppress_health_check=SLOW_IS_FINE)


def examples(n: int) -> int:
    """``n`` under the ci profile; otherwise a fraction of it, never fewer than 10 (nor more than n)."""
    return n if FULL else min(n, max(10, n // 8))


def load() -> None:
    settings.load_profile(PROFILE)


def kind(item) -> int:
    """pytest-django's order of a test: 0 uses the database, 1 transactional (the browser tests'
    live server, the concurrency tests), 2 no database."""
    marker = item.get_closest_marker("django_db")
    fixtures = getattr(item, "fixturenames", ())
    if (marker and marker.kwargs.get("transaction")) or {"live_server", "transactional_db"} & set(fixtures):
        return 1
    return 0 if marker or "db" in fixtures else 2


def long(item) -> bool:
    """A test that runs for tens of seconds with no database (``@pytest.mark.long``)."""
    return kind(item) == 2 and item.get_closest_marker("long") is not None


def share_out(items: list, workers: int) -> list:
    """The collection laid out for ``--dist worksteal``, which hands each of ``workers`` an equal
    run of it: every run starts with its share of the long tests (dealt in turn: started last, one
    would end the run alone), then gets its share of the database tests, then of the
    transactional tests (dealt in turn, so the long browser evenings land on different workers),
    then is filled up with tests that need no database. Each worker still keeps pytest-django's
    order (database, transactional, none) for the tests that touch a database, and what a worker
    steals from another's tail needs no database. Left as it was when the counts do not allow it."""
    first, groups = [], {0: [], 1: [], 2: []}
    for item in items:
        (first if long(item) else groups[kind(item)]).append(item)
    size, db, plain = len(items) // workers, groups[0], groups[2]
    runs = []
    for w in range(workers):
        own = first[w::workers] + db[w * len(db) // workers : (w + 1) * len(db) // workers] + groups[1][w::workers]
        if len(own) > size and w < workers - 1:
            return items
        take = size - len(own) if w < workers - 1 else len(plain)
        runs += own + plain[:take]
        plain = plain[take:]
    return runs

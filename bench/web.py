"""Request cost, in process and over HTTP against a local gunicorn, side by side with /healthz.

Run: make bench-web (``[HANDS] --tiny``). Goals: the game page ≤ 3× and a poll ≤ 1.5× a minimal view,
a choice screen ≤ 5 ms. Each row gives the ratio to /healthz and the server's CPU per request,
which does not grow when other processes share the cores.
"""

import argparse
import http.client
import os
import statistics
import sys
import time
from functools import partial
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.common import (  # noqa: E402
    PRODUCTION_ENV,
    TINY_HELP,
    collect_static,
    free_port,
    fresh_game,
    say_tiny,
    sqlite_url,
    start_gunicorn,
)

# Past a table's budget of writes per minute, every confirm would measure the 429 page.
os.environ.update(PRODUCTION_ENV, DJANGO_ALLOWED_HOSTS="testserver", DJANGO_LIMIT_HANDS_PER_MINUTE="1000000")
if not os.environ.get("DATABASE_URL"):
    os.environ["DATABASE_URL"] = sqlite_url("yiwu-bench-web.sqlite3")

import django  # noqa: E402

django.setup()

from django.core.management import call_command  # noqa: E402
from django.db import connection  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402

from scoring.models import Game  # noqa: E402

REPEATS = 300  # requests a row, POSTs POSTS (--tiny: 2 and 2, no warm-up)
POSTS = 100
WARM_UP = 10


def measure(fn, repeats: int | None = None, server: int | None = None) -> tuple[float, float, float, int, int]:
    """(median ms, p95 ms, server CPU ms per request, queries in the last call, bytes in the last response)."""
    repeats = repeats or REPEATS
    for _ in range(WARM_UP):
        fn()
    times = []
    cpu = cpu_seconds(server)
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        times.append((time.perf_counter() - start) * 1000)
    cpu = (cpu_seconds(server) - cpu) * 1000 / repeats
    with CaptureQueriesContext(connection) as queries:
        response = fn()  # counts only in process; over HTTP the server runs the queries
    return statistics.median(times), statistics.quantiles(times, n=20)[18], cpu, len(queries), len(response.content)


def cpu_seconds(pid: int | None) -> float:
    """User + system CPU seconds of process ``pid`` (Linux /proc), or of this process."""
    if pid is None:
        return time.process_time()
    fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")  # utime, stime


def worker_of(master: int) -> int:
    """The pid of gunicorn's one worker (the child of ``master``)."""
    for _ in range(50):
        for stat in Path("/proc").glob("[0-9]*/stat"):
            try:
                fields = stat.read_text().rpartition(")")[2].split()
            except OSError:
                continue
            if int(fields[1]) == master:  # its parent
                return int(stat.parent.name)
        time.sleep(0.1)
    raise RuntimeError("no gunicorn worker")


class HttpClient:
    """Just enough of the test client's interface over real HTTP, keeping cookies."""

    def __init__(self, port: int):
        self.port = port
        self.cookies: dict[str, str] = {}

    def request(self, method: str, path: str, data: dict | None = None, headers: dict | None = None):
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=10)
        cookies = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        headers = {"Host": "testserver", "Cookie": cookies, **(headers or {})}
        body = None
        if data is not None:
            from urllib.parse import urlencode

            data = {**data, "csrfmiddlewaretoken": self.cookies.get("csrftoken", "")}
            body = urlencode(data)
            headers.update({"Content-Type": "application/x-www-form-urlencoded", "Referer": "http://testserver/"})
        conn.request(method, path, body=body, headers=headers)
        response = conn.getresponse()
        response.content = response.read()
        for header, value in response.getheaders():
            if header.lower() == "set-cookie":
                name, _, rest = value.partition("=")
                self.cookies[name] = rest.split(";")[0]
        conn.close()
        return response

    def get(self, path: str, headers: dict | None = None):
        return self.request("GET", path, headers=headers)

    def post(self, path: str, data: dict, headers: dict | None = None):
        return self.request("POST", path, data, headers)


def main() -> None:
    global REPEATS, POSTS, WARM_UP
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("hands", type=int, nargs="?", default=500, help="hands in the seeded game")
    parser.add_argument("--tiny", action="store_true", help=TINY_HELP)
    args = parser.parse_args()
    say_tiny(args.tiny)
    hands = 4 if args.tiny else args.hands
    if args.tiny:
        REPEATS, POSTS, WARM_UP = 2, 2, 0
    call_command("migrate", verbosity=0)
    collect_static()
    game = fresh_game(hands)
    run("in process (test client)", game, Client())
    port = free_port()  # another benchmark may be serving on the machine
    server = start_gunicorn(port, workers=1)
    try:
        run("over HTTP (local gunicorn, 1 worker)", game, HttpClient(port), worker_of(server.pid))
    finally:
        server.terminate()
        server.wait()
    shared_cache_polls(game)


def run(label: str, game: Game, client, server: int | None = None) -> None:
    hands = game.hands.count()
    url = f"/g/{game.edit_token}/"
    client.get(url)  # this phone's cookies, as at the table
    version = Game.objects.get(pk=game.pk).version
    posted = [0]

    def record():
        posted[0] += 1
        game.refresh_from_db(fields=["state", "version"])
        data = {
            "outcome": "draw",
            "confirm": "1",
            "version": str(game.version),  # a confirm without it is refused (the preview again)
            "next_seq": str(game.state["last_seq"] + 1),
            "form_token": f"bench-{posted[0]}",
        }
        return client.post(url + "record", data)

    views = iter(range(10**9))
    htmx = {"HX-Request": "true"}
    boosted = {"HX-Request": "true", "HX-Boosted": "true"}
    pinghu = {"outcome": "win", "winner": "1", "win_type": "pinghu", "discarder": "0"}
    settle = url + "settle?rate=100&fee_yuan=&fee_mode=equal&fee_payee=0"
    rows = [
        ("hello (floor: /healthz)", lambda: client.get("/healthz")),
        ("game page", lambda: client.get(url)),
        # Its first view after a write renders it (kept pages are per address: ?n= makes each new).
        ("game page, first view", lambda: client.get(f"{url}?n={next(views)}")),
        ("poll, nothing new", lambda: client.get(f"{url}poll?v={version}")),
        # A step of the record flow: a choice screen (who won → how), as htmx's preload fetches it.
        ("entry step GET (win type)", lambda: client.get(f"{url}record?winner=1&v={version}", headers=boosted)),
        # Every question of the record flow at once, fetched by static/js/steps.js after the game page.
        ("steps bundle", lambda: client.get(url + "steps")),
        ("steps bundle, first view", lambda: client.get(f"{url}steps?n={next(views)}")),
        ("hand entry preview (GET)", lambda: client.get(url + "record?winner=1&win_type=pinghu&discarder=0")),
        # A change in 更多 re-posts the form for its preview: the whole page, or htmx's partial.
        ("entry preview POST, page", lambda: client.post(url + "record", pinghu)),
        ("entry preview POST, htmx", lambda: client.post(url + "record", pinghu, headers=htmx)),
        ("settle preview, page", lambda: client.get(settle)),
        ("settle preview, htmx", lambda: client.get(settle, headers=htmx)),
        ("hand entry POST (confirm)", record),
    ]
    results = [(name, *measure(fn, REPEATS if "POST" not in name else POSTS, server)) for name, fn in rows]
    floor = results[0][1]
    print(f"\n{label}: {hands}-hand game, {connection.vendor}, {REPEATS} requests each (POST: {POSTS})")
    print(f"{'endpoint':28} {'median ms':>10} {'p95 ms':>8} {'× floor':>8} {'CPU ms':>7} {'queries':>8} {'bytes':>8}")
    for name, median, p95, cpu, queries, size in results:
        count = f"{queries:8d}" if isinstance(client, Client) else f"{'-':>8}"
        print(f"{name:28} {median:10.3f} {p95:8.3f} {median / floor:8.2f} {cpu:7.2f} {count} {size:8d}")


def shared_cache_polls(game: Game) -> None:
    """The quiet poll as several app servers answer it (REDIS_URL, scoring/live.py), beside /healthz
    and an app that does nothing (bench/nothing_wsgi.py)."""
    from tests import redis_server

    version = Game.objects.get(pk=game.pk).version
    redis = redis_server.start(port=free_port())
    servers = {}
    try:
        for app, env in (("bench.nothing_wsgi", {}), ("yiwu_site.wsgi", {"REDIS_URL": redis[1]})):
            port = free_port()
            os.environ.update(env)
            try:
                servers[app] = (start_gunicorn(port, workers=1, app=app), port)
            finally:
                for name in env:
                    del os.environ[name]
        rows = [
            ("a WSGI app doing nothing", "bench.nothing_wsgi", "/healthz"),
            ("hello (/healthz)", "yiwu_site.wsgi", "/healthz"),
            ("poll, nothing new", "yiwu_site.wsgi", f"/g/{game.edit_token}/poll?v={version}"),
        ]
        results = []
        for name, app, path in rows:
            server, port = servers[app]
            client = HttpClient(port)
            results.append((name, *measure(partial(client.get, path), server=worker_of(server.pid))))
    finally:
        for server, _port in servers.values():
            server.terminate()
            server.wait()
        redis_server.stop(redis[0], redis[2])
    floor = results[0][1]
    floor_cpu = results[0][3]
    print(f"\nover HTTP, shared cache (REDIS_URL, a private redis-server), 1 worker, {REPEATS} requests each")
    print(f"{'endpoint':28} {'median ms':>10} {'p95 ms':>8} {'× floor':>8} {'CPU ms':>7} {'CPU × floor':>11}")
    for name, median, p95, cpu, _queries, _size in results:
        ratio = cpu / floor_cpu if floor_cpu else float("nan")  # a few requests may take less than a clock tick
        print(f"{name:28} {median:10.3f} {p95:8.3f} {median / floor:8.2f} {cpu:7.2f} {ratio:11.2f}")


if __name__ == "__main__":
    main()

"""Request cost, in process, side by side (issue: game page ≤ 3× and polling ≤ 1.5× a minimal view).

Run: make bench-web   (or: .venv/bin/python bench/web.py [HANDS])
Production settings (DEBUG off, manifest static files), a throwaway database (SQLite in /tmp unless
DATABASE_URL is set), a game seeded with 500 hands. Prints the median and p95 of many requests,
twice: in process (Django's test client: the app's own cost) and over HTTP against a local
gunicorn (what a phone's request costs the server, connection included).
"""

import http.client
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.common import PRODUCTION_ENV, start_gunicorn  # noqa: E402

os.environ.update(PRODUCTION_ENV, DJANGO_ALLOWED_HOSTS="testserver")
os.environ.setdefault("DATABASE_URL", f"sqlite:///{tempfile.gettempdir()}/yiwu-bench-web.sqlite3")

import django  # noqa: E402

django.setup()

from django.core.management import call_command  # noqa: E402
from django.db import connection  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402

from scoring.models import Game  # noqa: E402
from tests.factories import seeded_game  # noqa: E402

REPEATS = 300


def measure(fn, repeats: int = REPEATS) -> tuple[float, float, int, int]:
    """(median ms, p95 ms, queries in the last call, bytes in the last response)."""
    for _ in range(10):
        fn()  # warm up
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        times.append((time.perf_counter() - start) * 1000)
    with CaptureQueriesContext(connection) as queries:
        response = fn()  # counts only in process; over HTTP the server runs the queries
    return statistics.median(times), statistics.quantiles(times, n=20)[18], len(queries), len(response.content)


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
    hands = int(sys.argv[1]) if len(sys.argv) > 1 else 500
    call_command("migrate", verbosity=0)
    call_command("collectstatic", verbosity=0, interactive=False)
    Game.objects.all().delete()
    game = seeded_game(hands)
    run("in process (test client)", game, Client())
    server = start_gunicorn(8765, workers=1)
    try:
        run("over HTTP (local gunicorn, 1 worker)", game, HttpClient(8765))
    finally:
        server.terminate()
        server.wait()


def run(label: str, game: Game, client) -> None:
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

    htmx = {"HX-Request": "true"}
    boosted = {"HX-Request": "true", "HX-Boosted": "true"}
    pinghu = {"outcome": "win", "winner": "1", "win_type": "pinghu", "discarder": "0"}
    settle = url + "settle?rate=100&fee_yuan=&fee_mode=equal&fee_payee=0"
    rows = [
        ("hello (floor: /healthz)", lambda: client.get("/healthz")),
        ("game page", lambda: client.get(url)),
        ("poll, nothing new", lambda: client.get(f"{url}poll?v={version}")),
        # A step of the record flow: a choice screen (who won → how), as htmx's preload fetches it.
        ("entry step GET (win type)", lambda: client.get(f"{url}record?winner=1&v={version}", headers=boosted)),
        ("hand entry preview (GET)", lambda: client.get(url + "record?winner=1&win_type=pinghu&discarder=0")),
        # A change in 更多 re-posts the form for its preview: the whole page, or htmx's partial.
        ("entry preview POST, page", lambda: client.post(url + "record", pinghu)),
        ("entry preview POST, htmx", lambda: client.post(url + "record", pinghu, headers=htmx)),
        ("settle preview, page", lambda: client.get(settle)),
        ("settle preview, htmx", lambda: client.get(settle, headers=htmx)),
        ("hand entry POST (confirm)", record),
    ]
    results = [(name, *measure(fn, REPEATS if "POST" not in name else 100)) for name, fn in rows]
    floor = results[0][1]
    print(f"\n{label}: {hands}-hand game, {connection.vendor}, {REPEATS} requests each (POST: 100)")
    print(f"{'endpoint':28} {'median ms':>10} {'p95 ms':>8} {'× floor':>8} {'queries':>8} {'bytes':>8}")
    for name, median, p95, queries, size in results:
        count = f"{queries:8d}" if isinstance(client, Client) else f"{'-':>8}"
        print(f"{name:28} {median:10.3f} {p95:8.3f} {median / floor:8.2f} {count} {size:8d}")


if __name__ == "__main__":
    main()

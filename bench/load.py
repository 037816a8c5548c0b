"""Load: many tables of phones against gunicorn on 127.0.0.1 only, bounded in count and time.

Run: make bench-load   (or: .venv/bin/python bench/load.py [--db postgres|sqlite] [--tables 50]
     [--seconds 60] [--workers 2])
Each table has 4 phones polling every 3 s and records a hand every 20 s (preview, then confirm,
as the entry form does). Prints requests/s, p50/p95/p99 latency per kind and errors.
"""

import argparse
import http.client
import os
import random
import re
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.common import PRODUCTION_ENV, start_gunicorn  # noqa: E402

HOST, PORT = "127.0.0.1", 8766
DATABASES = {
    "postgres": "postgres://postgres@127.0.0.1:5432/yiwu_bench",
    "sqlite": f"sqlite:///{tempfile.gettempdir()}/yiwu-bench-load.sqlite3",
}
ENV = {**PRODUCTION_ENV, "DJANGO_ALLOWED_HOSTS": "127.0.0.1"}
POLL_EVERY, RECORD_EVERY = 3.0, 20.0


class Results:
    def __init__(self):
        self.lock = threading.Lock()
        self.latency: dict[str, list[float]] = {}
        self.errors: list[str] = []

    def add(self, kind: str, ms: float, ok: bool, detail: str = "") -> None:
        with self.lock:
            self.latency.setdefault(kind, []).append(ms)
            if not ok:
                self.errors.append(f"{kind}: {detail}")


def request(method: str, path: str, cookies: dict, body: dict | None = None):
    headers = {"Host": HOST, "Cookie": "; ".join(f"{k}={v}" for k, v in cookies.items())}
    data = None
    if body is not None:
        data = urlencode({**body, "csrfmiddlewaretoken": cookies.get("csrftoken", "")})
        headers.update({"Content-Type": "application/x-www-form-urlencoded", "Referer": f"http://{HOST}:{PORT}/"})
    conn = http.client.HTTPConnection(HOST, PORT, timeout=10)
    try:
        conn.request(method, path, body=data, headers=headers)
        response = conn.getresponse()
        text = response.read().decode("utf-8", "replace")
        for name, value in response.getheaders():
            if name.lower() == "set-cookie":
                key, _, rest = value.partition("=")
                cookies[key] = rest.split(";")[0]
        return response.status, text
    finally:
        conn.close()


def timed(results: Results, kind: str, ok_status: tuple[int, ...], method: str, path: str, cookies: dict, body=None):
    start = time.perf_counter()
    try:
        status, text = request(method, path, cookies, body)
    except OSError as error:
        results.add(kind, (time.perf_counter() - start) * 1000, False, repr(error))
        return None, ""
    results.add(kind, (time.perf_counter() - start) * 1000, status in ok_status, f"HTTP {status}")
    return status, text


def phone(token: str, stop: float, results: Results) -> None:
    cookies: dict = {}
    version = 0
    time.sleep(random.uniform(0, POLL_EVERY))
    while time.monotonic() < stop:
        tick = time.monotonic()
        status, text = timed(results, "poll", (200, 204), "GET", f"/g/{token}/poll?v={version}", cookies)
        if status == 200 and (match := re.search(r"poll\?v=(\d+)", text)):
            version = int(match.group(1))
        time.sleep(max(0.0, POLL_EVERY - (time.monotonic() - tick)))


def recorder(token: str, stop: float, results: Results) -> None:
    cookies: dict = {}
    time.sleep(random.uniform(0, RECORD_EVERY))  # tables start at different moments
    timed(results, "game page", (200,), "GET", f"/g/{token}/", cookies)
    while time.monotonic() < stop:
        tick = time.monotonic()
        winner = random.randrange(4)
        query = f"winner={winner}&win_type=zimo"
        status, text = timed(results, "entry preview", (200,), "GET", f"/g/{token}/record?{query}", cookies)
        fields = dict(re.findall(r'name="(next_seq|form_token)" value="([^"]+)"', text))
        if status == 200 and fields:
            body = {"outcome": "win", "winner": winner, "win_type": "zimo", "confirm": "1", **fields}
            timed(results, "entry confirm", (302,), "POST", f"/g/{token}/record", cookies, body)
        time.sleep(max(0.0, RECORD_EVERY - (time.monotonic() - tick)))


def prepare(db_url: str, tables: int) -> list[str]:
    os.environ.update(ENV, DATABASE_URL=db_url)
    if db_url.startswith("postgres"):
        subprocess.run(
            ["psql", "-h", "127.0.0.1", "-U", "postgres", "-d", "test", "-c", "CREATE DATABASE yiwu_bench"],
            capture_output=True,
            check=False,
        )
    import django

    django.setup()
    from django.core.management import call_command

    from scoring.models import Game
    from tests.factories import seeded_game

    call_command("migrate", verbosity=0)
    call_command("collectstatic", verbosity=0, interactive=False)
    Game.objects.all().delete()
    return [seeded_game(20, seed=i).edit_token for i in range(tables)]


def percentile(values: list[float], q: int) -> float:
    return statistics.quantiles(values, n=100)[q - 1] if len(values) > 1 else (values[0] if values else 0.0)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--db", choices=DATABASES, default="postgres")
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    tokens = prepare(DATABASES[args.db], args.tables)
    server = start_gunicorn(PORT, workers=args.workers)
    try:
        results = Results()
        start = time.monotonic()
        stop = start + args.seconds
        threads = [threading.Thread(target=phone, args=(t, stop, results)) for t in tokens for _ in range(4)]
        threads += [threading.Thread(target=recorder, args=(t, stop, results)) for t in tokens]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(args.seconds + 30)
        elapsed = time.monotonic() - start
    finally:
        server.terminate()
        server.wait()
    total = sum(len(v) for v in results.latency.values())
    print(f"{args.db}, gunicorn {args.workers} workers, {args.tables} tables × 4 phones, {args.seconds:.0f} s")
    print(f"{total} requests, {total / elapsed:.1f} req/s, {len(results.errors)} errors")
    print(f"{'kind':16} {'count':>6} {'p50 ms':>8} {'p95 ms':>8} {'p99 ms':>8} {'max ms':>8}")
    for kind, values in sorted(results.latency.items()):
        print(
            f"{kind:16} {len(values):6d} {percentile(values, 50):8.1f} {percentile(values, 95):8.1f} {percentile(values, 99):8.1f} {max(values):8.1f}"
        )
    for error in results.errors[:10]:
        print("error:", error)


if __name__ == "__main__":
    main()

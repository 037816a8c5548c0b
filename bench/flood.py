"""One client adding a new ``?n=`` to every request: the page builds it can force, and /healthz beside it.

A kept page is keyed by what it is rendered from, not the raw query string, so ``?n=1``, ``?n=2``…
must not each store a copy. Run: bench/flood.py [--seconds 20] [--compare PATH] [--tiny];
``--compare`` runs another checkout side by side.
"""

import argparse
import http.client
import os
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.common import PRODUCTION_ENV, TINY_HELP, free_port, say_tiny, sqlite_url, static_files_lock
from tests import redis_server

ROOT = Path(__file__).resolve().parents[1]

# One Django for the three steps: a process's start costs more than a tiny run's flood.
COLLECT = (
    "from django.core.management import call_command; call_command('collectstatic', interactive=False, verbosity=0)"
)
SEED = (
    "from django.core.management import call_command; call_command('migrate', verbosity=0); "
    "from tests.factories import seeded_game; g = seeded_game(%d); g.refresh_from_db(); "
    "print(g.edit_token, g.view_token)"
)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--compare", type=Path, help="another checkout to measure beside this one")
    parser.add_argument("--tiny", action="store_true", help=TINY_HELP)
    args = parser.parse_args()
    say_tiny(args.tiny)
    seconds, workers, hands = (0.25, 1, 4) if args.tiny else (args.seconds, 2, 30)
    trees = [("this checkout", ROOT)] + ([("--compare", args.compare.resolve())] if args.compare else [])
    results = [(name, measure(tree, seconds, workers, hands)) for name, tree in trees]
    print(
        f"one client, a new ?n= on every request, {seconds:g} s per address, gunicorn {workers} worker{'s' * (workers > 1)}:"
    )
    header = f"{'':34s}" + "".join(f"{name:>18s}" for name, _r in results)
    print(header)
    for what in results[0][1]:
        print(f"{what:34s}" + "".join(f"{r[what]:>18s}" for _name, r in results))


def measure(tree: Path, seconds: float, workers: int, hands: int) -> dict[str, str]:
    server, url, folder = redis_server.start()
    database = Path(tempfile.mkdtemp(prefix="yiwu-flood-")) / "db.sqlite3"
    env = {**os.environ, **PRODUCTION_ENV, "DJANGO_ALLOWED_HOSTS": "127.0.0.1", "REDIS_URL": url}
    # Another checkout's migrations may not be this one's: only this one starts from the template.
    env["DATABASE_URL"] = sqlite_url(database) if tree == ROOT else f"sqlite:///{database}"
    python = str(ROOT / ".venv/bin/python")
    try:
        collected = tree == ROOT and os.environ.get("BENCH_STATIC_COLLECTED")  # as collect_static (bench/common.py)
        seed = SEED % hands if collected else f"{COLLECT}; {SEED % hands}"
        with static_files_lock(tree):
            seeded = subprocess.run(
                [python, "manage.py", "shell", "-c", seed],
                cwd=tree,
                env=env,
                check=True,
                capture_output=True,
                text=True,
            )
        edit, view = seeded.stdout.split()[-2:]
        port = free_port()
        gunicorn = [str(ROOT / ".venv/bin/gunicorn"), "yiwu_site.wsgi", "--bind", f"127.0.0.1:{port}"]
        gunicorn += ["--workers", str(workers)]
        app = subprocess.Popen(gunicorn, cwd=tree, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            wait_for(port)
            out = {}
            for label, path in (("steps (edit link)", f"/g/{edit}/steps"), ("game page (view link)", f"/g/{view}/")):
                out.update(flood(port, path, seconds, label, url))
            return out
        finally:
            app.terminate()
            app.wait(10)
    finally:
        redis_server.stop(server, folder)


def wait_for(port: int) -> None:
    for _ in range(100):
        try:
            http.client.HTTPConnection("127.0.0.1", port, timeout=1).request("GET", "/healthz")
            return
        except OSError:
            time.sleep(0.1)
    raise RuntimeError("gunicorn did not start")


def flood(port: int, path: str, seconds: float, label: str, redis_url: str) -> dict[str, str]:
    import redis

    keys = redis.Redis.from_url(redis_url)
    before = keys.dbsize()
    stop = time.perf_counter() + seconds
    answered, health = [0], []

    def client() -> None:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        n = 0
        while time.perf_counter() < stop:
            n += 1
            conn.request("GET", f"{path}?n={n}", headers={"Sec-Fetch-Mode": "cors"})
            response = conn.getresponse()
            response.read()
            answered[0] += response.status == 200

    def probe() -> None:
        while time.perf_counter() < stop:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
            start = time.perf_counter()
            conn.request("GET", "/healthz")
            conn.getresponse().read()
            health.append(time.perf_counter() - start)
            time.sleep(0.05)

    threads = [threading.Thread(target=client), threading.Thread(target=probe)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    stored = keys.dbsize() - before
    health.sort()
    per_minute = 60 / seconds
    return {
        f"{label}: answers/min": f"{answered[0] * per_minute:,.0f}",
        f"{label}: copies stored/min": f"{stored * per_minute:,.0f}",
        f"{label}: /healthz p50 ms": f"{health[len(health) // 2] * 1000:.1f}",
        f"{label}: /healthz p95 ms": f"{health[int(len(health) * 0.95)] * 1000:.1f}",
    }


if __name__ == "__main__":
    main()

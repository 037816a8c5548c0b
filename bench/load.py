"""Load: many tables of phones against gunicorn on 127.0.0.1 only, bounded in count and time.

Run: make bench-load (``--help`` for the options; ``--tiny``: 2 tables on SQLite for 1 s). Each table
is 4 phones polling every 3 s, fetching each new version's step bundle, and a hand every 20 s;
prints requests/s, latencies, queries and CPU per kind. Phones run in several processes, since
one Python's lock between thousands of threads added its wait to the latencies. ``--servers 2``
sends requests round-robin to two servers sharing a Redis. At the end it checks no confirm was
lost or doubled and no server tells a stale phone "nothing new".
"""

import argparse
import http.client
import itertools
import os
import random
import re
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.common import (  # noqa: E402
    PRODUCTION_ENV,
    TINY_HELP,
    collect_static,
    free_port,
    say_tiny,
    sqlite_url,
    start_gunicorn,
)

HOST = "127.0.0.1"
ENV = {**PRODUCTION_ENV, "DJANGO_ALLOWED_HOSTS": "127.0.0.1"}
POLL_EVERY = 3.0


def database_url(db: str, name: str) -> str:
    if db == "postgres":
        return f"postgres://postgres@127.0.0.1:5432/{name}"
    return sqlite_url(f"{name}-load.sqlite3")


class Results:
    def __init__(self):
        self.lock = threading.Lock()
        self.latency: dict[str, list[float]] = {}
        self.queries: dict[str, list[int]] = {}
        self.cpu_ms: dict[str, list[float]] = {}  # the app's CPU per request, as the server measured it
        self.errors: list[str] = []
        self.confirmed: dict[str, int] = {}  # token → confirms answered 302
        self.seen: list[tuple[str, int]] = []  # (token, last version a phone was shown)

    def __getstate__(self) -> dict:  # sent back from a process of phones (--processes): no lock
        return {name: value for name, value in self.__dict__.items() if name != "lock"}

    def __setstate__(self, state: dict) -> None:
        self.__dict__.update(state, lock=threading.Lock())

    def merge(self, other: "Results") -> None:
        for mine, theirs in ((self.latency, other.latency), (self.queries, other.queries), (self.cpu_ms, other.cpu_ms)):
            for kind, values in theirs.items():
                mine.setdefault(kind, []).extend(values)
        self.errors += other.errors
        self.confirmed.update(other.confirmed)  # each table is in one process only
        self.seen += other.seen

    def add(self, kind: str, ms: float, ok: bool, detail: str = "", queries=None, cpu_ms=None) -> None:
        with self.lock:
            self.latency.setdefault(kind, []).append(ms)
            if queries is not None:
                self.queries.setdefault(kind, []).append(queries)
            if cpu_ms is not None:
                self.cpu_ms.setdefault(kind, []).append(cpu_ms)
            if not ok:
                self.errors.append(f"{kind}: {detail}")


class Servers:
    """The app servers' ports, taken in turn (round-robin, one request each)."""

    def __init__(self, ports: list[int]):
        self.ports = ports
        self._next = itertools.cycle(ports)
        self._lock = threading.Lock()

    def next(self) -> int:
        with self._lock:
            return next(self._next)


def request(servers: Servers, method: str, path: str, cookies: dict, body: dict | None = None):
    port = servers.next()
    headers = {"Host": HOST, "Cookie": "; ".join(f"{k}={v}" for k, v in cookies.items())}
    data = None
    if body is not None:
        data = urlencode({**body, "csrfmiddlewaretoken": cookies.get("csrftoken", "")})
        headers.update({"Content-Type": "application/x-www-form-urlencoded", "Referer": f"http://{HOST}:{port}/"})
    conn = http.client.HTTPConnection(HOST, port, timeout=10)
    try:
        conn.request(method, path, body=data, headers=headers)
        response = conn.getresponse()
        text = response.read().decode("utf-8", "replace")
        for name, value in response.getheaders():
            if name.lower() == "set-cookie":
                key, _, rest = value.partition("=")
                cookies[key] = rest.split(";")[0]
        queries, cpu_us = response.getheader("X-Queries"), response.getheader("X-CPU-us")
        return response.status, text, (int(queries) if queries else None, int(cpu_us) / 1000 if cpu_us else None)
    finally:
        conn.close()


def timed(
    results: Results,
    servers: Servers,
    kind: str,
    ok_status: tuple[int, ...],
    method: str,
    path: str,
    cookies: dict,
    body=None,
):
    start = time.perf_counter()
    try:
        status, text, (queries, cpu_ms) = request(servers, method, path, cookies, body)
    except OSError as error:
        results.add(kind, (time.perf_counter() - start) * 1000, False, repr(error))
        return None, ""
    ms = (time.perf_counter() - start) * 1000
    named = f"{kind} {status}" if kind == "poll" else kind  # a quiet poll (204) beside a changed one (200)
    results.add(named, ms, status in ok_status, f"HTTP {status}", queries, cpu_ms)
    return status, text


def phone(token: str, version: int, stop: float, results: Results, servers: Servers, steps: bool) -> None:
    """A phone with the game page open at ``version``: polls every 3 s, fetching each new version's step bundle."""
    cookies: dict = {}
    time.sleep(random.uniform(0, POLL_EVERY))
    while time.monotonic() < stop:
        tick = time.monotonic()
        status, text = timed(results, servers, "poll", (200, 204), "GET", f"/g/{token}/poll?v={version}", cookies)
        if status == 200 and (match := re.search(r"poll\?v=(\d+)", text)):
            version = int(match.group(1))
            if steps:
                timed(results, servers, "steps bundle", (200,), "GET", f"/g/{token}/steps", cookies)
        time.sleep(max(0.0, POLL_EVERY - (time.monotonic() - tick)))
    with results.lock:
        results.seen.append((token, version))


def recorder(token: str, stop: float, results: Results, servers: Servers, record_every: float) -> None:
    cookies: dict = {}
    time.sleep(min(random.uniform(0, record_every), max(0.0, stop - time.monotonic())))  # tables start apart
    if time.monotonic() >= stop:
        return
    timed(results, servers, "game page", (200,), "GET", f"/g/{token}/", cookies)
    while time.monotonic() < stop:
        tick = time.monotonic()
        winner = random.randrange(4)
        query = f"winner={winner}&win_type=zimo"
        status, text = timed(results, servers, "entry preview", (200,), "GET", f"/g/{token}/record?{query}", cookies)
        fields = dict(re.findall(r'name="(next_seq|form_token|version)" value="([^"]+)"', text))
        if status == 200 and fields:
            body = {"outcome": "win", "winner": winner, "win_type": "zimo", "confirm": "1", **fields}
            status, _ = timed(results, servers, "entry confirm", (302,), "POST", f"/g/{token}/record", cookies, body)
            if status == 302:
                with results.lock:
                    results.confirmed[token] = results.confirmed.get(token, 0) + 1
        time.sleep(max(0.0, min(tick + record_every, stop) - time.monotonic()))  # none sleeps past the end


def tables(versions: dict[str, int], stop: float, ports: list[int], steps: bool, record_every: float) -> Results:
    """These tables' phones and recorders, a thread each, until ``stop``: what they measured."""
    results, servers = Results(), Servers(ports)
    threads = [
        threading.Thread(target=phone, args=(t, version, stop, results, servers, steps))
        for t, version in versions.items()
        for _ in range(4)
    ]
    threads += [threading.Thread(target=recorder, args=(t, stop, results, servers, record_every)) for t in versions]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(max(0.0, stop - time.monotonic()) + 30)
    return results


def phones_of(versions: dict[str, int], stop: float, ports: list[int], args) -> Results:
    """Every table's phones, dealt out among ``--processes`` processes."""
    steps = not args.no_steps
    if args.processes == 1:
        return tables(versions, stop, ports, steps, args.hand_every)
    import multiprocessing

    tokens = list(versions)
    shares = [{t: versions[t] for t in tokens[i :: args.processes]} for i in range(args.processes)]
    pool = multiprocessing.get_context("fork").Pool(args.processes)
    try:
        parts = pool.starmap(tables, [(share, stop, ports, steps, args.hand_every) for share in shares])
    finally:
        pool.close()
        pool.join()  # reaped: their CPU counts in this process's children's
    results = Results()
    for part in parts:
        results.merge(part)
    return results


def prepare(db_url: str, tables: int, db_name: str) -> dict[str, int]:
    """Each seeded game's edit token and its version."""
    os.environ.update(ENV, DATABASE_URL=db_url)
    if db_url.startswith("postgres"):
        subprocess.run(
            ["psql", "-h", "127.0.0.1", "-U", "postgres", "-d", "postgres", "-c", f"CREATE DATABASE {db_name}"],
            capture_output=True,
            check=False,
        )
    import django

    django.setup()
    from django.core.management import call_command

    from scoring.models import AccessMiss, Game
    from tests.factories import seeded_game

    call_command("migrate", verbosity=0)
    collect_static()
    Game.objects.all().delete()
    AccessMiss.objects.all().delete()
    games = [seeded_game(20, seed=i) for i in range(tables)]
    return {game.edit_token: Game.objects.get(pk=game.pk).version for game in games}


def warm_up(ports: list[int], tokens: list[str]) -> None:
    """A few of each read on every server before the clock starts, so each worker has warmed up."""
    for port in ports:
        servers = Servers([port])
        for token in tokens[:8]:
            for path in (f"/g/{token}/", f"/g/{token}/poll?v=0", f"/g/{token}/record?winner=0&win_type=zimo"):
                request(servers, "GET", path, {})


def hands_in(tokens: list[str]) -> dict[str, tuple[int, int]]:
    """Each game's hands and version now, read from the database."""
    from django.db.models import Count

    from scoring.models import Game

    rows = (
        Game.objects.filter(edit_token__in=tokens).annotate(n=Count("hands")).values_list("edit_token", "n", "version")
    )
    return {token: (n, version) for token, n, version in rows}


def stale_phones(seen: list[tuple[str, int]], final: dict[str, tuple[int, int]], servers: Servers) -> str:
    """Each phone polls once more after the writes: a 204 to a phone whose version is not its game's is a stale cache."""
    for port in servers.ports:  # the backlog of an overloaded run answered first
        for _ in range(120):
            start = time.perf_counter()
            try:
                request(Servers([port]), "GET", "/healthz", {})
            except OSError:
                continue
            if time.perf_counter() - start < 0.2:
                break
    stale = unanswered = 0
    for token, version in seen:
        try:
            status, _text, _measured = request(servers, "GET", f"/g/{token}/poll?v={version}", {})
        except OSError:
            unanswered += 1
            if unanswered == 10:
                return "not checked (the servers stopped answering)"
            continue
        stale += status == 204 and version != final[token][1]
    return str(stale)


def redis_used_memory(url: str) -> int:
    import redis

    return redis.Redis.from_url(url).info("memory")["used_memory"]


class CpuMonitor(threading.Thread):
    """CPU (user + system, /proc) of groups of processes, read every second; one that ends keeps its last."""

    def __init__(self, groups: dict):
        super().__init__(daemon=True)
        self.groups = groups  # name → match(pid, ppid, cmdline)
        self.first: dict[tuple[str, int], float] = {}
        self.last: dict[tuple[str, int], float] = {}
        self.stopping = threading.Event()
        self.tick = os.sysconf("SC_CLK_TCK")

    def sample(self) -> None:
        for entry in Path("/proc").iterdir():
            if not entry.name.isdigit():
                continue
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
                cmdline = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
            except OSError:
                continue
            pid, seconds = int(entry.name), (int(fields[11]) + int(fields[12])) / self.tick
            for name, match in self.groups.items():
                if match(pid, int(fields[1]), cmdline):
                    self.first.setdefault((name, pid), seconds)
                    self.last[(name, pid)] = seconds

    def run(self) -> None:
        while not self.stopping.wait(1.0):
            self.sample()

    def stop(self) -> dict[str, float]:
        self.stopping.set()
        self.join()
        self.sample()
        used = dict.fromkeys(self.groups, 0.0)
        for (name, pid), seconds in self.last.items():
            used[name] += seconds - self.first[(name, pid)]
        return used


def machine_busy() -> float:
    """Seconds the whole machine spent busy (/proc/stat), the kernel's loopback work included."""
    ticks = [int(field) for field in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    return (sum(ticks) - ticks[3] - ticks[4]) / os.sysconf("SC_CLK_TCK")


def capacity(results: Results, app_cpu_seconds: float, record_every: float) -> str:
    """What one table costs the app servers, at the run's pace and at a real table's (a hand every
    3 min), from the servers' own CPU per request kind (robust to a busy machine)."""
    mean = {kind: statistics.fmean(values) for kind, values in results.cpu_ms.items()}
    needed = ("poll 204", "poll 200", "entry preview", "entry confirm")
    if any(kind not in mean for kind in needed):
        return "capacity: not every kind of request was answered"
    answered = sum(len(values) for values in results.cpu_ms.values())
    per_request = max(0.0, app_cpu_seconds * 1000 - sum(sum(v) for v in results.cpu_ms.values())) / answered
    lines = []
    for every in dict.fromkeys((record_every, 180.0)):
        changed = 4 / every
        app_ms = (
            (4 / POLL_EVERY - changed) * mean["poll 204"]
            + changed * mean["poll 200"]
            + (mean["entry preview"] + mean["entry confirm"]) / every
            + changed * mean.get("steps bundle", 0.0)  # a phone shown a new version asks for its bundle
        )
        said = (
            f"capacity, a hand every {every:.0f} s{' (worked out)' if every != record_every else ''}: a table costs "
            f"{app_ms:.2f} ms of the app's CPU per second: {1000 / app_ms:.0f} tables per core"
        )
        if results.errors:
            lines.append(said + " (the servers' own share not measured: some requests went unanswered)")
            continue
        requests = 4 / POLL_EVERY + 2 / every + (changed if "steps bundle" in mean else 0.0)
        table_ms = app_ms + requests * per_request
        lines.append(
            f"{said} in the app; with gunicorn's and the kernel's {per_request:.2f} ms per request, "
            f"{table_ms:.2f} ms: {1000 / table_ms:.0f} tables per app-server core"
        )
    return "\n".join(lines)


def percentile(values: list[float], q: int) -> float:
    return statistics.quantiles(values, n=100)[q - 1] if len(values) > 1 else (values[0] if values else 0.0)


def main() -> None:
    global POLL_EVERY
    parser = argparse.ArgumentParser()
    parser.add_argument("--db", choices=("postgres", "sqlite"), default="postgres")
    parser.add_argument("--database", default="yiwu_bench", help="the database's name (PostgreSQL) or file stem")
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--workers", type=int, default=2, help="gunicorn workers per server")
    parser.add_argument("--servers", type=int, default=1, help="gunicorn instances, each on its own port")
    parser.add_argument("--redis", action="store_true", help="the shared cache (implied by --servers 2 or more)")
    parser.add_argument(
        "--hand-every", type=float, default=20.0, help="seconds between a table's hands (a real table: 120 to 300)"
    )
    parser.add_argument(
        "--processes",
        type=int,
        default=min(4, os.cpu_count() or 1),
        help="processes the phones run in, each with its share of the tables (default: the cores, at most 4)",
    )
    parser.add_argument(
        "--no-steps",
        action="store_true",
        help="phones skip the step bundle a new version brings (as before it existed)",
    )
    parser.add_argument("--tiny", action="store_true", help=TINY_HELP)
    args = parser.parse_args()
    say_tiny(args.tiny)
    if args.tiny:
        args.db, args.tables, args.seconds, args.hand_every = "sqlite", 2, 1.0, 0.5
        args.servers, args.workers, args.processes, args.redis = 1, 1, 1, True
        POLL_EVERY = 0.25  # quiet polls between the hands too
    shared = args.redis or args.servers > 1
    redis = None
    if shared:
        from tests import redis_server

        redis = redis_server.start(port=free_port())
        os.environ["REDIS_URL"] = redis[1]
    else:
        os.environ.pop("REDIS_URL", None)
        os.environ.pop("CACHE_URL", None)
    ports = [free_port() for _ in range(args.servers)]
    gunicorns = []
    try:
        versions = prepare(database_url(args.db, args.database), args.tables, args.database)
        tokens = list(versions)
        from django.db import connections

        connections.close_all()  # the seeding's connection is no part of the run
        for port in ports:
            gunicorns.append(start_gunicorn(port, workers=args.workers, app="bench.counted_wsgi"))
        warm_up(ports, tokens)
        masters = {g.pid for g in gunicorns}
        redis_pid = redis[0].pid if redis else None
        monitor = CpuMonitor(
            {
                "app servers": lambda pid, ppid, _cmd: pid in masters or ppid in masters,
                "PostgreSQL": lambda _pid, _ppid, cmd: cmd.startswith("postgres:") and f" {args.database} " in cmd,
                "Redis": lambda pid, _ppid, _cmd: pid == redis_pid,
            }
        )
        redis_empty = redis_used_memory(redis[1]) if redis else 0
        monitor.sample()
        monitor.start()
        start = time.monotonic()
        stop = start + args.seconds
        client_cpu, busy = sum(os.times()[:4]), machine_busy()  # this process and the phones' own
        results = phones_of(versions, stop, ports, args)
        elapsed = time.monotonic() - start
        client_cpu, busy = sum(os.times()[:4]) - client_cpu, machine_busy() - busy
        servers = Servers(ports)
        cpu = monitor.stop()
        final = hands_in(tokens)
        stale = stale_phones(results.seen, final, servers)
        redis_memory = redis_used_memory(redis[1]) - redis_empty if redis else 0
    finally:
        for server in gunicorns:
            server.terminate()
            server.wait()
        if redis:
            from tests import redis_server

            redis_server.stop(redis[0], redis[2])

    total = sum(len(v) for v in results.latency.values())
    layout = f"{args.servers} gunicorn × {args.workers} workers" + (", Redis" if shared else ", no shared cache")
    print(
        f"{args.db}, {layout}, {args.tables} tables × 4 phones, a hand every {args.hand_every:g} s, {args.seconds:.0f} s"
    )
    print(f"{total} requests, {total / elapsed:.1f} req/s, {len(results.errors)} errors")
    print(
        f"{'kind':16} {'count':>6} {'p50 ms':>8} {'p95 ms':>8} {'p99 ms':>8} {'max ms':>8} {'queries':>8} {'app CPU ms':>10}"
        f" {'mean':>6}"
    )
    for kind, values in sorted(results.latency.items()):
        queries, cpu_ms = results.queries.get(kind), results.cpu_ms.get(kind)
        mean = f"{statistics.fmean(queries):8.2f}" if queries else f"{'?':>8}"
        cpu_text = f"{statistics.median(cpu_ms):10.2f} {statistics.fmean(cpu_ms):6.2f}" if cpu_ms else f"{'?':>10}"
        print(
            f"{kind:16} {len(values):6d} {percentile(values, 50):8.1f} {percentile(values, 95):8.1f}"
            f" {percentile(values, 99):8.1f} {max(values):8.1f} {mean} {cpu_text}"
        )
    polls = [q for kind, qs in results.queries.items() if kind.startswith("poll") for q in qs]
    confirms = results.queries.get("entry confirm", [])
    all_queries = sum(sum(qs) for qs in results.queries.values())
    if polls and confirms:
        print(
            f"queries per poll {statistics.fmean(polls):.2f}, per confirm {statistics.fmean(confirms):.2f}; "
            f"database {all_queries / elapsed:.0f} queries/s, {all_queries / elapsed / args.tables * 1000:.0f} per 1,000 tables"
        )
    print(
        "CPU (cores busy): "
        + ", ".join(f"{name} {seconds / elapsed:.2f}" for name, seconds in cpu.items())
        + f", this script (the phones) {client_cpu / elapsed:.2f}; the whole machine {busy / elapsed:.2f}"
        f" of its {os.cpu_count()}"
    )
    print(capacity(results, cpu["app servers"], args.hand_every))
    lost = [t for t in tokens if final[t][0] != 20 + results.confirmed.get(t, 0)]
    print(
        f"hands: {sum(results.confirmed.values())} confirmed, {len(lost)} games whose hands differ from the confirms "
        f"(a confirm that timed out may still have been recorded); "
        f"phones told 'nothing new' at an old version after the run: {stale} of {len(results.seen)}"
    )
    if redis:
        print(
            f"Redis holds {redis_memory / 2**20:.1f} MB more than empty, {redis_memory / args.tables / 1024:.1f} KB per table"
        )
    for error in results.errors[:10]:
        print("error:", error)


if __name__ == "__main__":
    main()

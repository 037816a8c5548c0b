"""Budget counters beside a flooded cache of pages (docs/deploy.md, "What Redis holds").

A Redis of pages evicts (allkeys-lru), so a counter kept there is lost to junk: this floods one and
reports when, beside a noeviction Redis and the database, with what a count costs in each.
Run: .venv/bin/python bench/budgets.py [--megabytes 20] [--counts 2000] [--tiny]
"""

import argparse
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.common import PRODUCTION_ENV, TINY_HELP, say_tiny, setup_django
from tests import redis_server


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--megabytes", type=int, default=20)
    parser.add_argument("--counts", type=int, default=2000)
    parser.add_argument("--tiny", action="store_true", help=TINY_HELP)
    args = parser.parse_args()
    say_tiny(args.tiny)
    if args.tiny:
        args.megabytes, args.counts = 3, 20
    pages, pages_url, pages_dir = redis_server.start(
        options=("--maxmemory", f"{args.megabytes}mb", "--maxmemory-policy", "allkeys-lru")
    )
    own, own_url, own_dir = redis_server.start(options=("--maxmemory-policy", "noeviction"))
    try:
        os.environ.update(REDIS_URL=pages_url, REDIS_BUDGETS_URL=own_url)
        setup_django(PRODUCTION_ENV, "yiwu-bench-budgets.sqlite3")
        flood(args.megabytes, 4 if args.tiny else 20)
        cost(args.counts)
    finally:
        redis_server.stop(pages, pages_dir)
        redis_server.stop(own, own_dir)


def flood(megabytes: int, times_over: int) -> None:
    from django.core.cache import caches

    from scoring.models import AccessMiss

    page_cache, budgets = caches["default"], caches["budgets"]
    page_cache.set("budget:imports:10.1.2.3:1", 10, 1200)  # where the counter once was
    budgets.set("budget:imports:10.1.2.3:1", 10, 1200)
    AccessMiss.objects.update_or_create(kind="imports", client="10.1.2.3", window=1, defaults={"count": 10})
    junk, lost_at = "x" * 10_000, None
    for i in range(1, times_over * megabytes * 100 + 1):  # that many times what fits
        page_cache.set(f"page:junk:{i}", junk, 3600)
        if lost_at is None and i % 50 == 0 and page_cache.get("budget:imports:10.1.2.3:1") is None:
            lost_at = i
    evicted = page_cache._cache.get_client().info("stats")["evicted_keys"]
    print(f"pages' Redis of {megabytes} MB (allkeys-lru), {i:,} junk pages of 10 KB written, {evicted:,} evicted:")
    print(f"  a counter kept there: {'lost after ' + format(lost_at, ',') + ' junk pages' if lost_at else 'kept'}")
    print(f"  in its own Redis (noeviction): {'kept' if budgets.get('budget:imports:10.1.2.3:1') == 10 else 'LOST'}")
    kept = AccessMiss.objects.filter(kind="imports", client="10.1.2.3", window=1, count=10).exists()
    print(f"  in the database: {'kept' if kept else 'LOST'}")


def cost(counts: int) -> None:
    from django.conf import settings

    from scoring import access

    results = {}
    for place, shared in (("database rows", False), ("own Redis", True)):
        settings.SHARED_BUDGETS = shared
        settings.RATE_LIMITS = {**settings.RATE_LIMITS, "changes": counts * 10}
        wall, cpu = time.perf_counter(), time.process_time()
        for i in range(counts):
            access.spend_change(group=type("G", (), {"pk": i % 50})())
        results[place] = ((time.perf_counter() - wall) / counts, (time.process_time() - cpu) / counts)
    database = settings.DATABASES["default"]["ENGINE"].rsplit(".", 1)[-1]
    print(f"one count, {counts:,} counts each ({database}):")
    for place, (wall, cpu) in results.items():
        print(f"  {place:14s} {wall * 1e6:7.0f} µs wall, {cpu * 1e6:6.0f} µs CPU")
    ratio = results["database rows"][0] / results["own Redis"][0]
    print(f"  database rows / own Redis: {ratio:.2f}× the wall time")


if __name__ == "__main__":
    main()

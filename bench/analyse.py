"""算牌 speed (docs/analysis.md), beside the ``mahjong`` package on the same wild-free hands.

Goals: median ≤ 1 ms and p99 ≤ 10 ms per 14-tile analysis, 13-tile waits median ≤ 10 ms, and no
slower than the peer's ``is_agari`` (``analyse()`` at most 2×). Run: make bench-analyse (``--tiny``).
"""

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from mahjong.agari import Agari

from bench.common import TINY_HELP, say_tiny
from scoring.engine.analyse import CODES, INDEX, analyse, analyser, decompose, is_qidui, is_standard
from scoring.engine.analyse import request as analyse_request
from scoring.engine.analyse import tiles as analyse_tiles
from scoring.engine.analyse.tiles import wild_kinds
from tests.factories import random_complete

N_HANDS = 10_000
N_WAITS = 1_000
N_PEER = 2_000
MAX_WILDS = {"yiwu": 3, "wuyi2": 3, "zhuji": 7}
RULESETS = ("yiwu", "zhuji", "wuyi2")


def random_request(rng: random.Random, ruleset: str) -> dict:
    flip, tiles = random_complete(rng, ruleset, MAX_WILDS[ruleset])
    dealer = rng.random() < 0.25
    request = {"ruleset": ruleset, "tiles": tiles, "flip": flip, "self_drawn": rng.random() < 0.5, "dealer": dealer}
    if not dealer:
        request["seat_wind"] = rng.choice("SWN")
    return request


def clear_caches() -> None:
    """Every memo of the 算牌 engine emptied."""
    for module in (decompose, analyse_tiles, analyse_request, *map(analyser, RULESETS)):
        for memo in vars(module).values():
            if not isinstance(memo, type) and hasattr(memo, "cache_clear"):
                memo.cache_clear()


def timings(requests: list[dict]) -> list[float]:
    out = []
    for request in requests:
        start = time.perf_counter()
        analyse(request)
        out.append(time.perf_counter() - start)
    return out


def show(label: str, times: list[float]) -> None:
    times = sorted(times)
    median = statistics.median(times) * 1000
    p99 = times[int(len(times) * 0.99)] * 1000
    print(f"{label:<44} median {median:7.3f} ms   p99 {p99:7.3f} ms   max {times[-1] * 1000:7.2f} ms")


def requests_for(seed: str, ruleset: str, count: int, waits: bool = False) -> list[dict]:
    """``count`` random requests; ``waits``: each with one tile taken out (13 tiles)."""
    rng = random.Random(seed)
    requests = []
    for _ in range(count):
        request = random_request(rng, ruleset)
        if waits:
            request["tiles"].pop(rng.randrange(14))
        requests.append(request)
    return requests


def cold_timings(requests: list[dict]) -> list[float]:
    out = []
    for request in requests:
        clear_caches()
        out.extend(timings([request]))
    return out


def main() -> None:
    global N_HANDS, N_WAITS, N_PEER
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tiny", action="store_true", help=TINY_HELP)
    args = parser.parse_args()
    say_tiny(args.tiny)
    if args.tiny:
        N_HANDS, N_WAITS, N_PEER = 100, 20, 30
    print(f"14-tile analysis, {N_HANDS:,} random complete hands per ruleset (caches filling as they go)")
    clear_caches()
    for ruleset in RULESETS:
        show(f"  {ruleset} (0-{MAX_WILDS[ruleset]} wilds)", timings(requests_for(ruleset, ruleset, N_HANDS)))
    print(f"14-tile analysis, {N_WAITS:,} hands each with every cache cleared first (worst case)")
    for ruleset in RULESETS:
        show(f"  {ruleset} cold", cold_timings(requests_for(f"cold-{ruleset}", ruleset, N_WAITS)))
    print(f"13-tile waits, {N_WAITS:,} hands per ruleset (one tile taken out)")
    for ruleset in RULESETS:
        show(f"  {ruleset} waits", timings(requests_for(f"waits-{ruleset}", ruleset, N_WAITS, waits=True)))
    compare_with_mahjong()
    side_by_side()


def _timed(fn) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def counts_of(tiles: list[str]) -> list[int]:
    """The 34 tile counts the completeness checks take."""
    counts = [0] * 34
    for code in tiles:
        counts[INDEX[code]] += 1
    return counts


def compare_with_mahjong() -> None:
    rng = random.Random("agari")
    hands = [counts_of(random_complete(rng, "yiwu", 0)[1]) for _ in range(N_HANDS)]
    print(f"Completeness of {N_HANDS:,} wild-free standard hands (one pass, hands not seen before)")
    clear_caches()
    start = time.perf_counter()
    ours = [is_standard(c) or is_qidui(c, 0) for c in hands]
    t_ours_cold = time.perf_counter() - start
    fresh = [counts_of(random_complete(rng, "yiwu", 0)[1]) for _ in range(N_HANDS)]
    t_ours = min(_timed(lambda: [is_standard(c) or is_qidui(c, 0) for c in fresh]) for _ in range(3))
    assert all(ours)
    print(f"  ours, every cache cleared first:     {t_ours_cold / N_HANDS * 1e6:8.2f} µs/hand")
    print(f"  ours, group caches warm (best of 3): {t_ours / N_HANDS * 1e6:8.2f} µs/hand")
    agari = Agari()
    theirs = [agari.is_agari(c) for c in fresh]
    t_theirs = min(_timed(lambda: [agari.is_agari(c) for c in fresh]) for _ in range(3))
    assert all(theirs)
    print(f"  mahjong Agari().is_agari (best of 3): {t_theirs / N_HANDS * 1e6:8.2f} µs/hand")
    print(
        f"  ours (warm) is {t_theirs / t_ours:.1f}x the speed of is_agari ({'goal met' if t_ours <= t_theirs else 'goal missed'})"
    )


def wild_free(rng: random.Random, ruleset: str) -> dict:
    """A complete 14-tile request whose flip makes none of its tiles wild (the peer knows no wilds)."""
    _, tiles = random_complete(rng, ruleset, 0)
    held = {INDEX[t] for t in tiles}
    flip = rng.choice([c for c in CODES if not wild_kinds(ruleset, INDEX[c]) & held])
    dealer = rng.random() < 0.25
    request = {"ruleset": ruleset, "tiles": tiles, "flip": flip, "self_drawn": rng.random() < 0.5, "dealer": dealer}
    if not dealer:
        request["seat_wind"] = rng.choice("SWN")
    return request


def peer_waits(agari: Agari, counts: list[int]) -> list[int]:
    """The peer's waits: ``is_agari`` on the 13 tiles plus each of the 34 kinds in turn."""
    waits = []
    for kind in range(34):
        if counts[kind] < 4:
            counts[kind] += 1
            if agari.is_agari(counts):
                waits.append(kind)
            counts[kind] -= 1
    return waits


def _p90(times: list[float]) -> float:
    return sorted(times)[int(len(times) * 0.9)]


def side_by_side() -> None:
    """Per ruleset, on the same wild-free hands not seen before (caches warmed on others), ours and the peer's."""
    agari = Agari()
    print(f"Beside the mahjong package: {N_PEER:,} wild-free hands per ruleset, each timed once, ours then theirs")
    print(f"  {'median':<8}{'14 tiles: analyse() / is_agari':>40}   {'13 tiles: waits / 34 × is_agari':>40}")
    missed = []
    for ruleset in RULESETS:
        rng = random.Random(f"peer-{ruleset}")
        for _ in range(N_PEER):  # warm-up on other hands
            request = wild_free(rng, ruleset)
            analyse(request)
            request["tiles"].pop(rng.randrange(14))
            analyse(request)
        rows = []
        for waits, goal in ((False, 2.0), (True, 1.0)):
            requests = [wild_free(rng, ruleset) for _ in range(N_PEER)]
            for request in requests if waits else ():
                request["tiles"].pop(rng.randrange(14))
            ours, theirs = [], []
            for request in requests:
                counts = counts_of(request["tiles"])
                start = time.perf_counter()
                answer = analyse(request)
                middle = time.perf_counter()
                peer = peer_waits(agari, counts) if waits else agari.is_agari(counts)
                end = time.perf_counter()
                ours.append(middle - start)
                theirs.append(end - middle)
                assert answer["waits"] if waits else answer["complete"]
                assert peer
            mine, peer_median = statistics.median(ours), statistics.median(theirs)
            ratio = mine / peer_median
            if ratio > goal or (waits and ratio == goal):
                missed.append(f"{ruleset} {'waits' if waits else '14 tiles'}")
            rows.append(
                f"{mine * 1e6:6.1f} / {peer_median * 1e6:5.1f} µs = {ratio:4.2f}× (p90 {_p90(ours) / _p90(theirs):4.2f}×)"
            )
        print(f"  {ruleset:<8}{rows[0]:>40}   {rows[1]:>40}")
    verdict = "every goal met" if not missed else "goal missed: " + ", ".join(missed)
    print(f"  (goals: 14 tiles at most 2×, waits under 1×, by the medians: {verdict})")


if __name__ == "__main__":
    main()

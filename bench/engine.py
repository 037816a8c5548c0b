"""Engine throughput: replaying long games (issue: ≥ 50,000 hands/s).

Run: make bench   (or: .venv/bin/python bench/engine.py)
"""

import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.common import best_of
from bench.games import random_game
from scoring.engine import YIWU, ZHUJI, Rules, ScoringError, replay, score, score_game
from scoring.engine import zhuji as zj


def random_zhuji_game(n_hands: int, seed: int = 7) -> list[dict]:
    """``n_hands`` random valid 诸暨 hands (each checked by scoring it as it is made)."""
    rng = random.Random(seed)
    rules = zj.Rules()
    state = zj.new_state(0)
    hands = []
    while len(hands) < n_hands:
        if rng.random() < 0.08:
            hand: dict = {"outcome": "draw"}
        else:
            winner = rng.randrange(4)
            tai: dict = {}
            if rng.random() < 0.5:
                tai["dragon_pungs"] = rng.sample(["zhong", "fa", "bai"], rng.randrange(3))
            if rng.random() < 0.4:
                tai["wind_pungs"] = rng.sample(["dong", "nan", "xi", "bei"], rng.randrange(3))
            tai["shape"] = rng.choice(["pinghu", "duiduihu", "mixed", "mixed"])
            for flag in ("hunyise", "no_caishen", "gangkai", "qianggang"):
                if rng.random() < 0.15:
                    tai[flag] = True
            if rng.random() < 0.03:
                tai["special"] = rng.choice(["tianhu", "dihu", "quanzi"])
            hand = {"outcome": "win", "winner": winner, "tai": tai}
            if rng.random() < 0.6:
                hand["discarder"] = rng.choice([s for s in range(4) if s != winner])
        try:
            score(ZHUJI, rules, state, ZHUJI.parse_hand(hand))
        except ScoringError:
            continue  # an invalid combination: draw again
        hands.append(hand)
    return hands


def bench_zhuji() -> None:
    rules = zj.Rules()
    hands = random_zhuji_game(10_000)
    t = best_of(5, lambda: replay(ZHUJI, rules, hands))
    print(f"zhuji replay 10,000 hands (contract hands): {t * 1000:8.1f} ms  {len(hands) / t:10,.0f} hands/s")
    cpu = float("inf")  # CPU time: steadier than the wall clock on a busy machine
    for _ in range(10):
        start = time.process_time()
        replay(ZHUJI, rules, hands)
        cpu = min(cpu, time.process_time() - start)
    print(f"zhuji replay 10,000 hands, CPU time:         {cpu * 1000:8.1f} ms  {len(hands) / cpu:10,.0f} hands/s")


def main() -> None:
    bench_zhuji()
    rules = Rules()
    big = random_game(10_000)
    small = random_game(1_000, seed=11)
    n = len(big["hands"])
    t_replay = best_of(5, lambda: replay(YIWU, rules, big["hands"]))
    t_json = best_of(5, lambda: score_game(big))
    t_small = best_of(20, lambda: score_game(small))
    t_2000 = best_of(10, lambda: score_game({"hands": big["hands"][:2000]}))
    print(f"replay 10,000 hands (engine objects):   {t_replay * 1000:8.1f} ms  {n / t_replay:10,.0f} hands/s")
    print(f"score_game 10,000 hands (contract JSON): {t_json * 1000:8.1f} ms  {n / t_json:10,.0f} hands/s")
    print(f"score_game 1,000 hands:                  {t_small * 1000:8.1f} ms")
    print(f"score_game 2,000 hands:                  {t_2000 * 1000:8.1f} ms")


if __name__ == "__main__":
    main()

"""Engine throughput: replaying long games (issue: ≥ 50,000 hands/s).

Run: make bench   (or: .venv/bin/python bench/engine.py)
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.common import best_of
from bench.games import random_game
from scoring.engine import YIWU, Rules, replay, score_game


def main() -> None:
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

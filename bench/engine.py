"""Engine throughput: replaying long games (issue: ≥ 50,000 hands/s).

Run: make bench   (or: .venv/bin/python bench/engine.py)
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import random

from bench.common import best_of
from bench.games import random_game
from scoring.engine import WUYI2, YIWU, Rules, replay, score_game
from scoring.engine.wuyi2 import LISTABLE, conflicts
from scoring.engine.wuyi2 import Rules as Wuyi2Rules


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


def random_wuyi2_game(n: int, seed: int = 7) -> dict:
    """A random valid 武义二人麻将 game: each pattern is picked among those ``conflicts``
    allows, so every hand passes validation."""
    rng = random.Random(seed)
    dealer, hands = 0, []
    for _ in range(n):
        if rng.random() < 0.08:
            hands.append({"outcome": "draw"})
            continue
        winner, self_drawn = rng.randrange(2), rng.random() < 0.5
        codes: list[str] = []
        for _ in range(rng.randrange(4)):
            refused = conflicts(codes, winner, dealer, self_drawn)
            free = [c for c in LISTABLE if c not in refused and c not in codes]
            if free:
                codes.append(rng.choice(free))
        hand = {"outcome": "win", "winner": winner, "patterns": codes}
        if not self_drawn:
            hand["discarder"] = 1 - winner
        hands.append(hand)
        dealer = winner
    return {"ruleset": "wuyi2", "hands": hands}


def bench_wuyi2() -> None:
    rules = Wuyi2Rules()
    game = random_wuyi2_game(10_000)
    n = len(game["hands"])
    t_replay = best_of(5, lambda: replay(WUYI2, rules, game["hands"]))
    part = {**game, "hands": game["hands"][:2000]}  # the contract's MAX_HANDS
    t_json = best_of(10, lambda: score_game(part))
    print(f"wuyi2 replay 10,000 hands:               {t_replay * 1000:8.1f} ms  {n / t_replay:10,.0f} hands/s")
    print(f"wuyi2 score_game 2,000 hands (JSON):     {t_json * 1000:8.1f} ms  {2000 / t_json:10,.0f} hands/s")


if __name__ == "__main__":
    bench_wuyi2()
    main()

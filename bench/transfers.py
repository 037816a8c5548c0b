"""Settlement speed: the exact fewest-transfers DP is O(2^n · n), so watch it grow to 12 players.

Run: .venv/bin/python bench/transfers.py
"""

import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.common import best_of
from scoring.engine import min_transfers


def random_balances(players: int, seed: int) -> dict[str, int]:
    """A balanced end-of-game table: every player non-zero, so the DP sees all of them."""
    rng = random.Random(seed)
    while True:
        values = [rng.choice([-1, 1]) * rng.randint(1, 500) for _ in range(players - 1)]
        last = -sum(values)
        if last:
            return {f"p{i}": v for i, v in enumerate([*values, last])}


def main() -> None:
    for players in (4, 6, 8, 10, 12):
        games = [random_balances(players, seed) for seed in range(5)]
        times = sorted(best_of(5, lambda g=g: min_transfers(g)) for g in games)
        median, worst = times[len(times) // 2], times[-1]
        print(
            f"{players:2d} players: median {median * 1000:7.2f} ms   worst {worst * 1000:7.2f} ms  (best of 5 runs each)"
        )


if __name__ == "__main__":
    main()

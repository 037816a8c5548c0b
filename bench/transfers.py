"""Settlement speed per evening size: the exact search over every balance beside the bounded one
(scoring/engine/transfers.py), on the worst case of both; figures in docs/deploy.md.

Run: .venv/bin/python bench/transfers.py [--tiny]
"""

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.common import TINY_HELP, say_tiny
from scoring.engine.money import settlement_plan
from scoring.engine.transfers import EXACT_LIMIT
from tests.engine.test_transfers import reference_transfers as old_min_transfers  # the search unbounded

OLD_RUN_UP_TO = 20  # people: beyond, the unbounded search takes seconds and gigabytes


def random_balances(players: int, seed: int) -> list[int]:
    """A balanced end-of-game table: every player non-zero, no two exact opposites."""
    rng = random.Random(seed)
    while True:
        values = [rng.choice([-1, 1]) * rng.randint(1, 10**6) for _ in range(players - 1)]
        values.append(-sum(values))
        if all(values) and len({abs(v) for v in values}) == players:
            return values


def cpu(fn) -> float:
    start = time.process_time()
    fn()
    return time.process_time() - start


def after(values: list[int]) -> float:
    """The settle-up as the settle page makes it: points → 分 at 1 元 a point, no fee, the transfers."""
    return min(
        cpu(lambda: settlement_plan(values, rate_fen=100, fee_fen=0, fee_mode="equal", fee_payee=0)) for _ in range(5)
    )


def before(values: list[int]) -> float:
    balances = {str(seat): v * 100 for seat, v in enumerate(values)}
    return min(cpu(lambda: old_min_transfers(balances)) for _ in range(1 if len(values) > 16 else 3))


def ms(seconds: float) -> str:
    return f"{seconds * 1000:10.2f} ms"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tiny", action="store_true", help=TINY_HELP)
    args = parser.parse_args()
    say_tiny(args.tiny)
    old_run_up_to = 12 if args.tiny else OLD_RUN_UP_TO
    evenings = "1 random evening" if args.tiny else "the worst of 5 random evenings (2 past 16 people)"
    print(f"settle-up CPU, {evenings}; exact search bound: {EXACT_LIMIT}")
    print(f"{'people':>6}  {'before':>16}  {'after':>13}  after's transfers")
    old_20 = None
    for players in (4, 8, 12, 16, 20, 24, 40):
        tables = [random_balances(players, seed) for seed in range(1 if args.tiny else 5 if players <= 16 else 2)]
        new = max(after(t) for t in tables)
        plan = settlement_plan(tables[0], rate_fen=100, fee_fen=0, fee_mode="equal", fee_payee=0)
        count = f"{len(plan.transfers)} ({'the fewest' if plan.fewest else 'may not be the fewest'})"
        if players <= old_run_up_to:
            old = max(before(t) for t in tables)
            old_20 = old if players == OLD_RUN_UP_TO else old_20
            old_text = ms(old)
        elif players == 24 and old_20 is not None:
            old_text = f"~{old_20 * 2**4 * 24 / 20:.1f} s (est.)"
        else:
            old_text = "not run"
        print(f"{players:6d}  {old_text:>16}  {ms(new):>13}  {count}")
    print("24 before: estimated from 20 (the review measured 25 s and 961 MB); 40 before: 2^40 masks, never finishes.")


if __name__ == "__main__":
    main()

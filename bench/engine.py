"""Engine throughput: replaying long games (issue: ≥ 50,000 hands/s).

Run: make bench   (or: .venv/bin/python bench/engine.py [--tiny])
"""

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.common import TINY_HELP, best_of, say_tiny
from scoring.engine import ScoringError, replay, score, score_game
from scoring.rulesets.wuyi2.engine import LISTABLE, WUYI2, conflicts
from scoring.rulesets.wuyi2.engine import Rules as Wuyi2Rules
from scoring.rulesets.yiwu.engine import YIWU, Rules
from scoring.rulesets.zhuji import engine as zj
from scoring.rulesets.zhuji.engine import ZHUJI
from tests.factories import random_game


def random_zhuji_game(n_hands: int, seed: int = 7) -> list[dict]:
    """``n_hands`` random valid 诸暨 hands (each checked by scoring it as it is made)."""
    rng = random.Random(seed)
    rules = zj.Rules()
    state = ZHUJI.new_state(0)
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


def random_wuyi2_game(n: int, seed: int = 7) -> dict:
    """A random valid 武义二人麻将 game: each pattern picked among those ``conflicts`` allows."""
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


def hands_per_second(ruleset, rules, hands: list, repeats: int = 5) -> tuple[float, float]:
    """Replay ``hands``: (wall-clock, CPU-time) best of ``repeats`` in hands/s; CPU is the steadier."""
    wall = best_of(repeats, lambda: replay(ruleset, rules, hands))
    cpu = float("inf")
    for _ in range(repeats):
        start = time.process_time()
        replay(ruleset, rules, hands)
        cpu = min(cpu, time.process_time() - start)
    return len(hands) / wall, len(hands) / cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tiny", action="store_true", help=TINY_HELP)
    args = parser.parse_args()
    say_tiny(args.tiny)
    n, limit, repeats = (300, 100, 1) if args.tiny else (10_000, 2000, 5)
    games = {
        "yiwu": (YIWU, Rules(), random_game(n)["hands"]),
        "zhuji": (ZHUJI, ZHUJI.rules_class(), random_zhuji_game(n)),
        "wuyi2": (WUYI2, Wuyi2Rules(), random_wuyi2_game(n)["hands"]),
    }
    print(f"replay of a {n:,}-hand game per ruleset (goal ≥ 50,000 hands/s each)")
    for code, (ruleset, rules, hands) in games.items():
        wall, cpu = hands_per_second(ruleset, rules, hands, repeats)
        print(f"  {code:6} {wall:10,.0f} hands/s wall   {cpu:10,.0f} hands/s CPU")
    limit_note = "the contract's limit" if limit == 2000 else "the contract's limit is 2,000"
    print(f"score_game (contract JSON with explanations), {limit:,} hands ({limit_note})")
    for code, (_ruleset, _rules, hands) in games.items():
        game = {"ruleset": code, "hands": hands[:limit]}
        t = best_of(2 * repeats, lambda game=game: score_game(game))
        print(f"  {code:6} {t * 1000:8.1f} ms   {limit / t:10,.0f} hands/s")


if __name__ == "__main__":
    main()

"""Random valid 义乌 games, and long games stored the way the app stores them: for the
query-count, paging and browser tests, and for the benchmarks (bench/ imports them from here)."""

import random

from scoring.engine import WIN_TYPES, YIWU, Rules, TableState, parse_hand, score

PLAIN = [t.code for t in WIN_TYPES.values() if not t.piao_level]


def random_hand(rng: random.Random, rules: Rules, state: TableState) -> dict:
    roll = rng.random()
    if roll < 0.08:
        return {"outcome": "draw"}
    hand: dict = {"outcome": "win", "winner": rng.randrange(4)}
    if roll < 0.12:  # someone floats and wins with it
        level = rng.choice([1, 2])
        hand["piao"] = {"player": hand["winner"], "level": level}
        hand["win_type"] = "danpiao" if level == 1 else "shuangpiao"
        others = [s for s in range(4) if s != hand["winner"]]
        hand["feeders"] = rng.sample(others, rng.randrange(3))
    else:
        hand["win_type"] = rng.choice(PLAIN)
        if WIN_TYPES[hand["win_type"]].discard:
            hand["discarder"] = rng.choice([s for s in range(4) if s != hand["winner"]])
    if state.may_buy_maizi(rules) and rng.random() < 0.2:
        hand["maizi"] = [max(held, int(rng.random() < 0.3)) for held in state.maizi]
    if state.join_amount(rules):
        free = [s for s in range(4) if s != state.dealer and not state.xiazi[s]]
        if free and rng.random() < 0.5:
            hand["xiazi_join"] = rng.sample(free, rng.randrange(1, len(free) + 1))
    return hand


def random_game(n_hands: int, seed: int = 7, rules: Rules | None = None) -> dict:
    """A valid game of ``n_hands`` hands under the default rules (or ``rules``)."""
    rng = random.Random(seed)
    rules = rules or Rules()
    state = TableState()
    hands = []
    for _ in range(n_hands):
        hand = random_hand(rng, rules, state)
        score(YIWU, rules, state, parse_hand(hand))
        hands.append(hand)
    return {"hands": hands}


def seeded_game(n_hands: int, seed: int = 7):
    """A stored game of ``n_hands`` valid hands with its replay cache filled in (needs Django;
    ``random_game`` above does not, so the engine benchmark can use it)."""
    from scoring.cache import store
    from scoring.ledger import build
    from scoring.models import Game, Hand

    game = Game.objects.create(players=["老王", "小李", "阿华", "大刘"], rules=Rules().to_dict())
    hands = random_game(n_hands, seed=seed)["hands"]
    Hand.objects.bulk_create(Hand(game=game, seq=i, entry=entry) for i, entry in enumerate(hands, start=1))
    store(game, build(game))
    game.bump_version()
    return game

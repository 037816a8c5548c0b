"""Games with many hands for benchmarks and query-count tests, stored the way the app stores them."""

from bench.games import random_game
from scoring.cache import store
from scoring.engine import Rules
from scoring.ledger import build
from scoring.models import Game, Hand


def seeded_game(n_hands: int, seed: int = 7) -> Game:
    """A game of ``n_hands`` valid hands with its replay cache filled in."""
    game = Game.objects.create(players=["老王", "小李", "阿华", "大刘"], rules=Rules().to_dict())
    hands = random_game(n_hands, seed=seed)["hands"]
    Hand.objects.bulk_create(Hand(game=game, seq=i, entry=entry) for i, entry in enumerate(hands, start=1))
    store(game, build(game))
    game.bump_version()
    return game

import pytest

from scoring.engine import Rules
from scoring.models import Game
from tests import speed

speed.load()  # HYPOTHESIS_PROFILE: quick by default, "ci" for the full counts

NAMES = ["老王", "小李", "阿华", "大刘"]


@pytest.fixture
def make_game(db):
    def make(first_dealer: int = 0, **rules) -> Game:
        return Game.objects.create(players=NAMES, first_dealer=first_dealer, rules=Rules(**rules).to_dict())

    return make


@pytest.fixture
def game(make_game) -> Game:
    return make_game()

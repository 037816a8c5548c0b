"""``python manage.py score_game FILE|-``: the command-line door (docs/contract.md)."""

from django.conf import settings

from scoring.engine import score_game_or_error
from scoring.management.json_door import JsonDoor


def answer(game) -> tuple[bool, dict]:
    """The contract's answer, with the app's bound on the people of a game."""
    return score_game_or_error(game, settings.MAX_PEOPLE_PER_GAME)


class Command(JsonDoor):
    help = "Score a game (JSON, docs/contract.md) from FILE or - for standard input."
    noun = "a game JSON file"
    answer = staticmethod(answer)

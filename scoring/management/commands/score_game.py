"""``python manage.py score_game FILE|-``: the command-line door (docs/contract.md)."""

from scoring.engine import score_game_or_error
from scoring.management.json_door import JsonDoor


class Command(JsonDoor):
    help = "Score a game (JSON, docs/contract.md) from FILE or - for standard input."
    noun = "a game JSON file"
    answer = staticmethod(score_game_or_error)

"""``python manage.py analyse_hand FILE|-``: the command-line door of 算牌 (hand-analysis.md).

Prints the answer JSON and exits 0, or ``{"error": {...}}`` and exits 2.
"""

from scoring.engine.analyse import analyse
from scoring.engine.errors import ScoringError
from scoring.management.json_door import JsonDoor


def analyse_or_error(request) -> tuple[bool, dict]:
    try:
        return True, analyse(request)
    except ScoringError as error:
        return False, error.to_dict()


class Command(JsonDoor):
    help = "Analyse a mahjong hand (JSON request, hand-analysis.md) from FILE or - for standard input."
    max_bytes = 16 * 1024
    answer = staticmethod(analyse_or_error)

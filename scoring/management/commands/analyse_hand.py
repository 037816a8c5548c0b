"""``python manage.py analyse_hand FILE|-``: the command-line door of 算牌 (docs/analysis.md)."""

from scoring.engine.analyse import analyse_or_error
from scoring.management.json_door import JsonDoor


class Command(JsonDoor):
    help = "Analyse a mahjong hand (JSON request, docs/analysis.md) from FILE or - for standard input."
    max_bytes = 16 * 1024
    answer = staticmethod(analyse_or_error)

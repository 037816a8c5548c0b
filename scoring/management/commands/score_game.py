"""``python manage.py score_game FILE|-``: the command-line door (scoring-contract.md)."""

import json
import sys

from django.core.management.base import BaseCommand

from scoring.engine import score_game_or_error


class Command(BaseCommand):
    help = "Score a Yiwu game (JSON, scoring-contract.md) from FILE or - for standard input."

    def add_arguments(self, parser):
        parser.add_argument("file", help="a game JSON file, or - for standard input")
        parser.add_argument("--indent", type=int, default=None, help="pretty-print with this indent")

    def handle(self, *args, file: str, indent: int | None, **options):
        ok, body = self.score(file)
        self.stdout.write(json.dumps(body, ensure_ascii=False, indent=indent))
        if not ok:
            sys.exit(2)

    def score(self, file: str) -> tuple[bool, dict]:
        try:
            if file == "-":
                text = sys.stdin.buffer.read().decode("utf-8")
            else:
                with open(file, encoding="utf-8") as handle:
                    text = handle.read()
            game = json.loads(text)
        except OSError as error:
            return False, _error(f"无法读取文件：{error.strerror}", f"Cannot read the file: {error.strerror}")
        except (UnicodeDecodeError, json.JSONDecodeError) as error:
            return False, _error(f"JSON 格式错误：{error}", f"Malformed JSON: {error}")
        return score_game_or_error(game)


def _error(zh: str, en: str) -> dict:
    return {"error": {"hand": None, "message": zh, "message_en": en, "field": None}}

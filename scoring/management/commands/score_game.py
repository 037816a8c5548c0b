"""``python manage.py score_game FILE|-``: the command-line door (scoring-contract.md)."""

import json
import sys

from django.core.management.base import BaseCommand

from scoring.engine import ScoringError, score_game_or_error


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
            return False, ScoringError(
                f"无法读取文件：{error.strerror}", f"Cannot read the file: {error.strerror}"
            ).to_dict()
        except (UnicodeDecodeError, json.JSONDecodeError) as error:
            return False, ScoringError(f"JSON 格式错误：{error}", f"Malformed JSON: {error}").to_dict()
        return score_game_or_error(game)

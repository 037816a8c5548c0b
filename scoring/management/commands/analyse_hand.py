"""``python manage.py analyse_hand FILE|-``: the command-line door of 算牌 (hand-analysis.md).

Prints the answer JSON and exits 0, or ``{"error": {...}}`` and exits 2.
"""

import json
import sys

from django.core.management.base import BaseCommand

from scoring.engine.analyse import analyse
from scoring.engine.errors import ScoringError

MAX_BYTES = 16 * 1024


class Command(BaseCommand):
    help = "Analyse a mahjong hand (JSON request, hand-analysis.md) from FILE or - for standard input."

    def add_arguments(self, parser):
        parser.add_argument("file", help="a request JSON file, or - for standard input")
        parser.add_argument("--indent", type=int, default=None, help="pretty-print with this indent")

    def handle(self, *args, file: str, indent: int | None, **options):
        ok, body = self.run(file)
        self.stdout.write(json.dumps(body, ensure_ascii=False, indent=indent))
        if not ok:
            sys.exit(2)

    def run(self, file: str) -> tuple[bool, dict]:
        try:
            if file == "-":
                raw = sys.stdin.buffer.read(MAX_BYTES + 1)
            else:
                with open(file, "rb") as handle:
                    raw = handle.read(MAX_BYTES + 1)
        except OSError as error:
            return False, ScoringError(
                f"无法读取文件：{error.strerror}", f"Cannot read the file: {error.strerror}"
            ).to_dict()
        if len(raw) > MAX_BYTES:
            limit = MAX_BYTES // 1024
            return False, ScoringError(
                f"请求太大（上限 {limit} KB）", f"Request too large (limit {limit} KB)"
            ).to_dict()
        try:
            request = json.loads(raw.decode("utf-8"))
        except (UnicodeDecodeError, json.JSONDecodeError) as error:
            return False, ScoringError(f"JSON 格式错误：{error}", f"Malformed JSON: {error}").to_dict()
        except RecursionError:
            return False, ScoringError("JSON 嵌套太深", "Malformed JSON: nested too deeply").to_dict()
        try:
            return True, analyse(request)
        except ScoringError as error:
            return False, error.to_dict()

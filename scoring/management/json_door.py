"""What the command-line doors share: a request JSON from FILE or ``-``, the answer and exit 0, or the
contract's ``{"error": {...}}`` and exit 2, never a traceback."""

import json
import sys
from collections.abc import Callable

from django.core.management.base import BaseCommand

from scoring.engine.errors import ScoringError
from scoring.engine.hygiene import loads


class JsonDoor(BaseCommand):
    """A door: its ``answer`` (a ``staticmethod``) turns the request into ``(ok, body)``."""

    answer: Callable[[object], tuple[bool, dict]]
    noun = "a request JSON file"  # the FILE argument's help
    max_bytes: int | None = None  # None: read it all

    def add_arguments(self, parser):
        parser.add_argument("file", help=f"{self.noun}, or - for standard input")
        parser.add_argument("--indent", type=int, default=None, help="pretty-print with this indent")

    def handle(self, *args, file: str, indent: int | None, **options):
        ok, body = self.run(file)
        self.stdout.write(json.dumps(body, ensure_ascii=False, indent=indent))
        if not ok:
            sys.exit(2)

    def run(self, file: str) -> tuple[bool, dict]:
        try:
            request = read_json(file, self.max_bytes)
        except ScoringError as error:
            return False, error.to_dict()
        return self.answer(request)


def read_json(file: str, max_bytes: int | None):
    """The JSON in ``file`` (``-``: standard input); a ScoringError says what is wrong with it."""
    size = -1 if max_bytes is None else max_bytes + 1
    try:
        if file == "-":
            raw = sys.stdin.buffer.read(size)
        else:
            with open(file, "rb") as handle:
                raw = handle.read(size)
    except OSError as error:
        raise ScoringError(f"无法读取文件：{error.strerror}", f"Cannot read the file: {error.strerror}") from None
    if max_bytes is not None and len(raw) > max_bytes:
        limit = max_bytes // 1024
        raise ScoringError(f"请求太大（上限 {limit} KB）", f"Request too large (limit {limit} KB)")
    return loads(raw)  # no NaN, Infinity, repeated key or lone surrogate (scoring/engine/hygiene.py)

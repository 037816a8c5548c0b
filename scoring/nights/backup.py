"""今晚几桌's backup: the night (its people and draw) and each table's own game backup
(scoring/records/backup.py), in one JSON file; restored into a 牌友圈, it recreates the tables and
the night holding them, or nothing (docs/manual.md 「今晚几桌」)."""

from django.conf import settings
from django.utils import timezone

from scoring.engine import ScoringError
from scoring.engine.hygiene import loads
from scoring.engine.money import FEE_MODES
from scoring.engine.seating import key
from scoring.forms import MAX_FEE_YUAN, NAME_LIMIT, control_character
from scoring.models import Group, TableNight
from scoring.night import MIN_PEOPLE, tables_of
from scoring.records.backup import backup_json
from scoring.records.exports import ImportRefused, import_game
from scoring.replay import stored_replay
from scoring.services import nights as writes

NIGHT_FORMAT = 1
NIGHT_FIELDS = frozenset(("format", "people", "draw", "drawn", "created_at", "fee"))
FEE_FIELDS = frozenset(("fee_fen", "fee_mode", "fee_payee", "round_yuan"))


def night_backup(found: TableNight) -> dict:
    """The night and every table's whole game, hands and settlement included; no link tokens."""
    return {
        "night": {
            "format": NIGHT_FORMAT,
            "people": list(found.people),
            "draw": found.draw,
            "drawn": list(found.drawn),
            "created_at": timezone.localtime(found.created_at).isoformat(),
            "fee": {
                "fee_fen": found.fee_fen,
                "fee_mode": found.fee_mode,
                "fee_payee": found.fee_payee,
                "round_yuan": found.round_yuan,
            },
        },
        "tables": [backup_json(stored_replay(game, limit=None)) for game in tables_of(found)],
    }


def _refuse(zh: str, en: str):
    raise ImportRefused(f"今晚的备份：{zh}", f"The night's backup: {en}")


def read_night(data) -> dict:
    """The ``night`` part checked (the tables are checked by the game import), or ImportRefused."""
    if not isinstance(data, dict) or set(data) != {"night", "tables"}:
        _refuse("应有 night 和 tables 两部分。", "it must hold night and tables.")
    part, tables = data["night"], data["tables"]
    if not isinstance(part, dict) or set(part) != NIGHT_FIELDS or part["format"] != NIGHT_FORMAT:
        _refuse("night 部分不完整或版本不对。", "its night part is incomplete or of another format.")
    people = part["people"]
    if not isinstance(people, list) or not MIN_PEOPLE <= len(people) <= settings.MAX_PEOPLE_PER_GAME:
        _refuse(f"people 应有 {MIN_PEOPLE}-{settings.MAX_PEOPLE_PER_GAME} 人。", "people has too few or too many.")
    for name in people:
        if not isinstance(name, str) or not name.strip() or len(name) > NAME_LIMIT or control_character(name):
            _refuse("people 里有不能用的名字。", "people holds a name that cannot be used.")
    if len({key(name) for name in people}) != len(people):
        _refuse("people 里有重名。", "people names someone twice.")
    if part["draw"] not in {code for code, _word in TableNight.DRAWS}:
        _refuse("draw 不对。", "draw is not one of random, winds, seated.")
    drawn = part["drawn"]
    if not isinstance(drawn, list) or len(drawn) > len(people) or not all(_drawn(d) for d in drawn):
        _refuse("drawn 不对。", "drawn is not [name, table, seat] for each person.")
    if not isinstance(tables, list) or not 1 <= len(tables) <= TableNight.MAX_TABLES:
        _refuse(f"tables 应有 1-{TableNight.MAX_TABLES} 桌。", f"tables must hold 1-{TableNight.MAX_TABLES}.")
    return {"people": people, "draw": part["draw"], "drawn": drawn, "fee": _fee(part["fee"], people)}


def _fee(fee, people: list[str]) -> dict:
    """The night's one table fee, as settled (scoring/engine/money.py's terms)."""
    if not isinstance(fee, dict) or set(fee) != FEE_FIELDS:
        _refuse("fee 部分不完整。", "its fee part is incomplete.")
    amount, payee = fee["fee_fen"], fee["fee_payee"]
    if isinstance(amount, bool) or not isinstance(amount, int) or not 0 <= amount <= MAX_FEE_YUAN * 100:
        _refuse("台费不对。", "its fee is not a whole number of fen in range.")
    if fee["fee_mode"] not in FEE_MODES or not isinstance(fee["round_yuan"], bool):
        _refuse("台费怎么分不对。", "its fee mode is not one of equal, winners.")
    if not isinstance(payee, str) or (amount and key(payee) not in {key(name) for name in people}):
        _refuse("垫付台费的人不是今晚的人。", "whoever advanced the fee is not one of its people.")
    return dict(fee)


def _drawn(item) -> bool:
    return (
        isinstance(item, list)
        and len(item) == 3
        and isinstance(item[0], str)
        and all(isinstance(n, int) and not isinstance(n, bool) and -1 <= n < 16 for n in item[1:])
    )


def loads_backup(raw: bytes):
    """The file's JSON read as strictly as a game's backup, or ImportRefused."""
    try:
        return loads(raw)
    except ScoringError as error:
        raise ImportRefused(f"不是有效的 JSON 文件：{error.zh}", f"Not a valid JSON file: {error.en}") from None


def restore_night(group: Group, data) -> TableNight:
    """A night from its backup, in ``group``: every table imported as a game of it, or nothing."""
    part = read_night(data)
    return writes.restore_night(group, **part, tables=lambda: [import_game(table) for table in data["tables"]])

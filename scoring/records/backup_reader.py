"""Reading a backup's ``backup`` object (docs/contract.md "A backup"): every part checked before
anything is written, a ``BackupError`` saying which part and why."""

import math
from datetime import UTC, datetime
from itertools import pairwise

from django.utils import timezone

from scoring.engine.contract import MAX_STREAK
from scoring.engine.errors import BilingualError, validate_object
from scoring.engine.game import LIMIT
from scoring.engine.money import FEE_MODES
from scoring.engine.points import from_json
from scoring.engine.seating import key
from scoring.forms import MAX_FEE_YUAN, MAX_RATE_YUAN, control_character
from scoring.models import MAX_RECORDS, MAX_REVISION, MAX_ROUNDS, MAX_SEQ, Game
from scoring.paycodes import kind_of, look_alike

FORMAT = 4  # what each format holds: docs/contract.md "A backup"
READABLE = (2, 3, FORMAT)  # a 2 is read as it was written (``seat_kept_the_deal``)
BACKUP_FIELDS = frozenset(("format", "status", "created_at", "totals", "pending", "hands", "settlement"))
# 打几圈, 收款码 and 全部核对后才能结算: absent from older formats
BACKUP_OPTIONAL = frozenset(("round_length", "paycodes", "checks_required"))
PAYCODE_FIELDS = frozenset(("name", "kind", "address", "created_at"))
HAND_FIELDS = frozenset(("seq", "entered_by", "created_at", "revision", "edited_at", "edited_by"))
VOID_FIELDS = frozenset(("voided_at", "voided_by", "void_reason", "entry", "dealer_fix", "streak_fix"))
HAND_OPTIONAL = frozenset(("checks",))  # 核对 (format 4), each with CHECK_FIELDS
CHECK_FIELDS = frozenset(("person", "verdict", "note", "at"))
SETTLEMENT_FIELDS = frozenset(("rate_fen", "fee_fen", "fee_mode", "fee_payee", "created_at", "transfers"))
SETTLEMENT_OPTIONAL = frozenset(("names", "round_yuan"))  # who was settled (format 3); 抹零, written only when on
TRANSFER_FIELDS = frozenset(("payer", "payee", "amount_fen", "paid_at"))
EARLIEST, LATEST = datetime(1900, 1, 1, tzinfo=UTC), datetime(9999, 1, 1, tzinfo=UTC)
MAX_TRANSFER_FEN = LIMIT * MAX_RATE_YUAN * 100 + MAX_FEE_YUAN * 100  # a whole balance and the whole fee


class BackupError(BilingualError):
    """A ``backup`` object this app cannot restore; the message says which part and why."""


def _refuse(zh: str, en: str):
    raise BackupError(f"备份：{zh}", f"Backup: {en}", "backup")


def _int(value, low: int, high: int, what: tuple[str, str]) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        _refuse(f"{what[0]}应为 {low}-{high} 的整数。", f"{what[1]} must be a whole number {low}-{high}.")
    return value


def _flag(value, what: tuple[str, str]) -> bool:
    if not isinstance(value, bool):
        _refuse(f"{what[0]}应为 true 或 false。", f"{what[1]} must be true or false.")
    return value


def _time(value, what: tuple[str, str], optional: bool = False) -> datetime | None:
    if value is None and optional:
        return None
    try:
        moment = datetime.fromisoformat(value)
        moment = moment if timezone.is_aware(moment) else timezone.make_aware(moment)
    except (TypeError, ValueError, OverflowError):
        moment = None
    # Any zone's local time of these is a date: the export writes each in the app's zone.
    if moment is None or not EARLIEST <= moment < LATEST:
        _refuse(
            f"{what[0]}应为 {EARLIEST.year}-{LATEST.year - 1} 年的时间（ISO 8601）。",
            f"{what[1]} must be a time (ISO 8601) in {EARLIEST.year}-{LATEST.year - 1}.",
        )
    return moment


def _flag(value, what: tuple[str, str]) -> bool:
    if not isinstance(value, bool):
        _refuse(f"{what[0]}应为 true 或 false。", f"{what[1]} must be true or false.")
    return value


def _text(value, limit: int, what: tuple[str, str]) -> str:
    if not isinstance(value, str) or len(value) > limit:
        _refuse(f"{what[0]}应为最多 {limit} 字的文字。", f"{what[1]} must be text of at most {limit} characters.")
    if code := control_character(value):
        _refuse(f"{what[0]}包含控制字符或文字方向字符（{code}）。", f"{what[1]} holds a control character ({code}).")
    return value


def _object(raw, fields: frozenset, what: tuple[str, str], optional: frozenset = frozenset()) -> dict:
    validate_object(raw, fields | optional, f"备份：{what[0]}应为 JSON 对象", f"Backup: {what[1]} must be an object",
                 "backup", error=BackupError)  # fmt: skip
    if missing := sorted(fields - raw.keys()):
        _refuse(f"{what[0]}缺少 {missing[0]}。", f"{what[1]} has no {missing[0]}.")
    return raw


def _hand(raw, ruleset, seats: int) -> dict:
    record = _object(raw, HAND_FIELDS, ("每局", "each hand"), optional=VOID_FIELDS | HAND_OPTIONAL)
    seq = _int(record["seq"], 1, MAX_SEQ, ("局号 seq", "seq"))
    where = (f"第{seq}局的", f"Hand {seq}'s ")
    hand = {
        "seq": seq,
        "entered_by": _text(record["entered_by"], 40, (where[0] + "记录人", where[1] + "entered_by")),
        "created_at": _time(record["created_at"], (where[0] + "记录时间", where[1] + "created_at")),
        "revision": _int(record["revision"], 0, MAX_REVISION, (where[0] + "修改次数", where[1] + "revision")),
        "edited_at": _time(record["edited_at"], (where[0] + "修改时间", where[1] + "edited_at"), optional=True),
        "edited_by": _text(record["edited_by"], 40, (where[0] + "修改人", where[1] + "edited_by")),
    }
    if "checks" in record:
        hand["checks"] = _checks(record["checks"], seats, where)
    if "voided_at" not in record:
        if record.keys() & VOID_FIELDS:
            _refuse(f"第{seq}局没有作废时间 voided_at。", f"Hand {seq} has no voided_at.")
        return hand
    record = _object(record, HAND_FIELDS | VOID_FIELDS, (f"第{seq}局", f"Hand {seq}"), optional=HAND_OPTIONAL)
    fix = record["dealer_fix"], record["streak_fix"]
    if fix != (None, None):
        _int(fix[0], 0, seats - 1, (where[0] + "更正庄家", where[1] + "dealer_fix"))
        _int(fix[1], 0, MAX_STREAK, (where[0] + "更正连庄数", where[1] + "streak_fix"))
    return {
        **hand,
        "voided_at": _time(record["voided_at"], (where[0] + "作废时间", where[1] + "voided_at")),
        "voided_by": _text(record["voided_by"], 40, (where[0] + "作废人", where[1] + "voided_by")),
        "void_reason": _text(record["void_reason"], 200, (where[0] + "作废原因", where[1] + "void_reason")),
        "entry": record["entry"],
        "dealer_fix": fix[0],
        "streak_fix": fix[1],
    }


def _checks(raw, seats: int, where: tuple[str, str]) -> list[dict]:
    """A hand's 核对: at most one per person of the hand (its ``seats``)."""
    if not isinstance(raw, list) or len(raw) > seats:
        _refuse(
            f"{where[0]}核对 checks 应为最多 {seats} 条的列表。", f"{where[1]}checks must be a list of at most {seats}."
        )
    checks = []
    for item in raw:
        check = _object(item, CHECK_FIELDS, (where[0] + "核对", where[1] + "check"))
        person = _text(check["person"], 40, (where[0] + "核对人", where[1] + "check's person"))
        if not key(person) or key(person) in {key(c["person"]) for c in checks}:
            _refuse(f"{where[0]}核对人应各不相同、不为空。", f"{where[1]}checks must be by different people, named.")
        if check["verdict"] not in ("ok", "wrong"):
            _refuse(f"{where[0]}核对结果应为 ok 或 wrong。", f"{where[1]}check's verdict must be ok or wrong.")
        checks.append(
            {
                "person": person,
                "verdict": check["verdict"],
                "note": _text(check["note"], 200, (where[0] + "核对说明", where[1] + "check's note")),
                "at": _time(check["at"], (where[0] + "核对时间", where[1] + "check's at")),
            }
        )
    return checks


def _hands(raw, ruleset, standing: int) -> list[dict]:
    if not isinstance(raw, list) or len(raw) > MAX_RECORDS:
        _refuse(f"hands 应为最多 {MAX_RECORDS} 局的列表。", f"hands must be a list of at most {MAX_RECORDS}.")
    hands = [_hand(h, ruleset, ruleset.seats) for h in raw]
    if any(a["seq"] >= b["seq"] for a, b in pairwise(hands)):
        _refuse("局号 seq 应依次递增。", "seq must increase hand by hand.")
    if sum("voided_at" not in h for h in hands) != standing:
        _refuse(
            f"有效的局数与牌局记录（{standing} 局）不符。", f"The standing hands do not match the {standing} hands."
        )
    return hands


def _pending(raw, seats: int) -> dict:
    """The bets placed for the next hand (义乌 {"maizi": [seats], "xiazi": {"seat": amount}})."""
    pending = _object(raw, frozenset(), ("下注 pending", "pending"), optional=frozenset(("maizi", "xiazi")))
    maizi, xiazi = pending.get("maizi", []), pending.get("xiazi", {})
    if not isinstance(maizi, list) or not isinstance(xiazi, dict) or not xiazi.keys() <= {str(s) for s in range(seats)}:
        _refuse("下注 pending 应为买子的座位和下子的数额。", "pending must hold 买子 seats and 下子 amounts.")
    seats_bought = [_int(s, 0, seats - 1, ("买子的座位", "A 买子 seat")) for s in maizi]
    amounts = {s: _int(a, 1, MAX_STREAK, ("下子的数额", "A 下子 amount")) for s, a in xiazi.items()}
    return {"maizi": sorted(set(seats_bought)), "xiazi": amounts} if pending else {}


def _points(value) -> object:
    """A total as the contract writes it: a whole number, or a half in 诸暨."""
    whole = isinstance(value, int) and not isinstance(value, bool)
    half = isinstance(value, float) and math.isfinite(value) and (2 * value).is_integer()
    if not (whole or half) or abs(value) >= LIMIT:
        _refuse("总分 totals 应为数。", "totals must be numbers.")
    return from_json(value)


def _names(raw, people: list[str]) -> list[str] | None:
    """The settlement's people (``names``): some of the game's people, each once; None if absent."""
    if raw is None:
        return None
    known = {key(name) for name in people}
    if (
        not isinstance(raw, list)
        or not raw
        or any(not isinstance(name, str) or key(name) not in known for name in raw)
        or len({key(name) for name in raw}) != len(raw)
    ):
        _refuse(
            "结算的 names 应为这一场里的人，每人一次。",
            "The settlement's names must be people of this game, each once.",
        )
    return raw


def _settlement(raw, people: list[str]) -> dict | None:
    """The settlement by person, indexed by its ``names`` (format 3) or else the game's people."""
    if raw is None:
        return None
    s = _object(raw, SETTLEMENT_FIELDS, ("结算", "the settlement"), optional=SETTLEMENT_OPTIONAL)
    names = _names(s.get("names"), people)
    people = len(names if names is not None else people)
    if s["fee_mode"] not in FEE_MODES:
        _refuse(f"台费分法应为 {' / '.join(FEE_MODES)}。", f"fee_mode must be one of {', '.join(FEE_MODES)}.")
    if not isinstance(s["transfers"], list) or len(s["transfers"]) > people:
        _refuse("转账 transfers 应为列表。", "transfers must be a list.")
    transfers = [_object(t, TRANSFER_FIELDS, ("每笔转账", "each transfer")) for t in s["transfers"]]
    return {
        "rate_fen": _int(s["rate_fen"], 1, MAX_RATE_YUAN * 100, ("每点多少分 rate_fen", "rate_fen")),
        "fee_fen": _int(s["fee_fen"], 0, MAX_FEE_YUAN * 100, ("台费 fee_fen", "fee_fen")),
        "fee_mode": s["fee_mode"],
        "fee_payee": _int(s["fee_payee"], 0, people - 1, ("垫付台费的人", "fee_payee")),
        "names": names,
        "round_yuan": _flag(s.get("round_yuan", False), ("抹零 round_yuan", "round_yuan")),
        "created_at": _time(s["created_at"], ("结算时间", "The settlement's created_at")),
        "paid": [
            (
                _int(t["payer"], 0, people - 1, ("付款人 payer", "payer")),
                _int(t["payee"], 0, people - 1, ("收款人 payee", "payee")),
                _int(t["amount_fen"], 1, MAX_TRANSFER_FEN, ("转账金额 amount_fen", "amount_fen")),
                _time(t["paid_at"], ("已付时间", "paid_at"), optional=True),
            )
            for t in transfers
        ],
    }


def _paycodes(raw, people: list[str]) -> list[dict]:
    """The game's 收款码, each checked as the upload would take it (scoring/paycodes.py), one per kind per person."""
    if raw is None:
        return []
    if not isinstance(raw, list) or len(raw) > 2 * len(people):
        _refuse("收款码 paycodes 应为列表。", "paycodes must be a list.")
    known, out, seen = {key(name): name for name in people}, [], set()
    for item in raw:
        code = _object(item, PAYCODE_FIELDS, ("每个收款码", "each payment code"))
        address = _text(code["address"], 200, ("收款码地址", "A payment code's address"))
        name = _text(code["name"], 40, ("收款码的人", "A payment code's name"))
        if look_alike(address):
            continue  # not a real code: left out, and the restore says so (backup.py ``notes``)
        if key(name) not in known or code["kind"] != kind_of(address) or (key(name), code["kind"]) in seen:
            _refuse(
                f"收款码（{name}）应为这一场里的人的微信或支付宝收款码，每人每种一个。",
                f"The payment code of {name} must be a WeChat or Alipay code of a person of this game, one of each.",
            )
        seen.add((key(name), code["kind"]))
        created_at = _time(code["created_at"], ("收款码的时间", "A payment code's created_at"))
        out.append({"name": known[key(name)], "kind": code["kind"], "address": address, "created_at": created_at})
    return out


def read_backup(data: dict, ruleset, people: list[str]) -> dict | None:
    """``data``'s ``backup`` object checked (``BackupError`` says what is wrong), or None for a file without one."""
    if "backup" not in data:
        return None
    raw = _object(data["backup"], BACKUP_FIELDS, ("backup", "backup"), optional=BACKUP_OPTIONAL)
    if raw["format"] not in READABLE:
        _refuse(
            f"格式 {raw['format']!r} 不是这个版本能读的（{FORMAT}）。", f"format {raw['format']!r} is not {FORMAT}."
        )
    if raw["status"] not in (Game.PLAYING, Game.FINISHED):
        _refuse("状态 status 应为 playing 或 finished。", "status must be playing or finished.")
    settlement = _settlement(raw["settlement"], people)
    if (raw["status"] == Game.FINISHED) != (settlement is not None):
        _refuse("已结束的牌局才有结算，反之亦然。", "A finished game has a settlement, and only a finished one.")
    totals = raw["totals"]
    if not isinstance(totals, list) or len(totals) != ruleset.seats:
        _refuse(f"总分 totals 应为 {ruleset.seats} 个数。", f"totals must be {ruleset.seats} numbers.")
    return {
        "status": raw["status"],
        "created_at": _time(raw["created_at"], ("开局时间", "created_at")),
        "totals": [_points(t) for t in totals],
        "pending": _pending(raw["pending"], ruleset.seats),
        "hands": _hands(raw["hands"], ruleset, len(data["hands"])),
        "settlement": settlement,
        "round_length": _int(raw["round_length"], 1, MAX_ROUNDS, ("打几圈 round_length", "round_length"))
        if raw.get("round_length") is not None
        else None,
        "paycodes": _paycodes(raw.get("paycodes"), people),
        "checks_required": _flag(raw.get("checks_required", False), ("全部核对后才能结算", "checks_required")),
    }

"""One hand as entered (docs/contract.md "A 义乌 hand"): its shape parsed, the rules needing state judged in ``score``."""

from dataclasses import dataclass

from scoring.engine.errors import ScoringError, validate_object

from .wintypes import WIN_TYPES, WinType

HAND_FIELDS = frozenset(
    ("outcome", "winner", "win_type", "discarder", "maizi", "xiazi_join", "piao", "feeders", "caishen", "leaver")
)
OUTCOMES = ("win", "draw", "abandon")
MAX_CAISHEN = 4


@dataclass(frozen=True, slots=True)
class HandEntry:
    outcome: str
    winner: int | None = None
    win_type: WinType | None = None
    discarder: int | None = None
    maizi: tuple[int, int, int, int] | None = None  # None = unchanged
    xiazi_join: dict[int, int | None] | None = None  # seat -> amount (None = the full amount)
    piao_player: int | None = None
    piao_level: int = 0
    feeders: tuple[int, ...] = ()
    caishen: int | None = None
    leaver: int | None = None


def _is_int(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _seat(value, field: str) -> int:
    if not _is_int(value) or not 0 <= value <= 3:
        raise ScoringError(f"{field} 应为座位号 0-3（东南西北）", f"{field} must be a seat 0-3", field)
    return value


def _maizi(value) -> tuple[int, int, int, int]:
    if (
        not isinstance(value, list)
        or len(value) != 4
        or any(type(v) not in (int, bool) or v not in (0, 1) for v in value)
    ):
        raise ScoringError("买子 maizi 应为 4 个 0/1 标记", "maizi must be 4 flags (0/1 or true/false)", "maizi")
    return tuple(int(v) for v in value)


def _xiazi_join(value) -> dict[int, int | None]:
    if isinstance(value, list):
        seats = [_seat(v, "xiazi_join") for v in value]
        if len(set(seats)) != len(seats):
            raise ScoringError("下子 xiazi_join 有重复的座位", "xiazi_join names a seat twice", "xiazi_join")
        return dict.fromkeys(seats)
    if isinstance(value, dict):
        joins = {}
        for key, amount in value.items():
            if not isinstance(key, str) or key not in ("0", "1", "2", "3"):
                raise ScoringError(
                    '下子 xiazi_join 的键应为座位 "0"-"3"', 'xiazi_join keys must be seats "0"-"3"', "xiazi_join"
                )
            if not _is_int(amount) or amount < 1:
                raise ScoringError(
                    "下子数额应为正整数", "A xiazi (bet) amount must be a positive whole number", "xiazi_join"
                )
            joins[int(key)] = amount
        return joins
    raise ScoringError(
        "下子 xiazi_join 应为座位列表或 {座位: 数额}",
        "xiazi_join must be a list of seats or {seat: amount}",
        "xiazi_join",
    )


def _piao(value) -> tuple[int, int]:
    if not isinstance(value, dict) or set(value) != {"player", "level"}:
        raise ScoringError(
            '飘 piao 应为 {"player": 座位, "level": 1 或 2}', 'piao must be {"player": seat, "level": 1 or 2}', "piao"
        )
    level = value["level"]
    if not _is_int(level) or level not in (1, 2):
        raise ScoringError(
            "飘的级别应为 1（单飘）或 2（双飘）", "piao level must be 1 (single float) or 2 (double float)", "piao"
        )
    return _seat(value["player"], "piao.player"), level


def _feeders(value) -> tuple[int, ...]:
    if not isinstance(value, list):
        raise ScoringError("喂家 feeders 应为座位列表", "feeders must be a list of seats", "feeders")
    return tuple(_seat(v, "feeders") for v in value)


def _caishen(value) -> int:
    if not _is_int(value) or not 0 <= value <= MAX_CAISHEN:
        raise ScoringError(f"财神数应为 0-{MAX_CAISHEN}", f"caishen must be a count 0-{MAX_CAISHEN}", "caishen")
    return value


def parse_hand(raw) -> HandEntry:
    validate_object(raw, HAND_FIELDS, "每一局应为一个对象", "Each hand must be an object", "hand")
    outcome = raw.get("outcome")
    if outcome not in OUTCOMES:
        raise ScoringError(
            "outcome 应为 win（胡）、draw（流局）或 abandon（逃跑）", "outcome must be win, draw or abandon", "outcome"
        )
    win_type = None
    if "win_type" in raw:
        win_type = WIN_TYPES.get(raw["win_type"]) if isinstance(raw["win_type"], str) else None
        if win_type is None:
            raise ScoringError("未知的胡牌型", "Unknown win type", "win_type")
    piao_player, piao_level = _piao(raw["piao"]) if "piao" in raw else (None, 0)
    return HandEntry(
        outcome=outcome,
        winner=_seat(raw["winner"], "winner") if "winner" in raw else None,
        win_type=win_type,
        discarder=_seat(raw["discarder"], "discarder") if "discarder" in raw else None,
        maizi=_maizi(raw["maizi"]) if "maizi" in raw else None,
        xiazi_join=_xiazi_join(raw["xiazi_join"]) if "xiazi_join" in raw else None,
        piao_player=piao_player,
        piao_level=piao_level,
        feeders=_feeders(raw["feeders"]) if "feeders" in raw else (),
        caishen=_caishen(raw["caishen"]) if "caishen" in raw else None,
        leaver=_seat(raw["leaver"], "leaver") if "leaver" in raw else None,
    )

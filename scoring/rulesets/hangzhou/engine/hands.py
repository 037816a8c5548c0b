"""One 杭州 hand as entered (docs/rules/hangzhou.md §7): its shape, no win naming a discarder; §4 is judged in ``score``."""

from dataclasses import dataclass

from scoring.engine.errors import ScoringError, required, validate_object, win_or_draw
from scoring.engine.fans import parse_patterns

from .patterns import MAX_CAIPIAO

HAND_FIELDS = frozenset(("outcome", "winner", "discarder", "patterns", "caipiao", "chengbao"))
WIN_FIELDS = ("winner", "discarder", "patterns", "caipiao", "chengbao")
SEATS = 4


@dataclass(frozen=True, slots=True)
class HandEntry:
    outcome: str  # "win" | "draw"
    winner: int | None = None
    patterns: tuple[str, ...] = ()  # as listed; none is a 平和
    caipiao: int = 0  # §3 财飘: the 财神 discarded in a row before the win
    chengbao: tuple[int, ...] = ()  # §5 the seats that chowed three times from their 上家


DRAW = HandEntry("draw")


def _seat(value, field: str) -> int:
    if value.__class__ is not int or not 0 <= value < SEATS:
        raise ScoringError(f"{field} 应为座位号 0-3", f"{field} must be a seat 0-3", field)
    return value


def _caipiao(value) -> int:
    if value.__class__ is not int or not 0 <= value <= MAX_CAIPIAO:
        raise ScoringError(
            f"§4 财飘（caipiao）应为 0-{MAX_CAIPIAO}：胡牌前连续打出几个财神",
            f"§4 caipiao (wild float) must be 0-{MAX_CAIPIAO}: the wilds discarded in a row before the win",
            "caipiao",
        )
    return value


def _chengbao(value) -> tuple[int, ...]:
    if value.__class__ is not list or len(value) > SEATS:
        raise ScoringError(
            "chengbao 应为座位号的列表（承包：吃了上家三次的人）",
            "chengbao must be a list of seats (liable: who chowed three times from their left)",
            "chengbao",
        )
    seats = tuple(_seat(s, "chengbao") for s in value)
    if len(set(seats)) != len(seats):
        raise ScoringError("§4 承包的座位不能重复", "§4 A seat is listed twice in chengbao", "chengbao")
    return tuple(sorted(seats))


def parse_hand(raw) -> HandEntry:
    validate_object(raw, HAND_FIELDS, "每一局应为一个对象", "Each hand must be an object", "hand")
    if win_or_draw(raw, WIN_FIELDS) == "draw":
        return DRAW
    if "discarder" in raw:  # JSON null too: there is no discarder to name (§1, §4)
        raise ScoringError(
            "§4 杭州麻将只能自摸胡：胡牌不填放铳者（discarder）",
            "§4 Hangzhou wins are self-drawn only: a win names no discarder",
            "discarder",
        )
    winner = _seat(required(raw, "winner", "胡牌需要填写谁胡了", "A win needs a winner"), "winner")
    patterns = parse_patterns(raw["patterns"]) if "patterns" in raw else ()
    caipiao = _caipiao(raw["caipiao"]) if "caipiao" in raw else 0
    chengbao = _chengbao(raw["chengbao"]) if "chengbao" in raw else ()
    return HandEntry("win", winner, patterns, caipiao, chengbao)

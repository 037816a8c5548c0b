"""One toy hand (a win, 自摸 or on a discard, or a draw): its shape checked."""

from dataclasses import dataclass

from scoring.engine.errors import ScoringError, required, validate_object, win_or_draw

HAND_FIELDS = frozenset(("outcome", "winner", "discarder"))
SEATS = 4


@dataclass(frozen=True, slots=True)
class HandEntry:
    outcome: str  # "win" | "draw"
    winner: int | None = None
    discarder: int | None = None  # None = 自摸


def _seat(value, field: str) -> int:
    if value.__class__ is not int or not 0 <= value < SEATS:
        raise ScoringError(f"{field} 应为座位号 0-3", f"{field} must be a seat 0-3", field)
    return value


def parse_hand(raw) -> HandEntry:
    validate_object(raw, HAND_FIELDS, "每一局应为一个对象", "Each hand must be an object", "hand")
    if win_or_draw(raw, ("winner", "discarder")) == "draw":
        return HandEntry("draw")
    winner = _seat(required(raw, "winner", "胡牌需要填写谁胡了", "A win needs a winner"), "winner")
    discarder = _seat(raw["discarder"], "discarder") if "discarder" in raw else None
    return HandEntry("win", winner, discarder)

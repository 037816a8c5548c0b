"""One hand as entered (docs/contract.md "A 武义二人 hand"): its shape; §4 is judged in ``score.score_hand``."""

from dataclasses import dataclass

from scoring.engine.errors import ScoringError, required, validate_object, win_or_draw
from scoring.engine.fans import parse_patterns

HAND_FIELDS = frozenset(("outcome", "winner", "discarder", "patterns"))
SEATS = 2


@dataclass(frozen=True, slots=True)
class HandEntry:
    outcome: str  # "win" | "draw"
    winner: int | None = None
    discarder: int | None = None  # None = 自摸
    patterns: tuple[str, ...] = ()  # as listed; the shape defaults to 平胡


DRAW = HandEntry("draw")


def _seat(value, field: str) -> int:
    if value.__class__ is not int or not 0 <= value < SEATS:
        raise ScoringError(
            f"{field} 应为座位号 0 或 1（两人麻将）", f"{field} must be a seat 0 or 1 (two players)", field
        )
    return value


def parse_hand(raw) -> HandEntry:
    validate_object(raw, HAND_FIELDS, "每一局应为一个对象", "Each hand must be an object", "hand")
    if win_or_draw(raw, ("winner", "discarder", "patterns")) == "draw":
        return DRAW
    winner = _seat(required(raw, "winner", "胡牌需要填写谁胡了", "A win needs a winner"), "winner")
    # JSON null is not a 自摸: a 自摸 leaves the discarder out (docs/contract.md "A game (input)").
    discarder = _seat(raw["discarder"], "discarder") if "discarder" in raw else None
    patterns = parse_patterns(raw["patterns"]) if "patterns" in raw else ()
    return HandEntry("win", winner, discarder, patterns)

"""诸暨麻将 (docs/rules/zhuji.md): 4 players, 台 counted by the winner, payments of base · 2^台."""

from scoring.engine.ruleset import register_package

from . import analyse, explain, hands, rules, score
from .hands import HandEntry, Tai, parse_hand, parse_tai, seat_wind, tai_count, tai_items
from .rules import DEFAULT_PRESET, PRESETS, RULE_INFO, Rules, parse_rules
from .score import HandResult, Payment, TableState, advance, score_hand
from .validity import validate_win

# Amounts may be halves (§5): a manual hand may be typed in halves too.
ZHUJI = register_package(
    "zhuji",
    "诸暨麻将",
    "Zhuji",
    4,
    package=__name__,
    rules=rules,
    hands=hands,
    score=score,
    explain=explain,
    analyser=analyse,
    halves=True,
    count_word=("台", "Tai"),
    field_terms={"tai": "台"},
    why_to_json=explain.why_to_json,  # a why holds the Tai, which JSON writes as the tai object
)

__all__ = [
    "DEFAULT_PRESET",
    "PRESETS",
    "RULE_INFO",
    "ZHUJI",
    "HandEntry",
    "HandResult",
    "Payment",
    "Rules",
    "TableState",
    "Tai",
    "advance",
    "parse_hand",
    "parse_rules",
    "parse_tai",
    "score_hand",
    "seat_wind",
    "tai_count",
    "tai_items",
    "validate_win",
]

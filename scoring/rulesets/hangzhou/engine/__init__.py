"""杭州麻将 (docs/rules/hangzhou.md): 4 players, 白 the 财神, self-drawn wins only, 番 to a cap, 老庄 and 承包."""

from scoring.engine.ruleset import register_package

from . import analyse, explain, hands, rules, score
from .hands import HandEntry, parse_hand
from .patterns import BY_CODE, CODES, GROUPS, LISTABLE, PATTERNS, Pattern, chengbao_problem, chips_of, conflicts
from .rules import DEFAULT_PRESET, LEVELS, LEVELS_EN, PRESETS, RULE_INFO, Rules, level, parse_rules
from .score import HandResult, Payment, TableState, advance, factors, fan_items, score_hand

HANGZHOU = register_package(
    "hangzhou",
    "杭州麻将",
    "Hangzhou",
    4,
    package=__name__,
    rules=rules,
    hands=hands,
    score=score,
    explain=explain,
    analyser=analyse,
    count_word=("番", "Fan"),
    field_terms={"fan": "番", "patterns": "番型", "caipiao": "财飘", "chengbao": "承包"},
)

__all__ = [
    "BY_CODE",
    "CODES",
    "DEFAULT_PRESET",
    "GROUPS",
    "HANGZHOU",
    "LEVELS",
    "LEVELS_EN",
    "LISTABLE",
    "PATTERNS",
    "PRESETS",
    "RULE_INFO",
    "HandEntry",
    "HandResult",
    "Pattern",
    "Payment",
    "Rules",
    "TableState",
    "advance",
    "chengbao_problem",
    "chips_of",
    "conflicts",
    "factors",
    "fan_items",
    "level",
    "parse_hand",
    "parse_rules",
    "score_hand",
]

"""武义二人麻将 (docs/rules/wuyi2.md): 2 players, 番 that add up (倍 = 2^番), 放铳 and 庄 doublings."""

from scoring.engine.ruleset import register_package

from . import analyse, explain, hands, rules, score
from .hands import HandEntry, parse_hand
from .patterns import BY_CODE, CODES, GROUPS, LISTABLE, PATTERNS, Pattern, conflicts
from .rules import DEFAULT_PRESET, PRESETS, RULE_INFO, Rules, parse_rules
from .score import HandResult, Payment, TableState, advance, fan_items, score_hand

WUYI2 = register_package(
    "wuyi2",
    "武义二人麻将",
    "Wuyi (2 players)",
    2,
    package=__name__,
    rules=rules,
    hands=hands,
    score=score,
    explain=explain,
    analyser=analyse,
    count_word=("番", "Fan"),
    field_terms={"fan": "番", "patterns": "番型"},
)

__all__ = [
    "BY_CODE",
    "CODES",
    "DEFAULT_PRESET",
    "GROUPS",
    "LISTABLE",
    "PATTERNS",
    "PRESETS",
    "RULE_INFO",
    "WUYI2",
    "HandEntry",
    "HandResult",
    "Pattern",
    "Payment",
    "Rules",
    "TableState",
    "advance",
    "conflicts",
    "fan_items",
    "parse_hand",
    "parse_rules",
    "score_hand",
]

"""武义二人麻将 (docs/rules/wuyi2.md): 2 players, 番 that add up (倍 = 2^番), 放铳 and 庄 doublings."""

from ..ruleset import register_package
from . import explain, hands, replay, rules
from .hands import HandEntry, parse_hand
from .patterns import BY_CODE, CODES, GROUPS, LISTABLE, PATTERNS, Pattern, conflicts
from .replay import HandResult, Payment, TableState, advance, fan_items, score_hand
from .rules import DEFAULT_PRESET, PRESETS, RULE_INFO, Rules, parse_rules

WUYI2 = register_package(
    "wuyi2", "武义二人麻将", "Wuyi (2 players)", 2, rules=rules, hands=hands, replay=replay, explain=explain
)
new_state = WUYI2.new_state

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
    "new_state",
    "parse_hand",
    "parse_rules",
    "score_hand",
]

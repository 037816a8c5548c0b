"""义乌麻将 (docs/rules/yiwu.md): 4 players, 庄/闲 pair units, win-type multipliers, 买子/下子, 飘/承包."""

from ..ruleset import register_package
from . import explain, hands, replay, rules
from .hands import HandEntry, parse_hand
from .replay import HandResult, Payment, TableState
from .rules import DEFAULT_PRESET, PRESETS, RULE_INFO, Rules, parse_rules
from .wintypes import COMMON_ORDER, SEATS_EN, SEATS_ZH, WIN_TYPES, WinType

YIWU = register_package("yiwu", "义乌麻将", "Yiwu", 4, rules=rules, hands=hands, replay=replay, explain=explain)

__all__ = [
    "COMMON_ORDER",
    "DEFAULT_PRESET",
    "PRESETS",
    "RULE_INFO",
    "SEATS_EN",
    "SEATS_ZH",
    "WIN_TYPES",
    "YIWU",
    "HandEntry",
    "HandResult",
    "Payment",
    "Rules",
    "TableState",
    "WinType",
    "parse_hand",
    "parse_rules",
]

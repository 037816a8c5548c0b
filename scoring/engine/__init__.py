"""The Yiwu scoring engine: plain Python, no Django (yiwu-rules.md, scoring-contract.md)."""

from .contract import score_game, score_game_or_error
from .errors import ScoringError
from .hands import Hand, parse_hand
from .replay import HandResult, Payment, TableState, replay, score_hand
from .rules import DEFAULT_PRESET, PRESETS, RULE_INFO, Rules, parse_rules, preset
from .settle import min_transfers
from .wintypes import COMMON_ORDER, SEATS_EN, SEATS_ZH, WIN_TYPES, WinType

__all__ = [
    "COMMON_ORDER",
    "DEFAULT_PRESET",
    "PRESETS",
    "RULE_INFO",
    "SEATS_EN",
    "SEATS_ZH",
    "WIN_TYPES",
    "Hand",
    "HandResult",
    "Payment",
    "Rules",
    "ScoringError",
    "TableState",
    "WinType",
    "min_transfers",
    "parse_hand",
    "parse_rules",
    "preset",
    "replay",
    "score_game",
    "score_game_or_error",
    "score_hand",
]

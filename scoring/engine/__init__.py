"""The scoring engine: plain Python, no Django (docs/contract.md).

One package per ruleset (``yiwu``, and beside it the others), each building a ``Ruleset``
(``ruleset.py``); ``game.replay`` and ``contract.score_game`` work for every ruleset.
"""

from .contract import score_game, score_game_or_error
from .errors import ScoringError
from .game import replay, score
from .ruleset import DEFAULT_RULESET, Ruleset, all_rulesets, get_ruleset
from .transfers import min_transfers
from .wuyi2 import WUYI2
from .yiwu import (
    COMMON_ORDER,
    PRESETS,
    RULE_INFO,
    SEATS_EN,
    SEATS_ZH,
    WIN_TYPES,
    YIWU,
    HandResult,
    Payment,
    Rules,
    TableState,
    WinType,
    parse_hand,
    parse_rules,
)
from .zhuji import ZHUJI

__all__ = [
    "COMMON_ORDER",
    "DEFAULT_RULESET",
    "PRESETS",
    "RULE_INFO",
    "SEATS_EN",
    "SEATS_ZH",
    "WIN_TYPES",
    "WUYI2",
    "YIWU",
    "ZHUJI",
    "HandResult",
    "Payment",
    "Rules",
    "Ruleset",
    "ScoringError",
    "TableState",
    "WinType",
    "all_rulesets",
    "get_ruleset",
    "min_transfers",
    "parse_hand",
    "parse_rules",
    "replay",
    "score",
    "score_game",
    "score_game_or_error",
]

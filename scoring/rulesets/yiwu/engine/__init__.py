"""义乌麻将 (docs/rules/yiwu.md): 4 players, 庄/闲 pair units, win-type multipliers, 买子/下子, 飘/承包."""

from scoring.engine.ruleset import register_package

from . import analyse, explain, hands, rules, score
from .hands import HandEntry, parse_hand
from .rules import DEFAULT_PRESET, PRESETS, RULE_INFO, Rules, parse_rules
from .score import HandResult, Payment, TableState
from .wintypes import COMMON_ORDER, WIN_TYPES, WinType

# Its contract fields as the table says them (an import's refusal: 「win_type 应为…」 → 「胡牌型 应为…」).
FIELD_TERMS = {
    "win_type": "胡牌型",
    "leaver": "谁逃跑",
    "maizi": "买子",
    "xiazi": "下子",
    "piao": "飘",
    "feeders": "喂家",
    "caishen": "财神数",
}

YIWU = register_package(
    "yiwu",
    "义乌麻将",
    "Yiwu",
    4,
    package=__name__,
    rules=rules,
    hands=hands,
    score=score,
    explain=explain,
    analyser=analyse,
    count_word=("倍数", "Multiplier"),
    field_terms=FIELD_TERMS,
    after_seating=score.after_seating,  # §7 §8: a change of people ends 买子 and 下子
)

__all__ = [
    "COMMON_ORDER",
    "DEFAULT_PRESET",
    "PRESETS",
    "RULE_INFO",
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

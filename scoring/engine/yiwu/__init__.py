"""义乌麻将 (yiwu-rules.md): 4 players, 庄/闲 pair units, win-type multipliers, 买子/下子, 飘/承包."""

from ..ruleset import Ruleset, register
from .explain import formula
from .hands import HandEntry, parse_hand
from .replay import HandResult, Payment, TableState, advance, score_hand
from .rules import DEFAULT_PRESET, PRESETS, RULE_INFO, Rules, parse_rules
from .wintypes import COMMON_ORDER, SEATS_EN, SEATS_ZH, WIN_TYPES, WinType


def new_state(first_dealer: int) -> TableState:
    return TableState(dealer=first_dealer)


YIWU = register(
    Ruleset(
        code="yiwu",
        zh="义乌麻将",
        en="Yiwu",
        seats=4,
        rules_class=Rules,
        rule_info=RULE_INFO,
        presets=PRESETS,
        default_preset=DEFAULT_PRESET,
        parse_rules=parse_rules,
        parse_hand=parse_hand,
        new_state=new_state,
        state_from_dict=TableState.from_dict,
        score_hand=score_hand,
        advance=advance,
        formula=formula,
    )
)

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

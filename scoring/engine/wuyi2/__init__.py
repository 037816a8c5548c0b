"""武义二人麻将 (wuyi2-rules.md): 2 players, 番 that add up (倍 = 2^番), 放铳 and 庄 doublings."""

from ..ruleset import Ruleset, register
from .explain import formula
from .hands import HandEntry, parse_hand
from .patterns import BY_CODE, CODES, GROUPS, LISTABLE, PATTERNS, Pattern, conflicts
from .replay import HandResult, Payment, TableState, advance, fan_items, new_state, score_hand
from .rules import DEFAULT_PRESET, PRESETS, RULE_INFO, Rules, parse_rules

WUYI2 = register(
    Ruleset(
        code="wuyi2",
        zh="武义二人麻将",
        en="Wuyi (2 players)",
        seats=2,
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

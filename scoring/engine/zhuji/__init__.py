"""诸暨麻将 (zhuji-rules.md): 4 players, 台 counted by the winner, payments of base · 2^台."""

from ..ruleset import Ruleset, register
from .checks import check_win
from .explain import SEATS_EN, SEATS_ZH, formula, why_to_json
from .hands import HandEntry, Tai, parse_hand, parse_tai, seat_wind, tai_count, tai_items
from .replay import HandResult, Payment, TableState, advance, score_hand
from .rules import DEFAULT_PRESET, PRESETS, RULE_INFO, Rules, parse_rules


def new_state(first_dealer: int) -> TableState:
    return TableState(dealer=first_dealer)


ZHUJI = register(
    Ruleset(
        code="zhuji",
        zh="诸暨麻将",
        en="Zhuji",
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
        why_to_json=why_to_json,
        halves=True,
    )
)

__all__ = [
    "DEFAULT_PRESET",
    "PRESETS",
    "RULE_INFO",
    "SEATS_EN",
    "SEATS_ZH",
    "ZHUJI",
    "HandEntry",
    "HandResult",
    "Payment",
    "Rules",
    "TableState",
    "Tai",
    "advance",
    "check_win",
    "new_state",
    "parse_hand",
    "parse_rules",
    "parse_tai",
    "score_hand",
    "seat_wind",
    "tai_count",
    "tai_items",
]

"""The table's state from hand to hand and each hand's score (docs/rules/wuyi2.md §1-§4)."""

from dataclasses import dataclass, field

from scoring.engine.errors import ScoringError
from scoring.engine.fans import FanResult as HandResult
from scoring.engine.fans import added, capped
from scoring.engine.payment import BasePayment
from scoring.engine.state import PlainState

from .explain import QQR_ZIMO, explain, formula
from .hands import HandEntry
from .patterns import DEFAULT_SHAPE, SHAPES, validate_patterns
from .rules import Rules


class Payment(BasePayment, explain=explain, formula=formula):
    __slots__ = ()


@dataclass(slots=True)
class TableState(PlainState):
    """§1: the deal, the 连庄 and the totals of the two seats; nothing else carries over."""

    totals: list[int] = field(default_factory=lambda: [0, 0])


def fan_items(rules: Rules, patterns: tuple, self_drawn: bool) -> tuple:
    """§2: the (code, 番) pairs that add up (平胡 when no shape is listed, 自摸 when nobody discarded)."""
    table = rules.fan_table
    items = [] if SHAPES.intersection(patterns) else [(DEFAULT_SHAPE, table[DEFAULT_SHAPE])]
    for code in patterns:
        if code == "quanqiuren" and self_drawn:
            items.append((QQR_ZIMO, table[DEFAULT_SHAPE]))
        else:
            items.append((code, table[code]))
    if self_drawn:
        items.append(("zimo", table["zimo"]))
    return tuple(items)


def score_hand(rules: Rules, state: TableState, hand: HandEntry) -> HandResult:
    dealer = state.dealer
    if hand.outcome != "win":
        return HandResult(dealer, state.streak, 0, net=[0, 0], payments=[])
    winner, discarder = hand.winner, hand.discarder
    if discarder == winner:
        raise ScoringError(
            "§4 放铳者应是另一位玩家，不能是胡牌者自己", "§4 The discarder must be the other player", "discarder"
        )
    self_drawn = discarder is None
    validate_patterns(hand.patterns, winner, dealer, self_drawn)
    items = fan_items(rules, hand.patterns, self_drawn)
    raw_fan = added(items)
    fan = capped(raw_fan, rules.fan_cap)
    loser = 1 - winner
    mode = rules.dealer_double
    dealer_double = mode == "both" or (mode == "payer" and loser == dealer)
    amount = rules.base << fan
    if not self_drawn:
        amount *= 2
    if dealer_double:
        amount *= 2
    why = ("win", dealer, items, raw_fan, fan, rules.base, not self_drawn, dealer_double)
    net = [amount, -amount] if winner == 0 else [-amount, amount]
    return HandResult(dealer, state.streak, fan, net=net, payments=[Payment(loser, winner, amount, why)])


def advance(rules: Rules, state: TableState, hand: HandEntry, result: HandResult) -> None:
    """§1: the dealer stays on a dealer win or a draw; the other player's win passes the deal."""
    totals = state.totals
    totals[0] += result.net[0]
    totals[1] += result.net[1]
    if hand.outcome != "win":
        return
    if hand.winner == state.dealer:
        state.streak += 1
    else:
        state.dealer = hand.winner
        state.streak = 0

"""The table's state from hand to hand and each hand's score (docs/rules/hangzhou.md §2-§5)."""

from scoring.engine.errors import ScoringError
from scoring.engine.fans import FanResult as HandResult
from scoring.engine.fans import added, capped
from scoring.engine.payment import BasePayment
from scoring.engine.state import PlainState

from .explain import explain, formula
from .hands import HandEntry
from .patterns import CAIPIAO, PATTERNS, chengbao_problem, chips_of, validate_patterns
from .rules import Rules, level

SEATS = 4


class Payment(BasePayment, explain=explain, formula=formula):
    __slots__ = ()


class TableState(PlainState):
    """§2: the deal, the 老庄 (``streak``: level min(streak, 2) + 1) and the totals."""

    __slots__ = ()


def fan_items(rules: Rules, patterns: tuple, caipiao: int) -> tuple:
    """§3: the (code, 番 each, times) that add up, in the table's order."""
    table, listed = rules.fan_table, set(patterns)
    if caipiao:
        listed.add("baotou")  # a 财飘 is always a 爆头 too, counted once
    items = []
    for p in PATTERNS:
        if p.code == CAIPIAO:
            if caipiao:
                items.append((CAIPIAO, table[CAIPIAO], caipiao if rules.caipiao_stack else 1))
        elif p.code in listed:
            items.append((p.code, table[p.code], 1))
    return tuple(items)


def validate_win(hand: HandEntry) -> None:
    """§4: the 番 go together, and a winner liable for three chows holds a hand with chows."""
    validate_patterns(hand.patterns, hand.caipiao)
    if hand.winner in hand.chengbao and (found := chengbao_problem(chips_of(hand.patterns, hand.caipiao))):
        raise ScoringError(found[0], found[1], field="chengbao")


def factors(rules: Rules, dealer: int, streak: int, winner: int) -> list[int]:
    """§5 what each seat pays in 基本分: 1, the dealer d, everyone d when the dealer wins (0 the winner)."""
    d = rules.factor(streak)
    return [0 if q == winner else d if dealer in (q, winner) else 1 for q in range(SEATS)]


def score_hand(rules: Rules, state: TableState, hand: HandEntry) -> HandResult:
    dealer, streak = state.dealer, state.streak
    if hand.outcome != "win":
        return HandResult(dealer, streak, 0, net=[0, 0, 0, 0], payments=[])
    validate_win(hand)
    items = fan_items(rules, hand.patterns, hand.caipiao)
    raw = added(items)
    fan = capped(raw, rules.fan_cap)
    winner, base = hand.winner, rules.base
    points = base << fan  # §5 基本分 B
    owed = factors(rules, dealer, streak, winner)
    common = (dealer, level(streak), rules.factor(streak), fan, raw, items, base)
    upper, lower = (winner - 1) % SEATS, (winner + 1) % SEATS
    liable = [seat for seat, on in ((upper, winner in hand.chengbao), (lower, lower in hand.chengbao)) if on]
    payments = []
    if not liable:
        for q in range(SEATS):
            if q != winner:
                payments.append(Payment(q, winner, points * owed[q], ("pay", *common, dealer in (q, winner))))
    else:  # §5 承包: the liable pay the whole hand T (the 下家 twice), the others nothing
        whole = points * sum(owed)
        shares = tuple(owed[(winner + n) % SEATS] for n in (1, 2, 3))  # 下家, 对家, 上家
        for q in sorted(liable):
            kind, times = ("upper", 1) if q == upper else ("lower", 2)
            payments.append(Payment(q, winner, whole * times, (kind, *common, shares)))
    net = [0, 0, 0, 0]
    for p in payments:
        net[p.payer] -= p.amount
        net[winner] += p.amount
    return HandResult(dealer, streak, fan, net=net, payments=payments)


def advance(rules: Rules, state: TableState, hand: HandEntry, result: HandResult) -> None:
    """§2: the totals; the dealer goes a level up (at most 三老庄) on their win or a draw, else the deal passes."""
    totals = state.totals
    for seat in range(SEATS):
        totals[seat] += result.net[seat]
    if hand.outcome != "win":
        if rules.laozhuang_on_draw:
            state.streak += 1
        return
    if hand.winner == state.dealer:
        state.streak += 1
        return
    state.dealer = hand.winner if rules.next_dealer == "winner" else (state.dealer + 1) % SEATS
    state.streak = 0

"""手动记分: a hand the rules do not model, the same in every ruleset (docs/contract.md "A manual hand")."""

import math
from dataclasses import dataclass
from fractions import Fraction

from .errors import ScoringError, unknown_field
from .hygiene import validate_text
from .payment import BasePayment
from .points import fmt, norm, to_json

FIELDS = frozenset(("outcome", "net", "note", "dealer"))
MAX_NOTE = 100
MAX_AMOUNT = 1_000_000
SEATS_ZH, SEATS_EN = "东南西北", "ESWN"


@dataclass(frozen=True, slots=True)
class ManualHand:
    net: tuple
    note: str
    dealer: int | None = None
    outcome: str = "manual"


def explain(payer: int, payee: int, amount, why, zh: bool = True, names=None) -> str:
    """e.g. 东→南 6 = 手动 · 诈胡罚分 (``names`` in seat order in place of the winds)."""
    seats = names or (SEATS_ZH if zh else SEATS_EN)
    return f"{seats[payer]}→{seats[payee]} {fmt(amount)} = {formula(why, zh)}"


def formula(why, zh: bool = True, names=None) -> str:
    """A manual payment's explanation: 手动 · the table's note."""
    return f"手动 · {why[1]}" if zh else f"manual · {why[1]}"


class ManualPayment(BasePayment, explain=explain, formula=formula):
    __slots__ = ()


@dataclass(slots=True)
class ManualResult:
    dealer: int
    streak: int
    net: list
    payments: list[ManualPayment]
    note: str
    paid_on = None  # paid on no 倍/台/番

    def to_dict(self) -> dict:

        return {
            "dealer": self.dealer,
            "streak": self.streak,
            "manual": True,
            "note": self.note,
            "net": [to_json(n) for n in self.net],
            "payments": [p.to_dict() for p in self.payments],
        }


def _err(zh: str, en: str, field: str) -> ScoringError:
    return ScoringError(zh, en, field)


def is_manual(raw) -> bool:
    return isinstance(raw, ManualHand) or (isinstance(raw, dict) and raw.get("outcome") == "manual")


def _amount(value, halves: bool):
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise _err("手动记分的每人得失应为数字", "Each manual amount must be a number", "net")
    if isinstance(value, float) and not (math.isfinite(value) and abs(value) <= MAX_AMOUNT):
        raise _err(f"手动记分每人最多 {MAX_AMOUNT}", f"A manual amount is at most {MAX_AMOUNT}", "net")
    if isinstance(value, float):
        doubled = value * 2
        if not halves or doubled != int(doubled):
            if halves:
                raise _err("手动记分只能到半分（0.5）", "Manual amounts go in halves (0.5) at most", "net")
            raise _err("手动记分应为整数", "Manual amounts must be whole numbers", "net")
        value = norm(Fraction(int(doubled), 2))
    if abs(value) > MAX_AMOUNT:
        raise _err(f"手动记分每人最多 {MAX_AMOUNT}", f"A manual amount is at most {MAX_AMOUNT}", "net")
    return value


def parse(raw: dict, seats: int, halves: bool) -> ManualHand:
    """A ``ManualHand`` from the contract's HAND object; ``ScoringError`` (hand=None) if bad."""
    unknown = raw.keys() - FIELDS
    if unknown:
        raise unknown_field(sorted(unknown)[0])
    net = raw.get("net")
    if not isinstance(net, list) or len(net) != seats:
        raise _err(f"手动记分需要 {seats} 个人的得失", f"A manual hand needs {seats} amounts", "net")
    values = tuple(_amount(v, halves) for v in net)
    if sum(values) != 0:
        raise _err(
            f"手动记分的得失加起来应为 0（现在是 {fmt(norm(sum(values)), signed=True)}）",
            "A manual hand's amounts must add up to 0",
            "net",
        )
    note = raw.get("note")
    if not isinstance(note, str) or not note.strip() or len(note) > MAX_NOTE:
        raise _err(
            f"手动记分需要说明（1-{MAX_NOTE} 字）", f"A manual hand needs a note of 1-{MAX_NOTE} characters", "note"
        )
    validate_text(note, limit=MAX_NOTE, field="note", what=("说明", "The note"))
    dealer = raw.get("dealer")
    if "dealer" in raw and (isinstance(dealer, bool) or not isinstance(dealer, int) or not 0 <= dealer < seats):
        raise _err(f"dealer 应为座位号 0-{seats - 1}", f"dealer must be a seat 0-{seats - 1}", "dealer")
    return ManualHand(values, note, dealer)


def settle(net: tuple, note: str) -> list[ManualPayment]:
    """Greedy, largest first: the biggest loser pays the biggest winner as much as both allow."""
    owe = sorted(((-n, s) for s, n in enumerate(net) if n < 0), key=lambda x: (-x[0], x[1]))
    get = sorted(((n, s) for s, n in enumerate(net) if n > 0), key=lambda x: (-x[0], x[1]))
    owe, get = [list(x) for x in owe], [list(x) for x in get]
    paid: dict[tuple[int, int], int | Fraction] = {}
    i = j = 0
    while i < len(owe) and j < len(get):
        amount = min(owe[i][0], get[j][0])
        key = (owe[i][1], get[j][1])
        paid[key] = norm(paid.get(key, 0) + amount)
        owe[i][0] -= amount
        get[j][0] -= amount
        i += owe[i][0] == 0
        j += get[j][0] == 0
    return [ManualPayment(a, b, amount, ("manual", note)) for (a, b), amount in sorted(paid.items())]


def score_hand(state, hand: ManualHand) -> ManualResult:
    return ManualResult(state.dealer, state.streak, list(hand.net), settle(hand.net, hand.note), hand.note)


def advance(state, hand: ManualHand, result: ManualResult) -> None:
    state.totals[:] = [norm(t + n) for t, n in zip(state.totals, result.net, strict=True)]
    if hand.dealer is not None and hand.dealer != state.dealer:
        state.correct(hand.dealer, 0)


def with_manual(ruleset):
    """``ruleset`` whose parse/score/advance also take a manual hand, for every caller."""
    from dataclasses import replace

    parse_hand, score_hand_, advance_ = ruleset.parse_hand, ruleset.score_hand, ruleset.advance
    formula_, why_to_json_ = ruleset.formula, ruleset.why_to_json
    seats, halves = ruleset.seats, ruleset.halves

    def parse_any(raw):
        return parse(raw, seats, halves) if is_manual(raw) and isinstance(raw, dict) else parse_hand(raw)

    def score_any(rules, state, hand):
        return score_hand(state, hand) if isinstance(hand, ManualHand) else score_hand_(rules, state, hand)

    def advance_any(rules, state, hand, result):
        if isinstance(hand, ManualHand):
            advance(state, hand, result)
        else:
            advance_(rules, state, hand, result)

    def formula_any(why, zh: bool = True, names=None) -> str:
        return formula(why, zh, names) if why and why[0] == "manual" else formula_(why, zh, names)

    def why_to_json_any(why) -> list:
        return list(why) if why and why[0] == "manual" else why_to_json_(why)

    return replace(
        ruleset,
        parse_hand=parse_any,
        score_hand=score_any,
        advance=advance_any,
        formula=formula_any,
        why_to_json=why_to_json_any,
    )

"""Money at the end of the evening: points → 分 (fen), the table fee (台费) split, and the plan
that settles a game (the balances in 分 and the fewest transfers that clear them, transfers.py).

Every amount is an integer number of 分. Points × the rate (whole 分 per point) is exact for
whole points; 诸暨's half points at an odd rate are rounded by ``points_to_fen``. The table fee can
fail to divide, and then the largest-remainder rule decides who pays the
extra 分: the largest fractional shares first, ties to the earlier seat. The shares always add
up to the fee exactly. 抹零 (optional) rounds each final balance to whole 元 by the same rule
(``round_to_yuan``), so the rounded balances still sum to zero and the transfers are whole 元.
"""

import math
from dataclasses import dataclass
from fractions import Fraction

from .transfers import settle_balances

FEE_MODES = ("equal", "winners")


def split_fee(fee_fen: int, weights: list[int]) -> list[int]:
    """``fee_fen`` split in proportion to ``weights`` (non-negative), summing exactly."""
    total = sum(weights)
    if fee_fen < 0 or total <= 0 or any(w < 0 for w in weights):
        raise ValueError("a fee ≥ 0 and non-negative weights with a positive sum are needed")
    shares = [fee_fen * w // total for w in weights]
    remainders = [fee_fen * w % total for w in weights]
    short = fee_fen - sum(shares)
    for seat in sorted(range(len(weights)), key=lambda s: (-remainders[s], s))[:short]:
        shares[seat] += 1
    return shares


def fee_shares(fee_fen: int, balances_fen: list[int], mode: str) -> list[int]:
    """Who pays the table fee: everyone equally, or the winners in proportion to winnings."""
    if mode not in FEE_MODES:
        raise ValueError(f"fee mode must be one of {FEE_MODES}")
    winnings = [max(b, 0) for b in balances_fen]
    if mode == "equal" or not any(winnings):
        return split_fee(fee_fen, [1] * len(balances_fen))
    return split_fee(fee_fen, winnings)


def points_to_fen(points: list, rate_fen: int) -> list[int]:
    """Points × rate in whole 分. Exact for whole points; 诸暨's half points at an odd rate make
    half a 分: each balance is rounded down, then the 分 still missing go one each to the largest
    remainders (ties to the earlier seat), so the balances still sum to zero."""
    exact = [Fraction(p) * rate_fen for p in points]
    money = [math.floor(e) for e in exact]
    short = -sum(money)  # the exact values sum to 0, so the floors fall short by this many 分
    for seat in sorted(range(len(points)), key=lambda s: (-(exact[s] - money[s]), s))[:short]:
        money[seat] += 1
    return money


def needs_rounding(points: list, rate_fen: int) -> bool:
    """True when some balance falls on half a 分 (then ``points_to_fen`` rounds)."""
    return any((Fraction(p) * rate_fen).denominator != 1 for p in points)


def final_balances(points: list, rate_fen: int, fee_fen: int, mode: str, fee_payee: int) -> list[int]:
    """Each seat's balance in 分 after the fee: the one who pays the venue is owed the whole fee."""
    money = points_to_fen(points, rate_fen)
    shares = fee_shares(fee_fen, money, mode)
    balances = [m - s for m, s in zip(money, shares, strict=True)]
    balances[fee_payee] += fee_fen
    return balances


YUAN = 100  # 分 in a 元


def round_to_yuan(balances_fen: list[int]) -> list[int]:
    """抹零: each balance (in 分, summing to zero) to whole 元, still summing to zero, each moved by
    less than 1 元. Largest remainder: every balance rounded down to the 元, then the 元 still
    missing go one each to the largest 零头; on equal 零头 whoever owes goes first (the payer is let
    off the change, as 抹零 at a till), then the earlier in the list."""
    if sum(balances_fen) != 0:
        raise ValueError("balances must sum to zero")
    floors = [b // YUAN * YUAN for b in balances_fen]
    change = [b - f for b, f in zip(balances_fen, floors, strict=True)]
    short = -sum(floors) // YUAN  # the 零头 sum to whole 元, each under one: fewer than the nonzero ones
    order = sorted(range(len(balances_fen)), key=lambda i: (-change[i], balances_fen[i] >= 0, i))
    for i in order[:short]:
        floors[i] += YUAN
    return floors


def rounded_away(points: list, *, rate_fen: int, fee_fen: int, fee_mode: str, fee_payee: int) -> list[int]:
    """What 抹零 moved each balance by, in 分 (the rounded balance less the exact one): worked out
    again from a settlement's terms, never stored beside them."""
    exact = final_balances(points, rate_fen, fee_fen, fee_mode, fee_payee)
    return [r - e for r, e in zip(round_to_yuan(exact), exact, strict=True)]


@dataclass(frozen=True)
class PlannedTransfer:
    payer: int  # seat
    payee: int
    amount_fen: int


@dataclass(frozen=True)
class Plan:
    balances_fen: list[int]
    transfers: list[PlannedTransfer]
    fewest: bool = True  # False: many people, and the transfers may not be the fewest (transfers.py)
    rounded_away: list[int] | None = None  # 抹零: each balance's move to whole 元 in 分 (None: exact)


def settlement_plan(
    points: list, *, rate_fen: int, fee_fen: int, fee_mode: str, fee_payee: int, round_yuan: bool = False
) -> Plan:
    """A game's totals settled: each seat's balance in 分 after the fee (to whole 元 with
    ``round_yuan``), and the fewest transfers (or, with many people, few: ``fewest`` says which).
    Seats, not names, key the transfers: two players may share a name in an imported game."""
    balances = final_balances(points, rate_fen, fee_fen, fee_mode, fee_payee)
    moved = None
    if round_yuan:
        rounded = round_to_yuan(balances)
        moved, balances = [r - b for r, b in zip(rounded, balances, strict=True)], rounded
    transfers, fewest = settle_balances({str(seat): balance for seat, balance in enumerate(balances)})
    planned = [PlannedTransfer(int(a), int(b), amount) for a, b, amount in transfers]
    return Plan(balances, planned, fewest, moved)

"""From a game's totals to money: the balances in 分 and the fewest transfers that clear them."""

from dataclasses import dataclass

from scoring.engine import min_transfers
from scoring.engine.money import final_balances


@dataclass(frozen=True)
class PlannedTransfer:
    payer: int  # seat
    payee: int
    amount_fen: int


@dataclass(frozen=True)
class Plan:
    balances_fen: list[int]
    transfers: list[PlannedTransfer]


def settlement_plan(points: list[int], *, rate_fen: int, fee_fen: int, fee_mode: str, fee_payee: int) -> Plan:
    """Seats, not names, key the transfers: two players may share a name in an imported game."""
    balances = final_balances(points, rate_fen, fee_fen, fee_mode, fee_payee)
    transfers = min_transfers({str(seat): balance for seat, balance in enumerate(balances)})
    return Plan(balances, [PlannedTransfer(int(a), int(b), amount) for a, b, amount in transfers])

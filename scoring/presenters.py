"""What the game page shows, in plain values for the templates (no rules decided here)."""

from dataclasses import dataclass

from django.http import HttpRequest

from scoring import device
from scoring.engine import SEATS_ZH
from scoring.entry import entry_for, kind_for
from scoring.lang import chinese
from scoring.models import Game, Hand
from scoring.readmodel import GameView, HandView
from scoring.render import hand_rows_html


@dataclass
class Tile:
    seat: int
    wind: str
    name: str
    total: int
    dealer: bool
    streak: int
    marks: list[tuple[str, str]]  # (css class, text) badges such as 买, 下4
    me: bool


@dataclass
class PaymentLine:
    payer: str
    payee: str
    amount: int
    formula: str


@dataclass
class HandRow:
    hand: Hand
    title: str
    result: HandView | None
    nets: list[tuple[str, int]]
    payments: list[PaymentLine]
    dealer: str = ""


def hand_title(game: Game, entry: dict, result=None) -> str:
    """e.g. 南家 自摸 ×2, 北家 平胡 ×1 · 东家放铳, 流局 (in the game's ruleset's words)."""
    return kind_for(game, entry).title(game.players, entry, result)


def hand_row(game: Game, hand: Hand, result: HandView | None) -> HandRow:
    names = game.players
    nets = list(zip(names, result.net, strict=True)) if result else []
    payments = (
        [PaymentLine(names[p.payer], names[p.payee], p.amount, p.formula(chinese(), names)) for p in result.payments]
        if result
        else []
    )
    dealer = names[result.dealer] if result else ""
    return HandRow(hand, hand_title(game, hand.entry, result), result, nets, payments, dealer)


def tiles(game: Game, totals: list, ledger: GameView | None, me: int | None) -> list[Tile]:
    state = ledger.state if ledger else None
    kind = entry_for(game)
    marks = kind.marks
    return [
        Tile(
            seat=s,
            wind=kind.wind(state, s) if state else SEATS_ZH[s],
            name=game.players[s],
            total=totals[s],
            dealer=state is not None and state.dealer == s,
            streak=state.streak if state else 0,
            marks=marks(state, s, game.pending) if state else [],
            me=me == s,
        )
        for s in range(len(game.players))
    ]


def game_context(request: HttpRequest, game: Game, token: str, can_edit: bool, ledger: GameView | None) -> dict:
    me = device.my_seat(request, game.id)
    totals = ledger.totals if ledger else [0] * len(game.players)
    rows = [hand_row(game, row.hand, row.result) for row in reversed(ledger.rows)] if ledger else []
    last = next((row.hand for row in reversed(ledger.rows) if row.result is not None), None) if ledger else None
    playing = can_edit and game.status == Game.PLAYING and ledger is not None
    bets = entry_for(game).bets(game, ledger.state, game.engine_rules()) if playing else None
    return {
        "bets": bets,
        "rows_html": hand_rows_html(rows, token, can_edit),
        "game": game,
        "token": token,
        "can_edit": can_edit,
        "ledger": ledger,
        "tiles": tiles(game, totals, ledger, me),
        "rows": rows,
        "last_hand": last,
        "me": me,
        "seats": [(s, SEATS_ZH[s], game.players[s]) for s in range(len(game.players))],
    }

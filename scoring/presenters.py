"""What the game page shows, in plain values for the templates (no rules decided here)."""

from dataclasses import dataclass

from django.http import HttpRequest

from scoring import device
from scoring.engine import SEATS_ZH, WIN_TYPES, HandResult
from scoring.lang import chinese, pick
from scoring.models import Game, Hand
from scoring.render import hand_rows_html


@dataclass
class Tile:
    seat: int
    wind: str
    name: str
    total: int
    dealer: bool
    streak: int
    maizi: bool
    xiazi: int
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
    result: HandResult | None
    nets: list[tuple[str, int]]
    payments: list[PaymentLine]
    dealer: str = ""


def hand_title(game: Game, entry: dict) -> str:
    """e.g. 南家 自摸 ×2, 北家 平胡 ×1 · 东家放铳, 流局."""
    names = game.players
    if entry["outcome"] == "draw":
        piao = entry.get("piao")
        if piao and piao["level"] == 2:
            return pick(
                f"流局 · {names[piao['player']]}双飘不成", f"Draw · {names[piao['player']]}'s double float failed"
            )
        return pick("流局", "Draw")
    if entry["outcome"] == "abandon":
        return pick(f"{names[entry['leaver']]} 逃跑", f"{names[entry['leaver']]} left")
    win_type = WIN_TYPES[entry["win_type"]]
    title = f"{names[entry['winner']]} {pick(win_type.zh, win_type.en)} ×{win_type.multiplier}"
    if "discarder" in entry:
        title += pick(f" · {names[entry['discarder']]}放铳", f" · {names[entry['discarder']]} discarded")
    if entry.get("feeders"):
        title += pick(" · 承包", " · feeder liable")
    return title


def hand_row(game: Game, hand: Hand, result: HandResult | None) -> HandRow:
    names = game.players
    nets = [(names[s], result.net[s]) for s in range(4)] if result else []
    payments = (
        [PaymentLine(names[p.payer], names[p.payee], p.amount, p.formula(chinese(), names)) for p in result.payments]
        if result
        else []
    )
    dealer = names[result.dealer] if result else ""
    return HandRow(hand, hand_title(game, hand.entry), result, nets, payments, dealer)


def tiles(game: Game, totals: list[int], ledger, me: int | None) -> list[Tile]:
    state = ledger.state if ledger else None
    return [
        Tile(
            seat=s,
            wind=SEATS_ZH[s],
            name=game.players[s],
            total=totals[s],
            dealer=state is not None and state.dealer == s,
            streak=state.streak if state else 0,
            maizi=bool(state and state.maizi[s]),
            xiazi=state.xiazi[s] if state else 0,
            me=me == s,
        )
        for s in range(4)
    ]


def game_context(request: HttpRequest, game: Game, token: str, can_edit: bool, ledger) -> dict:
    me = device.my_seat(request, game.id)
    totals = ledger.totals if ledger else [0, 0, 0, 0]
    rows = [hand_row(game, row.hand, row.result) for row in reversed(ledger.rows)] if ledger else []
    last = next((row.hand for row in reversed(ledger.rows) if row.result is not None), None) if ledger else None
    return {
        "rows_html": hand_rows_html(rows, token, can_edit),
        "game": game,
        "token": token,
        "can_edit": can_edit,
        "ledger": ledger,
        "tiles": tiles(game, totals, ledger, me),
        "rows": rows,
        "last_hand": last,
        "me": me,
        "seats": [(s, SEATS_ZH[s], game.players[s]) for s in range(4)],
    }


@dataclass
class SeatOption:
    seat: int
    name: str
    checked: bool = False
    locked: bool = False  # 买子 already held this tenure, or 下子 already placed
    allowed: bool = True
    amount: int = 0  # 下子: the amount in force or on offer
    note: str = ""


def entry_options(game: Game, form, state, rules) -> dict:
    """The folded 「更多」 section: which 买子 and 下子 toggles exist, and how they stand."""
    data = form.cleaned_data if form.is_bound and hasattr(form, "cleaned_data") else {}
    chosen = set(data.get("maizi") or [])
    can_buy = state.may_buy_maizi(rules)
    maizi = [
        SeatOption(
            s,
            game.players[s],
            checked=bool(state.maizi[s]) or s in chosen,
            locked=bool(state.maizi[s]),
            allowed=can_buy or bool(state.maizi[s]),
            note=pick("已买，换庄前不退", "bought: kept until the dealer changes")
            if state.maizi[s]
            else ("" if can_buy else pick("连庄后不可买子", "no new 买子 after the first hand of a tenure")),
        )
        for s in range(4)
    ]
    full = state.join_amount(rules)
    xiazi = []
    for s in range(4):
        if s == state.dealer:
            continue
        if state.xiazi[s]:
            xiazi.append(
                SeatOption(
                    s, game.players[s], checked=True, locked=True, amount=state.xiazi[s], note=f"已下{state.xiazi[s]}"
                )
            )
        elif full:
            xiazi.append(
                SeatOption(s, game.players[s], checked=bool(data.get(f"xz{s}")), amount=data.get(f"xz{s}") or full)
            )
    return {
        "maizi_options": maizi,
        "xiazi_options": xiazi,
        "join_amount": full,
        "up_to": rules.xiazi_amount == "up_to",
        "up_to_range": range(1, full + 1),
        "more_open": any(
            data.get(k) not in (None, "", [])
            for k in ("maizi", "piao_player", "caishen", "dealer_fix", "streak_fix", "xz0", "xz1", "xz2", "xz3")
        ),
    }

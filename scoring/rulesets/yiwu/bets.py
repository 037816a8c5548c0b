"""义乌's bets placed before a hand (docs/rules/yiwu.md §7 买子, §8 下子): kept on the game until the
hand is recorded, shown on every phone, filled into the record form, and moved past a voided hand
to the next one that stands."""

from dataclasses import dataclass

from scoring.forms import BetForm
from scoring.handform.base import BetRefused, seated_names
from scoring.lang import pick
from scoring.models import Game


def valid_pending(pending: dict, state) -> tuple[list[int], dict[int, int]]:
    """The pending bets that still make sense at ``state`` (an undo may have changed it)."""
    maizi = sorted({s for s in pending.get("maizi", []) if s in range(4) and not state.maizi[s]})
    xiazi = {
        int(s): a
        for s, a in (pending.get("xiazi") or {}).items()
        if state.join_mult and int(s) != state.dealer and not state.xiazi[int(s)]
    }
    return maizi, xiazi


def change_bet(pending: dict, state, rules, *, bet: str, seat: int, amount: int | None, on: bool) -> dict:
    """Place (``on``) or withdraw one bet; ``BetRefused`` names the rule that forbids it."""
    maizi, xiazi = valid_pending(pending, state)
    if bet == "maizi":
        if on:
            if state.maizi[seat]:
                raise BetRefused("已买子，换庄前不退。", "Already bought: kept until the dealer changes.")
            if not state.may_buy_maizi(rules):
                raise BetRefused("§7 连庄后不可买子。", "§7 No new buy-in (maizi) after the first hand of a tenure.")
            maizi = sorted({*maizi, seat})
        else:
            maizi = [s for s in maizi if s != seat]
    else:
        if on:
            full = state.join_amount(rules)
            if not full:
                raise BetRefused(
                    "§8 只有庄家胡牌后的下一局才能下子。", "§8 A bet (xiazi) only right after a dealer win."
                )
            if seat == state.dealer:
                raise BetRefused("§8 庄家不能下子。", "§8 The dealer never places a bet (xiazi).")
            if state.xiazi[seat]:
                raise BetRefused("§8 已经下子了。", "§8 Already placed.")
            if rules.xiazi_amount == "fixed" or amount is None:
                amount = full
            elif not 1 <= amount <= state.join_mult:
                raise BetRefused(f"§8 下子为 1 到 {state.join_mult}。", f"§8 A bet (xiazi) is 1 to {state.join_mult}.")
            xiazi[seat] = min(amount, full)
        else:
            xiazi.pop(seat, None)
    return {"maizi": maizi, "xiazi": {str(s): a for s, a in sorted(xiazi.items())}}


def prefill(data, pending: dict, state, rules):
    """The record form's first answers with the pending bets filled in (still editable there)."""
    maizi, xiazi = valid_pending(pending or {}, state)
    if not maizi and not xiazi:
        return data
    data = data.copy()
    if maizi and "maizi" not in data:
        data.setlist("maizi", [str(s) for s in maizi])
    for seat, amount in xiazi.items():
        data.setdefault(f"xz{seat}", str(amount))
    return data


def placed_bets(entry: dict, state, rules) -> dict:
    """The bets placed before the hand ``entry`` played at ``state`` (its new 买子 and 下子), as
    pending bets: a void keeps them for the next hand that stands (docs/rules/yiwu.md §7, §8)."""
    flags = entry.get("maizi") or [0] * 4
    joins = entry.get("xiazi_join") or []
    joins = joins if isinstance(joins, dict) else {str(s): None for s in joins}
    full = state.join_amount(rules)
    bets = {
        "maizi": [s for s in range(4) if flags[s] and not state.maizi[s]],
        "xiazi": {str(s): full if a is None else a for s, a in joins.items()},
    }
    return bets if bets["maizi"] or bets["xiazi"] else {}


def move_bets(entry: dict, bets: dict, state, rules) -> dict | None:
    """``entry`` with ``bets`` (as ``placed_bets`` gives them) placed before it at ``state``."""
    moved = dict(entry)
    if bets.get("maizi"):
        flags = entry.get("maizi") or state.maizi
        moved["maizi"] = [1 if flags[s] or state.maizi[s] or s in bets["maizi"] else 0 for s in range(4)]
    if bets.get("xiazi"):
        joins = entry.get("xiazi_join") or []
        joins = dict(joins) if isinstance(joins, dict) else {str(s): None for s in joins}
        joins.update(bets["xiazi"])
        fixed = rules.xiazi_amount == "fixed"
        moved["xiazi_join"] = sorted(map(int, joins)) if fixed else dict(sorted(joins.items()))
    return moved


def merge_pending(pending: dict, bets: dict) -> dict:
    """The game's pending bets with ``bets`` added (a void of the last hand gives them back)."""
    maizi = sorted({*pending.get("maizi", []), *bets.get("maizi", [])})
    return {"maizi": maizi, "xiazi": {**(pending.get("xiazi") or {}), **bets.get("xiazi", {})}}


@dataclass
class BetOffer:
    seat: int
    name: str
    placed: bool = False
    amount: int = 0
    note: str = ""  # why it cannot be placed


def bets(game: Game, state, rules) -> dict:
    """The game page's 「下一局下注」: 下子 for each 闲 right after a dealer win, 买子 for each player."""
    maizi, xiazi = valid_pending(game.pending or {}, state)
    names = seated_names(game, state)
    can_buy = state.may_buy_maizi(rules)
    buy = []
    for s in range(4):
        note = ""
        if state.maizi[s]:
            note = pick("已买，换庄前不退", "bought: kept until the dealer changes")
        elif not can_buy:
            note = pick("连庄后不可买子", "no new buy-in after a tenure's first hand")
        buy.append(BetOffer(s, names[s], placed=s in maizi, note=note))
    full, bet = state.join_amount(rules), []
    if full:
        for s in range(4):
            if s == state.dealer:
                continue
            note = pick(f"已下{state.xiazi[s]}", f"placed {state.xiazi[s]}") if state.xiazi[s] else ""
            bet.append(BetOffer(s, names[s], placed=s in xiazi, amount=xiazi.get(s, full), note=note))
    return {
        "dealer_name": names[state.dealer],
        "maizi": buy,
        "maizi_points": rules.maizi_points,
        "xiazi": bet,
        "join_amount": full,
        "up_to": rules.xiazi_amount == "up_to",
        "form": BetForm(seats=4, amounts=range(1, min(state.join_mult, full) + 1), initial={"amount": full}),
    }

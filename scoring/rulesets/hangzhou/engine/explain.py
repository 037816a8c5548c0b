"""Explanations a table can check, e.g. ``北→东 16 = 2^2 番（爆头1 + 财飘1）× 4 庄·二老庄``.

why = (kind, dealer, level, d, fan, raw_fan, items, base, last): ``items`` the (code, 番 each, times)
added up, ``fan`` after the cap, ``d`` the dealer's factor at 老庄 ``level``; kind ``pay``, or 承包's
``upper`` (they pay the whole hand) or ``lower`` (twice the whole hand).
"""

from scoring.engine.fans import power
from scoring.engine.points import fmt
from scoring.engine.seats import SEATS_EN, SEATS_ZH

from .patterns import BY_CODE
from .rules import LEVELS, LEVELS_EN

PLAIN = ("平和", "Plain win")
LIABLE = {
    "upper": ("包三家（胡家吃了上家三次）", "for all three (the winner chowed three times from them)"),
    "lower": ("包三家加倍（下家吃了胡家三次）", "for all three, doubled (they chowed three times from the winner)"),
}


def _items(items, zh: bool) -> str:
    parts = []
    for code, each, times in items:
        if each * times:
            p = BY_CODE[code]
            label, sep = (p.zh, "") if zh else (p.en, " ")
            parts.append(f"{label}{sep}{each}" + (f"×{times}" if times != 1 else ""))
    return " + ".join(parts) or PLAIN[not zh]


def dealer_words(level: int, zh: bool = True) -> str:
    """「庄·二老庄」 / "dealer, level 2"."""
    return f"庄·{LEVELS[level - 1]}" if zh else f"dealer, {LEVELS_EN[level - 1]}"


def formula(why, zh: bool = True, names=None) -> str:
    """The right-hand side (``names``: the common interface; it names no players)."""
    kind, _dealer, level, d, fan, raw, items, base, last = why
    text = power(_items(items, zh), raw, fan, base, zh)
    if kind == "pay":  # right after the full-width bracket the Chinese needs no space: ）× 4 庄·二老庄
        return f"{text}{'' if zh else ' '}× {d} {dealer_words(level, zh)}" if last else text
    shares = " + ".join(str(n) for n in last)
    if kind == "lower":
        text = f"2 × {text}"
    liable = LIABLE[kind][not zh]
    if zh:
        return f"{text}×（{shares}）{liable}，{dealer_words(level)} ×{d}"
    return f"{text} × ({shares}) {liable}, {dealer_words(level, False)} ×{d}"


def explain(payer: int, payee: int, amount, why, zh: bool = True, names=None) -> str:
    """The whole line; ``names`` (seat order) replaces the seat winds in "A→B"."""
    seats = names if names is not None else (SEATS_ZH if zh else SEATS_EN)
    return f"{seats[payer]}→{seats[payee]} {fmt(amount)} = {formula(why, zh)}"

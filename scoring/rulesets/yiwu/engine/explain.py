"""Explanations a player can check at the table, e.g. ``西→南 6 = (闲5 + 放铳1) × 1 平胡``.

A payment's *why* is a tuple of codes and numbers, made into text only when asked (every replay
would be slower), stored as JSON as it is. Whys (``terms``: (term code, points); ``shares``:
(seat, points); ``wt``: a win-type code): ("win", terms, M, wt, discarder_extra),
("feeder_all", shares, wt), ("feeder_shared", own, others' shares, n_feeders, wt),
("fanpei", factor, shares, wt), ("feeder_left", shares, M), ("shuangpiao_draw", terms, mult),
("abandon", terms, c).
"""

from scoring.engine.seats import SEATS_EN, SEATS_ZH

from .wintypes import WIN_TYPES

# A unit term's labels by code, see score._terms.
TERMS = {
    "dealer": ("庄", "dealer"),
    "base": ("闲", "base"),
    "maizi": ("买子", "maizi"),
    "xiazi": ("下子", "xiazi"),
    "discard": ("放铳", "discard"),
}


def _unit(terms, zh: bool) -> str:
    parts = [f"{TERMS[code][0]}{n}" if zh else f"{TERMS[code][1]} {n}" for code, n in terms]
    joined = " + ".join(parts)
    return f"({joined})" if len(parts) > 1 else joined


def _shares(shares, zh: bool, names=None) -> str:
    """e.g. 东56 + 南40, or with the table's names 老王56 + 小李40."""
    if names is None:
        names = SEATS_ZH if zh else SEATS_EN
    return " + ".join(f"{names[q]}{s}" if zh else f"{names[q]} {s}" for q, s in shares)


def formula(why, zh: bool = True, names=None) -> str:
    """The right-hand side of the explanation; ``names`` (seat order) replaces the winds."""
    kind = why[0]
    if kind == "win":
        _, terms, m, code, extra = why
        wt = WIN_TYPES[code]
        name = wt.zh if zh else wt.en
        if extra == "plus1":
            terms = [*terms, ("discard", 1)]
        elif extra == "double":
            return f"{_unit(terms, zh)} × 2 {'放铳加倍' if zh else 'discard'} × {m} {name}"
        return f"{_unit(terms, zh)} × {m} {name}"
    if kind == "feeder_all":
        _, shares, code = why
        wt = WIN_TYPES[code]
        if zh:
            return f"承包全赔 ({_shares(shares, True, names)})，{wt.zh} ×{wt.multiplier}"
        return f"feeder pays all ({_shares(shares, False, names)}), {wt.en} ×{wt.multiplier}"
    if kind == "feeder_shared":
        _, own, others, n, code = why
        wt = WIN_TYPES[code]
        if not others:
            return f"承包：自己的份 {own}，{wt.zh} ×{wt.multiplier}" if zh else f"liability: own {own}, {wt.en}"
        if zh:
            return f"承包分摊：自己{own} + ({_shares(others, True, names)}) ÷ {n}，{wt.zh} ×{wt.multiplier}"
        return f"shared liability: own {own} + ({_shares(others, False, names)}) / {n}, {wt.en} ×{wt.multiplier}"
    if kind == "fanpei":
        _, k, shares, code = why
        wt = WIN_TYPES[code]
        if zh:
            return f"反赔 {k} × ({_shares(shares, True, names)})，{wt.zh} ×{wt.multiplier}"
        return f"reverse pay {k} × ({_shares(shares, False, names)}), {wt.en} ×{wt.multiplier}"
    if kind == "shuangpiao_draw":
        _, terms, mult = why
        return f"{_unit(terms, zh)} × {mult} {'双飘不成' if zh else 'failed double float'}"
    if kind == "abandon":
        _, terms, c = why
        return f"{_unit(terms, zh)} × {c} {'逃跑' if zh else 'abandon'}"
    # ("feeder_left", shares, M): a feeder left, paying the 飘 player's success
    _, shares, m = why
    if zh:
        return f"喂家逃跑，包赔飘成 ({_shares(shares, True, names)})，×{m}"
    return f"feeder left: pays the float's success ({_shares(shares, False, names)}), ×{m}"


def explain(payer: int, payee: int, amount: int, why, zh: bool = True, names=None) -> str:
    """The whole line; ``names`` (seat order) replaces the winds."""
    seats = names if names is not None else (SEATS_ZH if zh else SEATS_EN)
    return f"{seats[payer]}→{seats[payee]} {amount} = {formula(why, zh, names)}"

"""Explanations a player can check at the table, e.g. ``闲→庄 32 = 2^3 番（七对子爆头）× 2 放铳 × 2 庄``.

why = ("win", dealer, items, raw_fan, fan, base, discard, dealer_double): ``items`` the (code, 番)
pairs added up, ``fan`` after the cap, ``discard`` and ``dealer_double`` whether each doubling applied.
"""

from scoring.engine.fans import power

from .patterns import BY_CODE

QQR_ZIMO = "quanqiuren@zimo"  # 全求人 on a 自摸: scores as 平胡 (§2, §5)
ROLE_ZH = ("闲", "庄")  # indexed by "is the dealer"
ROLE_EN = ("Non-dealer", "Dealer")
DOUBLINGS = (("放铳", "discard"), ("庄", "dealer"))  # (zh, en), in the order they apply


def _label(code: str, zh: bool) -> str:
    if code == QQR_ZIMO:
        return "全求人自摸按平胡" if zh else "All from others, self-drawn: as Plain win"
    p = BY_CODE[code]
    return p.zh if zh else p.en


def _items(items: tuple, zh: bool) -> str:
    shown = [(c, f) for c, f in items if f or c == QQR_ZIMO]
    if not shown:  # nothing scored: name the shape
        return _label(items[0][0], zh)
    if len(shown) == 1:
        return _label(shown[0][0], zh)
    sep = "" if zh else " "
    return " + ".join(f"{_label(c, zh)}{sep}{f}" for c, f in shown)


def formula(why: tuple, zh: bool = True, names=None) -> str:
    """The right-hand side (``names``: the common interface; it names no players)."""
    _, _dealer, items, raw_fan, fan, base, discard, dealer_double = why
    text = power(_items(items, zh), raw_fan, fan, base, zh)
    doubled = [f"× 2 {label[not zh]}" for label, on in zip(DOUBLINGS, (discard, dealer_double), strict=True) if on]
    # Right after the full-width bracket the Chinese needs no space: ）× 2 放铳 × 2 庄.
    return text + (" ".join(doubled) if zh else "".join(" " + d for d in doubled))


def head(payer: int, payee: int, dealer: int, zh: bool = True, names=None) -> str:
    """``闲→庄`` (or the table's names in seat order)."""
    if names is not None:
        return f"{names[payer]}→{names[payee]}"
    roles = ROLE_ZH if zh else ROLE_EN
    return f"{roles[payer == dealer]}→{roles[payee == dealer]}"


def explain(payer: int, payee: int, amount: int, why: tuple, zh: bool = True, names=None) -> str:
    return f"{head(payer, payee, why[1], zh, names)} {amount} = {formula(why, zh, names)}"

"""A toy payment's explanation: ``南→东 4 = 底分2 × 2 自摸``.

why = (kind, base, shares): kind "zimo" or "discard"."""

from scoring.engine.seats import SEATS_EN, SEATS_ZH

KIND = {"zimo": ("自摸", "self-drawn"), "discard": ("放冲", "discard")}


def formula(why, zh: bool = True, names=None) -> str:
    kind, base, shares = why
    word = KIND[kind][not zh]
    return f"底分{base} × {shares} {word}" if zh else f"base {base} × {shares} {word}"


def explain(payer: int, payee: int, amount: int, why, zh: bool = True, names=None) -> str:
    seats = names if names is not None else (SEATS_ZH if zh else SEATS_EN)
    return f"{seats[payer]}→{seats[payee]} {amount} = {formula(why, zh, names)}"

"""Explanations a table can check, e.g. ``西→东 16 = 2^4 台（东风2 + 中1 + 混一色1）``.

``why`` = (role, T paid on, T before the cap, base, Tai, winner, dealer), role ``zimo`` (each pays
base·2^T), ``discarder`` (base·2^T) or ``half`` (the other two on a discard: base·2^(T−1)).
"""

from scoring.engine.points import fmt
from scoring.engine.seats import SEATS_EN, SEATS_ZH

from .hands import NO_TAI, Tai, tai_items

# What a role adds after the 台 (zh, en); a 自摸 adds nothing.
ROLE_NOTES = {
    "discarder": ("，放冲全付", ", discarder pays in full"),
    "half": ("，没放冲付一半", ", half: not the discarder"),
}


def formula(why: tuple, zh: bool = True, names=None) -> str:
    role, t, raw, base, tai, winner, dealer = why
    power = f"2^({t}−1)" if role == "half" else f"2^{t}"
    if base != 1:
        power = f"{base} × {power}"
    items = tai_items(tai, winner, dealer)
    note = ROLE_NOTES[role][not zh] if role in ROLE_NOTES else ""
    if zh:
        listed = " + ".join(f"{i[0]}{i[2]}" for i in items)
        capped = f" = {raw}，封顶{t}台" if raw != t else ""
        return f"{power} 台（{listed}{capped}）{note}"
    listed = " + ".join(f"{i[1]} {i[2]}" for i in items)
    capped = f" = {raw}, capped at {t}" if raw != t else ""
    return f"{power} tai ({listed}{capped}){note}"


def explain(payer: int, payee: int, amount, why: tuple, zh: bool = True, names=None) -> str:
    """The whole line; ``names`` (seat order) replaces the seat winds in "A→B"."""
    seats = names if names is not None else (SEATS_ZH if zh else SEATS_EN)
    return f"{seats[payer]}→{seats[payee]} {fmt(amount)} = {formula(why, zh)}"


def why_to_json(why: tuple) -> list:
    """The why as JSON: the ``Tai`` becomes the contract's tai object (only what was declared)."""
    role, t, raw, base, tai, winner, dealer = why
    return [role, t, raw, base, tai_json(tai) if isinstance(tai, Tai) else tai, winner, dealer]


def tai_json(tai: Tai) -> dict:
    data = {}
    for name in Tai.__slots__:
        value = getattr(tai, name)
        if value != getattr(NO_TAI, name):
            data[name] = list(value) if isinstance(value, tuple) else value
    return data

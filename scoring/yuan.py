"""Money as the table says it: 元 with two decimals, one minus sign (U+2212), from whole 分 (fen).

A point (分 at the table) is never money: the pages and the share text say 元 (¥) throughout.
"""

MINUS = "\u2212"


def yuan(fen: int, signed: bool = False) -> str:
    """``104.00``, ``−19.00``, ``+34.00`` (with ``signed``): exact, from whole 分."""
    whole, cents = divmod(abs(int(fen)), 100)
    text = f"{whole}.{cents:02d}"
    if fen < 0:
        return MINUS + text
    return f"+{text}" if signed and fen > 0 else text


def yuan_text(fen: int) -> str:
    """元 as a table says a rate or a fee: 0.5, 40, 1.05."""
    return yuan(fen).rstrip("0").rstrip(".")

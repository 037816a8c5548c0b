"""Money as the table says it, from whole 分 (fen): 元 with two decimals in the balances' column, as a
player writes it in words (「阿明 → 老王 47 元」); a point is never money."""

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


def yuan_amount(fen: int) -> str:
    """An amount as a player writes it: ``153``, ``12.50`` (no needless .00; 分 kept when any)."""
    text = yuan(abs(int(fen)))
    return text.removesuffix(".00")


def money(fen: int, zh: bool) -> str:
    """「47 元」 or "¥47": a transfer or a fee."""
    return f"{yuan_amount(fen)} 元" if zh else f"¥{yuan_amount(fen)}"


def won_or_lost(fen: int, zh: bool) -> str:
    """「赢 153 元」「输 47 元」「不输不赢」, or "won ¥153", "lost ¥47", "even"."""
    if fen == 0:
        return "不输不赢" if zh else "even"
    if zh:
        return f"{'赢' if fen > 0 else '输'} {money(fen, zh)}"
    return f"{'won' if fen > 0 else 'lost'} {money(fen, zh)}"


def rounding_words(names: list[str], moved: list[int], zh: bool) -> str:
    """抹零 in a line (the share text, the picture): 「抹零：老王 −0.50，阿明 +0.50」, each person it moved."""
    parts = [f"{name} {yuan(fen, signed=True)}" for name, fen in zip(names, moved, strict=True) if fen]
    if not parts:
        return "抹零：都是整元，没有零头" if zh else "Rounded to whole yuan: everyone was on whole yuan already"
    return f"抹零：{'，'.join(parts)}" if zh else f"Rounded to whole yuan: {', '.join(parts)}"

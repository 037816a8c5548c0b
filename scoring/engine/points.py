"""Points are exact: ints, or Fraction halves where 诸暨 needs them (docs/rules/zhuji.md §5); whole values stay int."""

from fractions import Fraction


def norm(value):
    """An int when whole, else the Fraction itself."""
    if isinstance(value, Fraction) and value.denominator == 1:
        return int(value)
    return value


def to_json(value):
    """JSON for a point amount: an integer when whole, else x.5 (exact in a binary float)."""
    value = norm(value)
    return value if isinstance(value, int) else float(value)


def from_json(value):
    """Back from ``to_json``: ints stay ints, x.5 becomes an exact Fraction."""
    if isinstance(value, float):
        return norm(Fraction(value))
    return value


def fmt(value, signed: bool = False) -> str:
    """``2``, ``0.5``, ``+2.5``, ``−3`` (one minus sign, U+2212, as the pages show money)."""
    value = norm(value)
    text = str(value) if isinstance(value, int) else f"{float(value):.1f}"
    if text.startswith("-"):
        return "−" + text[1:]
    return f"+{text}" if signed and value > 0 else text

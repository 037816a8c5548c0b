"""One 14-tile hand as the rulesets read it: plain counts, wilds, and the hand short of ``last``
and a lone wild (财神头 / 爆头, docs/analysis.md "What each ruleset answers" and "Wilds")."""

from typing import NamedTuple

from .tiles import played_kinds, split_hand


class Hand(NamedTuple):
    counts: tuple[int, ...]
    wilds: int
    last: int | None  # the kind ``last`` plays as; None when ``last`` is a wild
    lone: tuple[tuple[int, ...], int] | None  # (counts, wilds) without last and a held wild

    @classmethod
    def of(cls, ruleset: str, flip: int, kinds, last: int) -> "Hand":
        counts, wilds = split_hand(ruleset, flip, kinds)
        return cls.made(counts, wilds, played_kinds(ruleset, flip)[last])

    @classmethod
    def plus(cls, counts, wilds: int, played: int | None) -> "Hand":
        """13 tiles' plain counts and wilds with ``last`` added, playing as ``played`` (None: a wild)."""
        if played is None:
            return cls.made(counts, wilds + 1, None)
        counts = list(counts)
        counts[played] += 1
        return cls.made(counts, wilds, played)

    @classmethod
    def made(cls, counts, wilds: int, played: int | None) -> "Hand":
        """The hand of these plain counts and wilds, ``last`` playing as ``played``."""
        rest_wilds = wilds - (played is None)
        lone = None
        if rest_wilds >= 1:
            rest = list(counts)
            if played is not None:
                rest[played] -= 1
            lone = (tuple(rest), rest_wilds - 1)
        return _new(cls, (tuple(counts), wilds, played, lone))  # Hand(...), made faster


_new = tuple.__new__  # a named tuple made from a tuple, without its Python-level __new__

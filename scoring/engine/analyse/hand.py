"""One 14-tile hand as the rulesets read it: plain counts, wilds, and the hand short of ``last``
and a lone wild (财神头 / 爆头, docs/analysis.md "What each ruleset answers" and "Wilds")."""

from dataclasses import dataclass

from .tiles import plain_kind, split_hand


@dataclass(frozen=True, slots=True)
class Hand:
    counts: tuple[int, ...]
    wilds: int
    last: int | None  # the kind ``last`` plays as; None when ``last`` is a wild
    lone: tuple[tuple[int, ...], int] | None  # (counts, wilds) without last and a held wild

    @classmethod
    def of(cls, ruleset: str, flip: int, kinds, last: int) -> "Hand":
        counts, wilds = split_hand(ruleset, flip, list(kinds))
        played = plain_kind(ruleset, flip, last)
        rest, rest_wilds = list(counts), wilds
        if played is None:
            rest_wilds -= 1
        else:
            rest[played] -= 1
        lone = (tuple(rest), rest_wilds - 1) if rest_wilds >= 1 else None
        return cls(tuple(counts), wilds, played, lone)

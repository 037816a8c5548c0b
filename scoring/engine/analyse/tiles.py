"""Tile codes, 34-count vectors and the wild (财神) rules of docs/analysis.md "Tiles" and "Wilds".

Index 0-8 万, 9-17 筒, 18-26 条, 27-33 东南西北中发白; code order is index order. ``flip`` is the
flipped tile's kind, None where the wilds are fixed.
"""

from functools import cache, lru_cache

from .analyser import analyser, trait

CODES: tuple[str, ...] = tuple(f"{n}{s}" for s in "mps" for n in range(1, 10)) + tuple("ESWNCFP")
INDEX: dict[str, int] = {code: i for i, code in enumerate(CODES)}
N_KINDS = 34
HONOUR0 = 27  # first honour index
E, S, W, N, C, F, P = range(27, 34)
WINDS = (E, S, W, N)
DRAGONS = (C, F, P)


def suit_of(kind: int) -> int:
    """0, 1, 2 for 万 筒 条; 3 for an honour."""
    return kind // 9 if kind < HONOUR0 else 3


def next_kind(kind: int) -> int:
    """The next kind for 诸暨's second wild (docs/rules/zhuji.md §1): 1→…→9→1, E→S→W→N→E, C→F→P→C."""
    if kind < HONOUR0:
        base = kind - kind % 9
        return base + (kind % 9 + 1) % 9
    if kind <= N:
        return E + (kind - E + 1) % 4
    return C + (kind - C + 1) % 3


class Memo(dict):
    """A memo (a dict) emptied like the lru caches, by ``cache_clear`` (bench/analyse.py)."""

    cache_clear = dict.clear


@cache
def _wild_rule(ruleset: str) -> tuple[bool, bool, frozenset[int] | None]:
    """(next kind wild too, 白板 stands in, the fixed wild kinds or None) as the ruleset's 算牌 says, kept per code."""
    fixed = trait(ruleset, "WILDS")
    fixed = None if fixed is None else frozenset(INDEX[code] for code in fixed)
    rules = analyser(ruleset)
    return rules.NEXT_IS_WILD, rules.BAI_STANDS_IN, fixed


@lru_cache(maxsize=256)
def wild_kinds(ruleset: str, flip: int | None) -> frozenset[int]:
    """The kinds whose tiles are wild: the fixed ones, or the flip's and the next where the ruleset says (诸暨)."""
    next_is_wild, _, fixed = _wild_rule(ruleset)
    if fixed is not None:
        return fixed
    if next_is_wild:
        return frozenset((flip, next_kind(flip)))
    return frozenset((flip,))


def fixed_wilds(ruleset: str) -> bool:
    """Whether the ruleset's wilds are fixed: nothing is flipped, and a request sends no flip."""
    return _wild_rule(ruleset)[2] is not None


def split_hand(ruleset: str, flip: int | None, kinds: list[int]) -> tuple[list[int], int]:
    """(plain counts, number of wilds) of a hand given as kind indexes; where 白板 stands in it is the flip's kind."""
    counts = [0] * N_KINDS
    for kind in kinds:
        counts[kind] += 1
    wilds = 0
    for kind in wild_kinds(ruleset, flip):
        wilds += counts[kind]
        counts[kind] = 0
    if _wild_rule(ruleset)[1]:  # 白板 stands in: the flip's plain tiles are the 白板 (none when 白 is wild)
        counts[flip] += counts[P]
        counts[P] = 0
    return counts, wilds


def plain_kind(ruleset: str, flip: int | None, kind: int) -> int | None:
    """The kind a tile plays as, or None for a wild."""
    if kind in wild_kinds(ruleset, flip):
        return None
    if kind == P and _wild_rule(ruleset)[1]:
        return flip
    return kind


@lru_cache(maxsize=256)
def played_kinds(ruleset: str, flip: int | None) -> tuple[int | None, ...]:
    return tuple(plain_kind(ruleset, flip, kind) for kind in range(N_KINDS))

"""Readings of a hand: docs/analysis.md "Shapes", with wilds counted, never enumerated one by one.

A hand is a 34-count vector of plain tiles plus a number of wilds. The standard shape is searched
group by group (each suit, then the honours): ``_group`` lists every way the plain tiles of one
group can be used up in sets and at most one pair, with wilds filling gaps, memoised on the
group's 9- or 7-count tuple. The groups are then folded together and what is left of the wilds
makes whole wild sets (a wild pung or chow may be read as any kind, docs/analysis.md "Wilds").

What a reading keeps is cut down to what a ruleset scores (a *projection*):

- ``"y"`` (义乌): nothing — only whether a reading exists (``is_standard``).
- ``"z"`` (诸暨): ``(chows, honour-pung mask, pair class, suit mask)``.
- ``"w"`` (武义): ``(has a chow, suit mask, caishentou pair, sancai pung)``.

Suit mask: bits 0-2 for 万 筒 条 present, bit 3 for an honour present (as read, wilds included).
Pair class: 0-2 for a suited pair of that suit, 27-33 for an honour pair of that kind.
"""

from functools import lru_cache
from itertools import combinations_with_replacement, pairwise

from .tiles import HONOUR0, suit_of

HONOURS_BIT = 8
_EMPTY = frozenset({(0, 0, 0, 0, 0, -1)})


@lru_cache(maxsize=1 << 16)
def _group(counts: tuple, is_suit: bool, maxw: int) -> frozenset:
    """Every use of all of one group's plain tiles: ``(wilds, sets, pairs, chows, pung mask, pair)``.

    The lowest tile present is in a pung or pair of its kind, or (in a suit) in a chow starting
    two below, one below or at it; positions below it are wilds, positions above it are a plain
    tile or a wild. No wrap. ``pung mask`` has bit i for a pung of the group's i-th kind (used for
    honours); ``pair`` is the pair's position in the group or -1. At most 4 sets and 1 pair.
    """
    i = next((k for k, c in enumerate(counts) if c), -1)
    if i < 0:
        return _EMPTY
    out = set()
    c = list(counts)
    ci = c[i]
    bit = 0 if is_suit else 1 << i
    for k in range(1, min(3, ci) + 1):
        need = 3 - k
        if need <= maxw:
            c[i] = ci - k
            for w, s, p, ch, hp, pi in _group(tuple(c), is_suit, maxw - need):
                if s < 4:
                    out.add((w + need, s + 1, p, ch, hp | bit, pi))
    for k in range(1, min(2, ci) + 1):
        need = 2 - k
        if need <= maxw:
            c[i] = ci - k
            for w, s, p, ch, hp, _ in _group(tuple(c), is_suit, maxw - need):
                if p == 0:
                    out.add((w + need, s, 1, ch, hp, i))
    c[i] = ci
    if is_suit:
        for start in (i - 2, i - 1, i):
            if start < 0 or start > 6:
                continue
            highs = range(i + 1, start + 3)
            for use in range(1 << len(highs)):
                need = i - start
                c2 = list(c)
                c2[i] -= 1
                ok = True
                for b, pos in enumerate(highs):
                    if use >> b & 1:
                        if not c2[pos]:
                            ok = False
                            break
                        c2[pos] -= 1
                    else:
                        need += 1
                if not ok or need > maxw:
                    continue
                for w, s, p, ch, hp, pi in _group(tuple(c2), True, maxw - need):
                    if s < 4:
                        out.add((w + need, s + 1, p, ch + 1, hp, pi))
    return frozenset(out)


def _segments(counts) -> tuple[tuple, tuple, tuple, tuple]:
    return (tuple(counts[0:9]), tuple(counts[9:18]), tuple(counts[18:27]), tuple(counts[27:34]))


def _fold(counts, wilds: int, nsets: int, npair: int, full: bool) -> set:
    """States ``(wilds used, sets, pairs, chows, honour-pung mask, pair class)`` after every group.

    With ``full`` false only ``(wilds, sets, pairs)`` is kept (the rest zeroed), so the set stays tiny.
    """
    states = {(0, 0, 0, 0, 0, -1)}
    for g, seg in enumerate(_segments(counts)):
        if not any(seg):
            continue
        res = _group(seg, g < 3, wilds)
        new = set()
        for w, s, p, ch, hp, pc in states:
            for w2, s2, p2, ch2, hp2, pi in res:
                if w + w2 > wilds or s + s2 > nsets or p + p2 > npair:
                    continue
                if full:
                    pair = pc if pi < 0 else (g if g < 3 else HONOUR0 + pi)
                    new.add((w + w2, s + s2, p + p2, ch + ch2, hp | hp2, pair))
                else:
                    new.add((w + w2, s + s2, p + p2, 0, 0, -1))
        if not new:
            return new
        states = new
    return states


def plain_mask(counts) -> int:
    """Suit mask of the plain tiles (bit 3: an honour)."""
    mask = 0
    for g, seg in enumerate(_segments(counts)):
        if any(seg):
            mask |= 1 << g
    return mask


@lru_cache(maxsize=1 << 16)
def _is_standard(counts: tuple, wilds: int, nsets: int, npair: int) -> bool:
    total = sum(counts) + wilds
    if total != 3 * nsets + 2 * npair:
        return False
    # Every state left used all plain tiles; the tile count makes the leftover wilds whole sets.
    return bool(_fold(counts, wilds, nsets, npair, False))


@lru_cache(maxsize=1 << 16)
def _plain_ways(seg: tuple, is_suit: bool) -> int:
    """Without wilds, one group's tiles make: bit 0 only sets, bit 1 sets and one pair."""
    ways = 0
    for _, _, p, *_ in _group(seg, is_suit, 0):
        ways |= 2 if p else 1
    return ways


def _plain_standard(counts, npair: int) -> bool:
    """The wild-free case: each group must split into sets, one of them (the ``npair`` one) plus a pair."""
    pairs = 0
    for g in range(4):
        seg = tuple(counts[9 * g : 9 * g + 9]) if g < 3 else tuple(counts[27:34])
        n = sum(seg)
        if not n:
            continue
        rest = n % 3
        if rest == 1:
            return False
        if rest == 2:
            pairs += 1
            if pairs > npair or not _plain_ways(seg, g < 3) & 2:
                return False
        elif not _plain_ways(seg, g < 3) & 1:
            return False
    return pairs == npair


def is_standard(counts, wilds: int = 0, nsets: int = 4, npair: int = 1) -> bool:
    """Whether the tiles make ``nsets`` sets and ``npair`` pairs, wilds filling gaps (the standard shape)."""
    if not wilds:
        return sum(counts) == 3 * nsets + 2 * npair and _plain_standard(counts, npair)
    return _is_standard(tuple(counts), wilds, nsets, npair)


def _wild_pung_options(proj: str, flip: int) -> list[tuple]:
    """What a set of three wilds can be read as: ``(chows, honour-pung mask, suit mask, sancai)``."""
    fsuit = suit_of(flip)
    fmask = 1 << fsuit
    if proj == "z":
        opts = [(0, 1 << h, HONOURS_BIT, 0) for h in range(7)]
        opts += [(0, 0, 1 << s, 0) for s in range(3)] + [(1, 0, 1 << s, 0) for s in range(3)]
        return opts
    opts = [(0, 0, HONOURS_BIT, 0)] + [(0, 0, 1 << s, 0) for s in range(3)] + [(1, 0, 1 << s, 0) for s in range(3)]
    return [*opts, (0, 0, fmask, 1)]


def wild_pair_options(proj: str, flip: int) -> list[tuple]:
    """What a pair of two wilds can be read as: ``(pair class, suit mask, caishentou)``."""
    fsuit = suit_of(flip)
    if proj == "z":
        return [(HONOUR0 + h, HONOURS_BIT, 0) for h in range(7)] + [(s, 1 << s, 0) for s in range(3)]
    return [(HONOUR0, HONOURS_BIT, 0)] + [(s, 1 << s, 0) for s in range(3)] + [(flip, 1 << fsuit, 1)]


@lru_cache(maxsize=1 << 14)
def _readings(counts: tuple, wilds: int, nsets: int, npair: int, proj: str, flip: int) -> frozenset:
    if sum(counts) + wilds != 3 * nsets + 2 * npair:
        return frozenset()
    base_mask = plain_mask(counts)
    out = set()
    pungs = _wild_pung_options(proj, flip)
    pairs = wild_pair_options(proj, flip) if npair else []
    for w, s, p, ch, hp, pc in _fold(counts, wilds, nsets, npair, True):
        a, b = nsets - s, npair - p
        if wilds - w != 3 * a + 2 * b:
            continue
        for combo in combinations_with_replacement(pungs, a):
            ch2, hp2, mask2, sancai = ch, hp, base_mask, 0
            for dch, dhp, dmask, dsan in combo:
                ch2 += dch
                hp2 |= dhp
                mask2 |= dmask
                sancai |= dsan
            for pair_opt in pairs if b else [None]:
                pc2, mask3, cst = (
                    (pc, mask2, 0) if pair_opt is None else (pair_opt[0], mask2 | pair_opt[1], pair_opt[2])
                )
                if proj == "z":
                    out.add((ch2, hp2, pc2, mask3))
                else:
                    out.add((ch2 > 0, mask3, cst, sancai))
    return frozenset(out)


def standard_readings(counts, wilds: int, proj: str, flip: int, nsets: int = 4, npair: int = 1) -> frozenset:
    """Every distinct standard reading under a projection (``"z"`` or ``"w"``, see the module doc).

    ``flip`` is the flip's kind: under ``"w"`` a wild pair / pung read as that kind is flagged
    (武义 caishentou / sancai, docs/rules/wuyi2.md §2).
    """
    return _readings(tuple(counts), wilds, nsets, npair, proj, flip)


def is_qidui(counts, wilds: int, npairs: int = 7) -> bool:
    """七对 (docs/analysis.md "Shapes"): every plain tile pairs (four of a kind = two pairs) or
    takes a wild; the rest of the wilds pair up."""
    if sum(counts) + wilds != 2 * npairs:
        return False
    singles = sum(c & 1 for c in counts)
    return singles <= wilds


def _spread_ok(mask: int) -> bool:
    nums = [n for n in range(9) if mask >> n & 1]
    return all(b - a >= 3 for a, b in pairwise(nums))


# For each 9-bit set of numbers of one suit: how many more numbers can join keeping every two 3 apart
# (-1 when the set itself breaks the rule).
_EXTRA = [
    max(bin(sup).count("1") for sup in range(512) if sup & m == m and _spread_ok(sup)) - bin(m).count("1")
    if _spread_ok(m)
    else -1
    for m in range(512)
]


def is_shisanbukao(counts, wilds: int, all_honours_plain_winds: bool = False) -> bool:
    """十三不靠: 14 different kinds, suited tiles of a suit pairwise 3+ apart; wilds stand for
    kinds that keep this true. With ``all_honours_plain_winds`` it is 七风: all 7 honours, the four
    winds plain tiles (docs/rules/wuyi2.md §2, docs/analysis.md "Readings settled")."""
    if sum(counts) + wilds != 14 or any(c > 1 for c in counts):
        return False
    room = 0
    for s in range(3):
        mask = sum(1 << n for n in range(9) if counts[9 * s + n])
        extra = _EXTRA[mask]
        if extra < 0:
            return False
        room += extra
    missing = [h for h in range(HONOUR0, 34) if not counts[h]]
    if not all_honours_plain_winds:
        return wilds <= room + len(missing)
    if any(h < HONOUR0 + 4 for h in missing):
        return False
    left = wilds - len(missing)
    return 0 <= left <= room


def is_luanfeng(counts) -> bool:
    """乱风: every plain tile an honour (the wilds are read as honours), any arrangement."""
    return not any(counts[:HONOUR0])

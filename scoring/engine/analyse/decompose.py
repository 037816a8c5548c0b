"""Readings of a hand (docs/analysis.md "Shapes"): a 34-count vector plus wilds, searched group by group.

Projections: ``"z"`` (诸暨) keeps ``(chows, honour-pung mask, pair class, suit mask)``, ``"w"`` (武义)
``(has a chow, suit mask, caishentou pair, sancai pung)``. Suit mask: bits 0-2 万 筒 条, bit 3 an
honour; pair class: 0-2 a suit, 27-33 an honour kind. tests/engine/test_analyse_fast_paths.py holds
each shortcut against a plain reference.
"""

from functools import lru_cache
from itertools import combinations_with_replacement, pairwise

from .tiles import HONOUR0, Memo, suit_of

HONOURS_BIT = 8
_EMPTY = frozenset({(0, 0, 0, 0, 0, -1)})


@lru_cache(maxsize=1 << 16)
def _group(counts: tuple, is_suit: bool, maxw: int) -> frozenset:
    """Every use of all of one group's plain tiles: ``(wilds, sets, pairs, chows, pung mask, pair)``.

    The lowest tile present starts a pung, the pair or a chow, taking every plain tile it can: a wild
    where a plain tile was free reads the same with the two swapped, so nothing is lost.
    """
    i = next((k for k, c in enumerate(counts) if c), -1)
    if i < 0:
        return _EMPTY
    out = set()
    c = list(counts)
    ci = c[i]
    need = max(3 - ci, 0)  # a pung of kind i
    if need <= maxw:
        c[i] = max(ci - 3, 0)
        bit = 0 if is_suit else 1 << i
        for w, s, p, ch, hp, pi in _group(tuple(c), is_suit, maxw - need):
            if s < 4:
                out.add((w + need, s + 1, p, ch, hp | bit, pi))
    need = max(2 - ci, 0)  # the pair, of kind i
    if need <= maxw:
        c[i] = max(ci - 2, 0)
        for w, s, p, ch, hp, _ in _group(tuple(c), is_suit, maxw - need):
            if p == 0:
                out.add((w + need, s, 1, ch, hp, i))
    if is_suit:  # a chow holding kind i
        c[i] = ci - 1
        for start in range(max(i - 2, 0), min(i, 6) + 1):
            need = i - start
            c2 = list(c)
            for pos in range(i + 1, start + 3):
                if c2[pos]:
                    c2[pos] -= 1
                else:
                    need += 1
            if need > maxw:
                continue
            for w, s, p, ch, hp, pi in _group(tuple(c2), True, maxw - need):
                if s < 4:
                    out.add((w + need, s + 1, p, ch + 1, hp, pi))
    return frozenset(out)


_GROUPS = ((0, 9), (9, 18), (18, 27), (27, 34))  # 万 筒 条, the honours


def _segments(counts) -> tuple[tuple, tuple, tuple, tuple]:
    return (tuple(counts[0:9]), tuple(counts[9:18]), tuple(counts[18:27]), tuple(counts[27:34]))


def _fold(counts, wilds: int, nsets: int, npair: int, full: bool) -> set:
    """States ``(wilds used, sets, pairs, chows, honour-pung mask, pair class)``; ``full`` false zeroes the last three."""
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


# More wilds than any hand holds: a way that cannot be taken.
_NEVER = 99


@lru_cache(maxsize=1 << 16)
def _need(counts: tuple, is_suit: bool) -> tuple[int, int]:
    """``(m0, m1)``: the fewest wilds using up one group's plain tiles in sets, or in sets and a pair
    (``_NEVER``: no way); the moves of ``_group``, so the fewest are among them."""
    i = next((k for k, c in enumerate(counts) if c), -1)
    if i < 0:
        return (0, _NEVER)
    c = list(counts)
    ci = c[i]
    c[i] = max(ci - 3, 0)  # a pung of kind i
    r0, r1 = _need(tuple(c), is_suit)
    m0, m1 = max(3 - ci, 0) + r0, max(3 - ci, 0) + r1
    c[i] = max(ci - 2, 0)  # the pair, of kind i
    m1 = min(m1, max(2 - ci, 0) + _need(tuple(c), is_suit)[0])
    if is_suit:  # a chow holding kind i, each other place a plain tile if there is one
        c[i] = ci - 1
        for start in range(max(i - 2, 0), min(i, 6) + 1):
            c2 = list(c)
            need = i - start
            for pos in range(i + 1, start + 3):
                if c2[pos]:
                    c2[pos] -= 1
                else:
                    need += 1
            r0, r1 = _need(tuple(c2), True)
            m0 = min(m0, need + r0)
            m1 = min(m1, need + r1)
    return (min(m0, _NEVER), min(m1, _NEVER))


@lru_cache(maxsize=1 << 14)
def _need_plus(counts: tuple, is_suit: bool) -> tuple[tuple[int, int], ...]:
    """For each place of the group, ``_need`` of the group with one more plain tile there."""
    out = []
    for pos in range(len(counts)):
        c = list(counts)
        c[pos] += 1
        out.append(_need(tuple(c), is_suit))
    return tuple(out)


def _standard_cost(needs, npair: int) -> int:
    """The fewest wilds for the sets and ``npair`` (0 or 1) pairs: the pair in one group or two wilds."""
    total = 0
    pair = 2
    for m0, m1 in needs:
        total += m0
        if m1 - m0 < pair:
            pair = m1 - m0
    return total + pair if npair else total


def _group_needs(counts) -> list[tuple[int, int]]:
    return [
        _need(tuple(counts[0:9]), True),
        _need(tuple(counts[9:18]), True),
        _need(tuple(counts[18:27]), True),
        _need(tuple(counts[27:34]), False),
    ]


def is_standard(counts, wilds: int = 0, nsets: int = 4, npair: int = 1) -> bool:
    """Whether the tiles make ``nsets`` sets and ``npair`` pairs, wilds filling gaps (the standard shape)."""
    if sum(counts) + wilds != 3 * nsets + 2 * npair:
        return False
    if npair > 1:
        return bool(_fold(counts, wilds, nsets, npair, False))
    if not wilds:
        return _plain_standard(counts, npair)
    return _standard_cost(_group_needs(counts), npair) <= wilds


def _sets_only(c: list[int], is_suit: bool) -> bool:
    """Without wilds, whether the counts ``c`` (used up) are all sets: three like chows are three pungs."""
    for i, n in enumerate(c):
        if n < 0:
            return False
        n %= 3
        if n:
            if not is_suit or i > 6:
                return False
            c[i + 1] -= n
            c[i + 2] -= n
    return True


@lru_cache(maxsize=1 << 16)
def _plain_ok(seg: tuple, is_suit: bool) -> bool:
    """Without wilds, whether one group's tiles are all sets, or sets and a pair at ``p`` with ``2p`` ≡ Σ places (mod 3)."""
    rest = sum(seg) % 3
    if rest == 0:
        return _sets_only(list(seg), is_suit)
    if rest == 1:
        return False
    place = 2 * sum(i * n for i, n in enumerate(seg)) % 3 if is_suit else None
    for p, n in enumerate(seg):
        if n >= 2 and (place is None or p % 3 == place):
            c = list(seg)
            c[p] -= 2
            if _sets_only(c, is_suit):
                return True
    return False


@lru_cache(maxsize=1 << 14)
def _plain_plus(seg: tuple, is_suit: bool) -> tuple[int, ...]:
    """The places, at or next to a tile, where one more plain tile leaves the group ``_plain_ok``."""
    near = {p + d for p, n in enumerate(seg) if n for d in ((-1, 0, 1) if is_suit else (0,))}
    out = []
    for p in sorted(near):
        if 0 <= p < len(seg):
            c = list(seg)
            c[p] += 1
            if _plain_ok(tuple(c), is_suit):
                out.append(p)
    return tuple(out)


def _plain_standard(counts, npair: int) -> bool:
    """``is_standard`` without wilds: each group all sets, and ``npair`` of them with the pair."""
    pairs = 0
    counts = tuple(counts)  # (a tuple's slices are tuples)
    for g, (start, end) in enumerate(_GROUPS):
        seg = counts[start:end]
        n = sum(seg)
        if n:
            if not _plain_ok(seg, g < 3):
                return False
            pairs += n % 3 == 2
    return pairs == npair


def standard_completions(counts, wilds: int) -> tuple[list[int], bool]:
    """For 13 tiles: the kinds whose plain tile completes 4 sets and a pair, and whether a wild does."""
    if sum(counts) + wilds != 13:
        return [], False
    if not wilds:
        return _plain_completions(counts)
    needs = _group_needs(counts)
    kinds = []
    for g, (start, size) in enumerate(((0, 9), (9, 9), (18, 9), (27, 7))):
        others = needs[:g] + needs[g + 1 :]
        base = sum(m0 for m0, _ in others)
        pair = min([2] + [m1 - m0 for m0, m1 in others])
        for pos, (m0, m1) in enumerate(_need_plus(tuple(counts[start : start + size]), g < 3)):
            if base + m0 + min(pair, m1 - m0) <= wilds:
                kinds.append(start + pos)
    return kinds, _standard_cost(needs, 1) <= wilds + 1


def _plain_completions(counts) -> tuple[list[int], bool]:
    """``standard_completions`` without wilds: a wild completes where some plain tile does."""
    segs = [tuple(counts[start:end]) for start, end in _GROUPS]
    sizes = [sum(seg) for seg in segs]
    ok = [not n or _plain_ok(seg, g < 3) for g, (seg, n) in enumerate(zip(segs, sizes, strict=True))]
    kinds = []
    for g, (start, _) in enumerate(_GROUPS):
        if sum(ok) - ok[g] < 3:  # another group is not sets (and the pair)
            continue
        pairs = sum(n % 3 == 2 for h, n in enumerate(sizes) if h != g) + ((sizes[g] + 1) % 3 == 2)
        if pairs == 1:
            kinds.extend(start + p for p in _plain_plus(segs[g], g < 3))
    return kinds, bool(kinds)


@lru_cache(maxsize=128)
def _wild_pung_options(proj: str, flip: int) -> tuple[tuple, ...]:
    """What a set of three wilds can be read as: ``(chows, honour-pung mask, suit mask, sancai)``."""
    fsuit = suit_of(flip)
    fmask = 1 << fsuit
    if proj == "z":
        opts = [(0, 1 << h, HONOURS_BIT, 0) for h in range(7)]
        opts += [(0, 0, 1 << s, 0) for s in range(3)] + [(1, 0, 1 << s, 0) for s in range(3)]
        return tuple(opts)
    opts = [(0, 0, HONOURS_BIT, 0)] + [(0, 0, 1 << s, 0) for s in range(3)] + [(1, 0, 1 << s, 0) for s in range(3)]
    return (*opts, (0, 0, fmask, 1))


@lru_cache(maxsize=128)
def wild_pair_options(proj: str, flip: int) -> tuple[tuple, ...]:
    """What a pair of two wilds can be read as: ``(pair class, suit mask, caishentou)``."""
    fsuit = suit_of(flip)
    if proj == "z":
        return tuple([(HONOUR0 + h, HONOURS_BIT, 0) for h in range(7)] + [(s, 1 << s, 0) for s in range(3)])
    return ((HONOUR0, HONOURS_BIT, 0), *((s, 1 << s, 0) for s in range(3)), (flip, 1 << fsuit, 1))


@lru_cache(maxsize=1 << 14)
def _readings(counts: tuple, wilds: int, nsets: int, npair: int, proj: str, flip: int) -> frozenset:
    if sum(counts) + wilds != 3 * nsets + 2 * npair:
        return frozenset()
    if not wilds and npair <= 1:
        return _plain_readings(counts, npair, proj)
    return _fold_readings(counts, wilds, nsets, npair, proj, flip)


# A wild-free group's way packed in one int (suit bit 0-3, pairs 4-6, chows 7-10, pung mask 11-17,
# pair class + 1 from 18), so a hand's reading is the plain sum of one way of each group.
_PAIRS, _CHOWS, _PUNGS, _PAIR = 4, 7, 11, 18

_PLAIN_WAYS = Memo()
# What a group adds by its place: nothing (no tile), its bit (sets), its bit and pair class (sets and the pair).
_BY_PLACE = (*((0, 1 << g, 1 << g | (g + 1) << _PAIR) for g in range(3)), (0, HONOURS_BIT, HONOURS_BIT))


def _plain_ways(seg: tuple) -> tuple[tuple[int, ...], int]:
    """Without wilds, one group's packed ways and its ``_BY_PLACE`` index; the three suits share them."""
    n = sum(seg)
    is_suit = len(seg) == 9
    if n % 3 == 1:
        ways = ()
    else:
        pairs = n % 3 // 2
        ways = tuple(
            {
                pairs << _PAIRS | ch << _CHOWS | hp << _PUNGS | (0 if is_suit or pi < 0 else HONOUR0 + pi + 1) << _PAIR
                for ch, hp, pi in _plain_group(seg, is_suit)
            }
        )
    if len(_PLAIN_WAYS) >= 1 << 15:
        _PLAIN_WAYS.clear()
    found = _PLAIN_WAYS[seg] = ways, (n > 0) + (n % 3 == 2)
    return found


@lru_cache(maxsize=1 << 16)
def _plain_group(counts: tuple, is_suit: bool) -> frozenset:
    """``_group`` without wilds, cut to ``(chows, pung mask, pair place)``."""
    i = next((k for k, c in enumerate(counts) if c), -1)
    if i < 0:
        return _NO_TILES
    out = set()
    c = list(counts)
    ci = c[i]
    if ci >= 3:
        c[i] = ci - 3
        bit = 0 if is_suit else 1 << i
        out.update((ch, hp | bit, pi) for ch, hp, pi in _plain_group(tuple(c), is_suit))
    if ci >= 2:
        c[i] = ci - 2
        out.update((ch, hp, i) for ch, hp, pi in _plain_group(tuple(c), is_suit) if pi < 0)
    if is_suit and i <= 6 and c[i + 1] and c[i + 2]:
        c[i] = ci - 1
        c[i + 1] -= 1
        c[i + 2] -= 1
        out.update((ch + 1, hp, pi) for ch, hp, pi in _plain_group(tuple(c), is_suit))
    return frozenset(out)


_NO_TILES = frozenset({(0, 0, -1)})


def _plain_readings(counts, npair: int, proj: str) -> frozenset:
    """``_fold_readings`` without wilds and with at most one pair: the sums of one way of each group."""
    counts = tuple(counts)  # (a tuple's slices are tuples)
    total = 0
    more = None  # the sums of the groups so far with two or more ways
    for g, seg in enumerate((counts[0:9], counts[9:18], counts[18:27], counts[27:34])):
        ways, place = _PLAIN_WAYS.get(seg) or _plain_ways(seg)
        add = _BY_PLACE[g][place]
        if len(ways) == 1:
            total += ways[0] + add
        elif not ways:
            return frozenset()
        else:
            more = [w + add for w in ways] if more is None else [a + b + add for a in more for b in ways]
    sums = (total,) if more is None else [total + m for m in more]
    if sums[0] >> _PAIRS & 7 != npair:  # (every way of a group holds as many pairs)
        return frozenset()
    if more is None:  # (most hands) one reading: made without a loop
        if proj == "z":
            return frozenset(((total >> _CHOWS & 15, total >> _PUNGS & 127, (total >> _PAIR) - 1, total & 15),))
        return frozenset(((total >> _CHOWS & 15 > 0, total & 15, 0, 0),))
    if proj == "z":
        return frozenset((r >> _CHOWS & 15, r >> _PUNGS & 127, (r >> _PAIR) - 1, r & 15) for r in sums)
    return frozenset((r >> _CHOWS & 15 > 0, r & 15, 0, 0) for r in sums)


def _fold_readings(counts: tuple, wilds: int, nsets: int, npair: int, proj: str, flip: int) -> frozenset:
    """Every reading: the groups folded together, the wilds left over made into wild sets and pair."""
    base_mask = plain_mask(counts)
    out = set()
    pungs = _wild_pung_options(proj, flip)
    pairs = wild_pair_options(proj, flip) if npair else ()
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
    """Every distinct standard reading under a projection; ``flip`` flags caishentou / sancai (docs/rules/wuyi2.md §2)."""
    if not wilds and npair <= 1:  # each group's ways are memoised: adding them up is cheaper than a memo of the hand
        if sum(counts) != 3 * nsets + 2 * npair:
            return frozenset()
        return _plain_readings(counts, npair, proj)
    return _readings(tuple(counts), wilds, nsets, npair, proj, flip)


def is_qidui(counts, wilds: int, npairs: int = 7) -> bool:
    """七对 (docs/analysis.md "Shapes"): each odd count takes a wild, four of a kind is two pairs."""
    if not wilds:  # (most hands) no odd count: the search stops at the first
        return 1 not in counts and 3 not in counts and sum(counts) == 2 * npairs
    return sum(counts) + wilds == 2 * npairs and counts.count(1) + counts.count(3) <= wilds


def _spread_ok(mask: int) -> bool:
    nums = [n for n in range(9) if mask >> n & 1]
    return all(b - a >= 3 for a, b in pairwise(nums))


# Per 9-bit set of one suit's numbers: how many more can join keeping all 3 apart (-1: already broken).
_EXTRA = [
    max(bin(sup).count("1") for sup in range(512) if sup & m == m and _spread_ok(sup)) - bin(m).count("1")
    if _spread_ok(m)
    else -1
    for m in range(512)
]


def is_shisanbukao(counts, wilds: int, all_honours_plain_winds: bool = False) -> bool:
    """十三不靠, or 七风 with ``all_honours_plain_winds`` (docs/rules/wuyi2.md §2)."""
    plain = sum(counts)
    if plain + wilds != 14 or len(counts) - counts.count(0) != plain:  # a kind held twice
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


def completing(counts, wilds: int) -> tuple[list[bool], bool]:
    """For 13 tiles: which kinds and whether a wild could complete them in any shape (a superset of every ruleset's)."""
    kinds, wild = standard_completions(counts, wilds)
    plain = [False] * len(counts)
    for kind in kinds:
        plain[kind] = True
    if sum(counts) + wilds == 13:
        singles = sum(c & 1 for c in counts)
        if singles + 1 <= wilds:  # 七对 with any tile
            plain = [True] * len(counts)
        elif singles - 1 <= wilds:  # 七对 with a tile pairing a single
            plain = [p or bool(c & 1) for p, c in zip(plain, counts, strict=True)]
        wild = wild or singles <= wilds + 1
        if max(counts) <= 1:  # 十三不靠 needs every kind once
            c = list(counts)
            for kind in range(len(c)):
                if not plain[kind] and not c[kind]:
                    c[kind] = 1
                    plain[kind] = is_shisanbukao(c, wilds)
                    c[kind] = 0
            wild = wild or is_shisanbukao(c, wilds + 1)
    if not any(counts[:HONOUR0]):  # 乱风: honours and wilds, any count
        plain[HONOUR0:] = [True] * (len(counts) - HONOUR0)
        wild = True
    return plain, wild

"""算牌's shortcuts agree with plain references (docs/analysis.md "Shapes", "13 tiles → waits"):
the waits are exactly the kinds whose 14-tile answer is complete (though only the kinds that can
complete the tiles are answered in full), the completeness check agrees with a textbook search,
and the readings the rulesets score agree with every way of using the tiles, none pruned."""

import random
from functools import cache

from hypothesis import example, given, settings
from hypothesis import strategies as st

from scoring.engine.analyse import CODES, analyse, is_standard, standard_readings
from scoring.engine.analyse.decompose import HONOURS_BIT, _wild_pung_options, wild_pair_options
from scoring.engine.analyse.tiles import HONOUR0, next_kind
from tests.factories import random_complete
from tests.speed import examples

SETTINGS = settings(max_examples=examples(300), deadline=None)
RULESETS = ("yiwu", "zhuji", "wuyi2")
SHAPES = ("sets", "sets", "sets", "pairs", "spread", "honours", "honours", "one suit", "runs", "ends", "any")


def _kinds_of(rng: random.Random, shape: str, ruleset: str) -> list[int]:
    """14 kinds near a shape of docs/analysis.md (four sets and a pair, 七对, 十三不靠, 乱风) or anything."""
    if shape == "sets":
        return [CODES.index(t) for t in random_complete(rng, ruleset, 0)[1]]
    if shape == "pairs":
        return [k for k in rng.sample(range(34), 7) for _ in (0, 1)]
    if shape == "spread":
        spaced = [
            s * 9 + n
            for s, start in zip(range(3), rng.sample(range(3), 3), strict=True)
            for n in (start, start + 3, start + 6)
        ]
        return rng.sample(spaced, rng.randint(5, 9)) + rng.sample(range(HONOUR0, 34), 7)
    suit = rng.randrange(3) * 9
    if shape == "runs":  # three like chows or three pungs (1m1m1m2m2m2m3m3m3m), a pung and a pair
        start = suit + rng.randrange(7)
        return [start + n for n in range(3) for _ in range(3)] + [rng.randrange(34)] * 3 + [rng.randrange(34)] * 2
    if shape == "ends":  # sets at the ends of the suits, a 7 8 9 first (the tiles the tests make wild)
        kinds = [suit + 6, suit + 7, suit + 8]
        for _ in range(3):
            low = rng.choice((0, 6, 9, 15, 18, 24))
            kinds += [low, low + 1, low + 2] if rng.random() < 0.7 else [rng.choice((low, low + 2))] * 3
        return [*kinds, *[rng.choice((0, 8, 9, 17, 18, 26))] * 2]
    if shape == "one suit":  # four sets and a pair of one suit: often read more than one way
        kinds = [suit + rng.randrange(9)] * 2
        for _ in range(4):
            low = suit + rng.randrange(7)
            kinds += [low, low + 1, low + 2] if rng.random() < 0.6 else [low + rng.randrange(3)] * 3
        return kinds
    pool = range(HONOUR0, rng.choice((33, 34))) if shape == "honours" else range(34)  # 白 may play as the flip
    return [rng.choice(pool) for _ in range(14)]


@st.composite
def hands(draw, size: int):
    """(ruleset, flip, tiles): ``size`` tiles near a shape, some changed, some made wild."""
    ruleset = draw(st.sampled_from(RULESETS))
    rng = random.Random(draw(st.integers(0, 2**32)))
    shape = draw(st.sampled_from(SHAPES))
    kinds = _kinds_of(rng, shape, ruleset)[:14]
    kinds += [rng.randrange(34) for _ in range(14 - len(kinds))]
    for _ in range(draw(st.integers(0, 2))):  # (honours stay honours: 乱风)
        kinds[rng.randrange(14)] = rng.randrange(HONOUR0 if shape == "honours" else 0, 34)
    flip = rng.randrange(34)
    wild = [flip] if ruleset != "zhuji" else [flip, next_kind(flip)]
    for _ in range(draw(st.integers(0, 3 if ruleset != "zhuji" else 6))):
        kinds[rng.randrange(14)] = rng.choice(wild)
    for i in range(14):  # at most 4 of a kind
        while kinds[: i + 1].count(kinds[i]) > 4:
            kinds[i] = rng.randrange(34)
    if shape != "ends":
        rng.shuffle(kinds)
    return ruleset, CODES[flip], [CODES[k] for k in kinds[:size]]


HOW = ({}, {"self_drawn": True}, {"after_kong": True}, {"robbing_kong": True})
WHO = ({}, {"dealer": True}, {"seat_wind": "S"}, {"seat_wind": "N"})
contexts = st.builds(
    lambda how, who, more: {**how, **who, **more},
    st.sampled_from(HOW),
    st.sampled_from(WHO),
    st.fixed_dictionaries({}, optional={"last_tile": st.booleans(), "melded": st.integers(0, 4)}),
)


def reference_waits(request: dict) -> dict:
    """docs/analysis.md "13 tiles → waits" word for word: every kind, in code order, whose
    14-tile answer (that tile as ``last``) is complete."""
    waits = []
    for code in CODES:
        if request["tiles"].count(code) < 4:
            answer = analyse({**request, "tiles": [*request["tiles"], code], "last": code})
            if answer["complete"]:
                waits.append({"tile": code, **answer})
    return {"waits": waits}


@SETTINGS
@given(hands(13), contexts, st.booleans())
def test_waits_are_every_kind_whose_14_tile_answer_is_complete(hand, context, table_rules):
    ruleset, flip, tiles = hand
    request = {"ruleset": ruleset, "tiles": tiles, "flip": flip, **context}
    if ruleset == "wuyi2" and table_rules:
        request["rules"] = {"fan": {"qingyise": 5, "pinghu": 2, "qidui": 0}}
    assert analyse(request) == reference_waits(request)


# ---------------------------------------------------------------- the textbook search


def _chow_starts(i: int) -> range:
    """The chows holding kind ``i``: starting two below it up to at it, within its suit."""
    if i >= HONOUR0:
        return range(0)
    base = i - i % 9
    return range(max(i - 2, base), min(i, base + 6) + 1)


@cache
def _search(counts: tuple, wilds: int, sets: int, pairs: int) -> bool:
    """Use up the lowest plain tile in a pung, the pair or a chow, with any of its places taken by
    wilds; what wilds are left make the remaining sets and pair."""
    i = next((k for k, n in enumerate(counts) if n), None)
    if i is None:
        return wilds == 3 * sets + 2 * pairs
    c = list(counts)
    for size, left in ((3, sets), (2, pairs)):
        for plain in range(1, min(size, counts[i]) + 1):
            if left and size - plain <= wilds:
                c[i] = counts[i] - plain
                rest = (sets - 1, pairs) if size == 3 else (sets, pairs - 1)
                if _search(tuple(c), wilds - size + plain, *rest):
                    return True
    c[i] = counts[i]
    for start in _chow_starts(i) if sets else ():
        others = [k for k in range(start, start + 3) if k != i]
        for mask in range(4):  # which of the other two places a plain tile takes
            used = [k for b, k in enumerate(others) if mask >> b & 1]
            need = 2 - len(used)
            if need <= wilds and all(c[k] for k in used):
                c2 = list(c)
                for k in (i, *used):
                    c2[k] -= 1
                if _search(tuple(c2), wilds - need, sets - 1, pairs):
                    return True
    return False


def reference_standard(counts, wilds: int, nsets: int, npair: int) -> bool:
    return sum(counts) + wilds == 3 * nsets + 2 * npair and _search(tuple(counts), wilds, nsets, npair)


def _counts(tiles: list[str], wilds: int) -> tuple[list[int], int]:
    """The tiles' counts, the first ``wilds`` of them taken as wilds."""
    counts = [0] * 34
    for code in tiles[wilds:]:
        counts[CODES.index(code)] += 1
    return counts, min(wilds, len(tiles))


@SETTINGS
@given(hands(14), st.integers(0, 7), st.booleans())
def test_the_standard_check_agrees_with_the_textbook_search(hand, wilds, lone):
    """Both shapes the rulesets ask: four sets and a pair (14 tiles), and four sets alone (财神头 /
    爆头: 12 tiles)."""
    tiles = hand[2]
    nsets, npair = (4, 0) if lone else (4, 1)
    counts, wilds = _counts(tiles[: 3 * nsets + 2 * npair], wilds)
    assert is_standard(counts, wilds, nsets, npair) is reference_standard(counts, wilds, nsets, npair)


# ---------------------------------------------------------------- every way of using the tiles


def _ways(counts: tuple, wilds: int, sets: int, pairs: int):
    """Every way to use all plain tiles, none pruned: yields ``(wilds left, sets left, pairs left,
    plain sets)``, a plain set being ``("pung" | "pair" | "chow", lowest kind)``."""
    i = next((k for k, n in enumerate(counts) if n), None)
    if i is None:
        yield wilds, sets, pairs, ()
        return
    c = list(counts)
    for kind, size, left in (("pung", 3, sets), ("pair", 2, pairs)):
        for plain in range(1, min(size, counts[i]) + 1):
            if left and size - plain <= wilds:
                c[i] = counts[i] - plain
                rest = (sets - 1, pairs) if kind == "pung" else (sets, pairs - 1)
                for w, s, p, found in _ways(tuple(c), wilds - size + plain, *rest):
                    yield w, s, p, ((kind, i), *found)
    c[i] = counts[i]
    for start in _chow_starts(i) if sets else ():
        others = [k for k in range(start, start + 3) if k != i]
        for mask in range(4):
            used = [k for b, k in enumerate(others) if mask >> b & 1]
            need = 2 - len(used)
            if need <= wilds and all(c[k] for k in used):
                c2 = list(c)
                for k in (i, *used):
                    c2[k] -= 1
                for w, s, p, found in _ways(tuple(c2), wilds - need, sets - 1, pairs):
                    yield w, s, p, (("chow", start), *found)


def _suit_bit(kind: int) -> int:
    return HONOURS_BIT if kind >= HONOUR0 else 1 << (kind // 9)


def reference_readings(counts, wilds: int, proj: str, flip: int, nsets: int, npair: int) -> set:
    """Each way's plain sets, the wilds left read as every wild set and pair ``_readings`` offers."""
    out = set()
    if sum(counts) + wilds != 3 * nsets + 2 * npair:
        return out
    for left, sets, pairs, found in _ways(tuple(counts), wilds, nsets, npair):
        if left != 3 * sets + 2 * pairs:
            continue
        chows = sum(kind == "chow" for kind, _ in found)
        pair = next((k if k >= HONOUR0 else k // 9 for kind, k in found if kind == "pair"), -1)
        honour_pungs = mask = 0
        for kind, k in found:
            mask |= _suit_bit(k)
            if kind == "pung" and k >= HONOUR0:
                honour_pungs |= 1 << (k - HONOUR0)
        wild_sets = [()]
        for _ in range(sets):
            wild_sets = [(*ws, option) for ws in wild_sets for option in _wild_pung_options(proj, flip)]
        for ws in wild_sets:
            ch = chows + sum(o[0] for o in ws)
            hp = honour_pungs
            m = mask
            sancai = 0
            for _, dhp, dmask, dsan in ws:
                hp |= dhp
                m |= dmask
                sancai |= dsan
            for pc, m2, cst in wild_pair_options(proj, flip) if pairs else [(pair, m, 0)]:
                if pairs:
                    m2 |= m
                out.add((ch, hp, pc, m2) if proj == "z" else (ch > 0, m2, cst, sancai))
    return out


RUNS_AND_PAIR = "1m 1m 1m 2m 2m 2m 3m 3m 3m 5m 5m E E E".split()  # 万 read as 3 pungs or 3 chows, with the pair


@settings(max_examples=examples(500), deadline=None)
@given(hands(14), st.integers(0, 4), st.booleans(), st.sampled_from("zw"))
@example(("zhuji", "9p", RUNS_AND_PAIR), 0, False, "z")
@example(("wuyi2", "9p", RUNS_AND_PAIR), 0, False, "w")
def test_the_readings_are_every_way_of_using_the_tiles(hand, wilds, lone, proj):
    _, flip, tiles = hand
    nsets, npair = (4, 0) if lone else (4, 1)
    counts, wilds = _counts(tiles[: 3 * nsets + 2 * npair], wilds)
    flip_kind = CODES.index(flip)
    expect = reference_readings(counts, wilds, proj, flip_kind, nsets, npair)
    assert set(standard_readings(counts, wilds, proj, flip_kind, nsets, npair)) == expect


# ---------------------------------------------------------------- waits of the other shapes


def waits(ruleset: str, tiles: str, flip: str, **context) -> list[str]:
    answer = analyse({"ruleset": ruleset, "tiles": tiles.split(), "flip": flip, **context})
    return [wait["tile"] for wait in answer["waits"]]


def test_waits_of_seven_pairs_thirteen_apart_and_all_honours():
    """A wait of every shape is found, the wild's own kind among them: 七对 (not under 诸暨),
    十三不靠 (the 白 standing for the flip's kind), 乱风 (武义二人: any honour)."""
    pairs = "1m 1m 3p 3p 5s 5s 7m 7m E E C C 9p"
    assert waits("yiwu", pairs, "2s") == ["9p", "2s"]
    assert waits("zhuji", pairs, "2s") == []
    apart = "1m 4m 7m 2p 5p 8p 3s 6s 9s E S W N"
    assert waits("yiwu", apart, "C") == waits("wuyi2", apart, "C") == ["C", "F", "P"]
    assert waits("yiwu", apart, "C", melded=1) == []
    assert waits("wuyi2", "E E E S S W N N C C F F S", "1m") == ["1m", "E", "S", "W", "N", "C", "F"]

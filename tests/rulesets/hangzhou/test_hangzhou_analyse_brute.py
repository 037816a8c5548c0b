"""杭州 算牌 against a slow reading of docs/analysis.md "杭州" word for word, on random hands: every
白 tried as every kind (no counting of wilds), the shapes by the textbook search, 爆头 by taking
``last`` and one 白 out and trying again. The fast answer (scoring/rulesets/hangzhou/engine/analyse.py)
must be the same JSON; the waits must be the kinds whose 14-tile answer is complete, with
``any_tile`` as the slow reading says."""

import random
from functools import cache
from itertools import combinations_with_replacement

from hypothesis import example, given, settings
from hypothesis import strategies as st

from scoring.engine.analyse import CODES, INDEX, analyse
from scoring.rulesets.hangzhou.engine import LISTABLE, PATTERNS
from tests.factories import random_complete
from tests.speed import examples

SETTINGS = settings(max_examples=examples(240), deadline=None)
FAN = {p.code: p.fan for p in PATTERNS}  # the rulebook's 番 (a request without rules)
BAI = INDEX["P"]


# ---------------------------------------------------------------- the slow reading


@cache
def _sets(counts: tuple, pair: bool) -> bool:
    """Whether the counts (any number of a kind) are all sets, and one pair when ``pair``: the
    lowest kind left is a pung, the pair, or starts a chow (no wrap, no honour chows)."""
    i = next((k for k, n in enumerate(counts) if n), None)
    if i is None:
        return not pair
    c = list(counts)
    if c[i] >= 3:
        c[i] -= 3
        if _sets(tuple(c), pair):
            return True
        c[i] += 3
    if pair and c[i] >= 2:
        c[i] -= 2
        if _sets(tuple(c), False):
            return True
        c[i] += 2
    if i < 27 and i % 9 <= 6 and c[i + 1] and c[i + 2]:
        for k in (i, i + 1, i + 2):
            c[k] -= 1
        return _sets(tuple(c), pair)
    return False


def _readings_of(kinds: list[int]):
    """Every count vector the tiles can be read as: each 白 played as any of the 34 kinds."""
    plain = [0] * 34
    for k in kinds:
        if k != BAI:
            plain[k] += 1
    for played in combinations_with_replacement(range(34), kinds.count(BAI)):
        counts = list(plain)
        for k in played:
            counts[k] += 1
        yield tuple(counts)


def _standard(kinds, pair=True) -> bool:
    return any(_sets(c, pair) for c in _readings_of(kinds))


def _pairs(kinds) -> bool:
    return any(all(n % 2 == 0 for n in c) for c in _readings_of(kinds))


def _four_real(kinds) -> bool:
    return any(kinds.count(k) == 4 for k in set(kinds) if k != BAI)


def slow_answer(tiles: list[str], last: str, melded: int, after_kong: bool, fan: dict | None = None) -> dict:
    kinds = [INDEX[t] for t in tiles]
    rest = list(kinds)
    rest.remove(INDEX[last])
    twelve = None
    if BAI in rest:
        twelve = list(rest)
        twelve.remove(BAI)
    readings = []
    if _standard(kinds):
        baotou = twelve is not None and _standard(twelve, pair=False)
        readings.append(["baotou"] * baotou + ["gangkai"] * after_kong)
    if melded == 0 and _pairs(kinds):
        six = twelve is not None and _pairs(twelve)
        readings.append(["baotou"] * six + ["qidui"])
        if _four_real(kinds):
            readings.append(["baotou"] * (six and _four_real(twelve)) + ["haohua_qidui"])
    if not readings:
        return {"complete": False}
    if BAI not in kinds:
        readings = [[*r, "no_caishen"] for r in readings]

    table = {**FAN, **(fan or {})}

    def worth(codes):  # the most 番; ties: the first item of §3 one holds and the other lacks
        return sum(table[c] for c in codes), [c in codes for c in LISTABLE]

    best = max(readings, key=worth)
    ordered = [c for c in LISTABLE if c in best]
    return {"complete": True, "caishen": kinds.count(BAI), "patterns": ordered, "fan": worth(best)[0]}


def slow_any_tile(tiles: list[str], melded: int) -> bool:
    kinds = [INDEX[t] for t in tiles]
    if BAI not in kinds:
        return False
    kinds.remove(BAI)
    return _standard(kinds, pair=False) or (melded == 0 and _pairs(kinds))


# ---------------------------------------------------------------- random hands


def _sets_of(rng: random.Random) -> list[int]:
    """The kinds of 4 random sets (pungs and chows; 白 left out)."""
    kinds: list[int] = []
    while len(kinds) < 12:
        if rng.random() < 0.4:
            kinds += [rng.randrange(BAI)] * 3
        else:
            low = rng.randrange(3) * 9 + rng.randrange(7)
            kinds += [low, low + 1, low + 2]
    return kinds


@st.composite
def hands(draw, max_bai: int = 2):
    """(tiles, melded, after_kong): 14 tiles near 4 sets and a pair, 七对 (豪华 too) or 爆头, or
    anything, some changed, up to ``max_bai`` 白; the tile drawn is the last listed."""
    rng = random.Random(draw(st.integers(0, 2**32)))
    shape = draw(st.sampled_from(("sets", "sets", "pairs", "luxury", "baotou", "baotou", "any")))
    if shape == "sets":
        kinds = [INDEX[t] for t in random_complete(rng, "hangzhou", 0)[1]]
    elif shape == "baotou":  # 4 sets, a 白 and the tile drawn (or 6 pairs for them)
        if rng.random() < 0.7:
            kinds = _sets_of(rng)
        else:
            kinds = [k for k in rng.sample(range(BAI), 6) for _ in (0, 1)]
        kinds += [BAI, rng.randrange(34)]
    elif shape in ("pairs", "luxury"):
        picked = rng.sample(range(34), 6 if shape == "luxury" else 7)
        kinds = [k for k in picked for _ in (0, 1)] + [picked[0]] * 2 * (shape == "luxury")
    else:
        kinds = [rng.randrange(34) for _ in range(14)]
    for _ in range(draw(st.integers(0, 2))):
        kinds[rng.randrange(14)] = rng.randrange(34)
    for _ in range(draw(st.integers(0, 2))):
        kinds[rng.randrange(14)] = BAI
    for i in range(14):  # at most 4 of a kind, and at most ``max_bai`` 白
        while kinds[: i + 1].count(kinds[i]) > (max_bai if kinds[i] == BAI else 4):
            kinds[i] = rng.randrange(BAI)
    if shape == "baotou" and rng.random() < 0.7:  # the drawn tile stays last
        kinds[:13] = rng.sample(kinds[:13], 13)
    else:
        rng.shuffle(kinds)
    melded = draw(st.sampled_from((0, 0, 0, 1, 2)))
    after_kong = melded > 0 and draw(st.booleans())
    return [CODES[k] for k in kinds], melded, after_kong


# A table's own 番 (the house rule ``fan``): small values, so that readings tie.
tables = st.none() | st.dictionaries(st.sampled_from(("baotou", "gangkai", "qidui", "haohua_qidui")), st.integers(0, 3))


def request(tiles, melded=0, after_kong=False, fan=None, **more) -> dict:
    out = {"ruleset": "hangzhou", "tiles": tiles, **more}
    if fan is not None:
        out["rules"] = {"fan": fan}
    if melded:
        out["melded"] = melded
    if after_kong:
        out["after_kong"] = True
    return out


LUXURY_BAOTOU = "1m 1m 1m 1m 3m 3m 4p 4p 5p 5p 6s 6s P 9s".split()
FOUR_BAI = "P P P P 1m 2m 3m 4p 5p 6p E E E 9s".split()


@SETTINGS
@given(hands())
@example((LUXURY_BAOTOU, 0, False))
@example(("1m 1m 1m 1m 3m 3m 4p 4p 5p 5p 6s 6s P P".split(), 0, False))  # the 白 drawn: no 爆头
@example(("1m 1m 1m P 3m 3m 4p 4p 5p 5p 6s 6s P 1m".split(), 0, False))  # 1m last: three real 1m left
@example(("2m 3m 4m 5p 6p 7p 7s 8s 9s E E E P 1m".split(), 1, True))
@example(("P P P 2m 3m 4m 5p 6p 7p 7s 8s 9s E E".split(), 0, False))
def test_the_14_tile_answer_is_the_slow_reading(hand):
    tiles, melded, after_kong = hand
    assert analyse(request(tiles, melded, after_kong)) == slow_answer(tiles, tiles[-1], melded, after_kong)


@SETTINGS
@given(hands(), st.integers(0, 13), tables)
@example(
    ("1s 1s 2s 2s 3s 3s 4p 4p 5p 5p 6p 6p P 9m".split(), 0, False), 13, {"qidui": 0}
)  # 爆头 either way: 七对子 wins the tie
def test_a_last_named_anywhere_reads_as_that_tile_drawn_at_the_tables_fan(hand, i, fan):
    tiles, melded, after_kong = hand
    last = tiles[i]
    answer = analyse(request(tiles, melded, after_kong, fan, last=last))
    assert answer == slow_answer(tiles, last, melded, after_kong, fan)


@settings(max_examples=examples(120), deadline=None)
@given(hands(), st.integers(0, 13))
@example((FOUR_BAI, 0, False), 13)
@example(("1m 2m 3m 4p 5p 6p 7s 8s 9s E E E P 5m".split(), 0, False), 13)
@example(("1m 1m 2m 2m 3m 3m 4p 4p 5p 5p 6s 6s P 5m".split(), 0, False), 13)
@example(("5m 7m 8m P P 8m 3p 5m 3p 5m 6m 7m 6m 3p".split(), 0, False), 0)  # a 4th 3p: 豪华七对 over 爆头
def test_the_waits_are_every_kind_whose_answer_is_complete_and_any_tile_is_the_slow_reading(hand, out):
    tiles, melded, after_kong = hand
    tiles = tiles[:out] + tiles[out + 1 :]
    got = analyse(request(tiles, melded, after_kong))
    waits = []
    for code in CODES:
        if tiles.count(code) < 4:
            answer = analyse(request([*tiles, code], melded, after_kong))
            if answer["complete"]:
                waits.append({"tile": code, **answer})
    assert got == {"waits": waits, "any_tile": slow_any_tile(tiles, melded)}
    if got["any_tile"]:  # 可爆头: every tile that is left wins, as 爆头 or a reading worth more (豪华七对)
        assert [w["tile"] for w in waits] == [c for c in CODES if tiles.count(c) < 4]
        assert all(w["fan"] >= FAN["baotou"] for w in waits)


def test_four_bai_are_four_wilds_and_no_error():
    answer = analyse(request(FOUR_BAI))
    assert answer == slow_answer(FOUR_BAI, "9s", 0, False)
    assert answer["caishen"] == 4
    assert "baotou" in answer["patterns"]

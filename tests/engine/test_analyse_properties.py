"""算牌 properties (hypothesis) and one focused test per shape and per "Readings settled" quirk
of docs/analysis.md."""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.engine import all_rulesets
from scoring.engine.analyse import CODES, INDEX, analyse, breakdown, is_standard
from scoring.engine.errors import ScoringError
from tests.factories import random_complete

SETTINGS = settings(max_examples=100, deadline=None)
RULESETS = tuple(r.code for r in all_rulesets() if r.analyser)  # every ruleset with 算牌


# ---------------------------------------------------------------- generators and a plain checker


@st.composite
def complete_tiles(draw, max_wilds: int = 3):
    """(ruleset, flip, tiles) of a complete hand; up to 7 wilds under zhuji."""
    ruleset = draw(st.sampled_from(RULESETS))
    rng = random.Random(draw(st.integers(0, 2**32)))
    flip, tiles = random_complete(rng, ruleset, max_wilds if ruleset != "zhuji" or not max_wilds else 7)
    return ruleset, flip, tiles


def _sets(c: list[int]) -> bool:
    i = next((k for k, n in enumerate(c) if n), -1)
    if i < 0:
        return True
    if c[i] >= 3:
        c[i] -= 3
        ok = _sets(c)
        c[i] += 3
        if ok:
            return True
    if i < 27 and i % 9 <= 6 and c[i + 1] and c[i + 2]:
        for k in (i, i + 1, i + 2):
            c[k] -= 1
        ok = _sets(c)
        for k in (i, i + 1, i + 2):
            c[k] += 1
        return ok
    return False


def plain_standard(counts: list[int]) -> bool:
    """4 sets + a pair with no wilds, the textbook recursion (any count per kind)."""
    for k in range(34):
        if counts[k] >= 2:
            counts[k] -= 2
            ok = _sets(counts)
            counts[k] += 2
            if ok:
                return True
    return False


def brute_standard(counts: list[int], wilds: int) -> bool:
    """Every kind substituted for every wild, one by one."""
    if wilds == 0:
        return plain_standard(counts)
    for k in range(34):
        counts[k] += 1
        ok = brute_standard(counts, wilds - 1)
        counts[k] -= 1
        if ok:
            return True
    return False


def ask(tiles, flip="9p", **context):
    """The answer for these tiles; ``flip`` None sends none (a ruleset whose wilds are fixed)."""
    flipped = {} if flip is None else {"flip": flip}
    return analyse({"tiles": tiles.split() if isinstance(tiles, str) else tiles, **flipped, **context})


# ---------------------------------------------------------------- properties


@SETTINGS
@given(complete_tiles())
def test_sets_and_a_pair_with_wilds_are_always_complete(hand):
    ruleset, flip, tiles = hand
    assert ask(tiles, flip, ruleset=ruleset)["complete"] is True


@SETTINGS
@given(complete_tiles(), st.integers(0, 13))
def test_a_tile_taken_out_is_among_the_waits(hand, i):
    ruleset, flip, tiles = hand
    out = tiles.pop(i)
    waits = ask(tiles, flip, ruleset=ruleset)["waits"]
    assert out in [w["tile"] for w in waits]
    assert [w["tile"] for w in waits] == sorted((w["tile"] for w in waits), key=INDEX.__getitem__)
    assert all(w["complete"] for w in waits)


@SETTINGS
@given(complete_tiles(max_wilds=0), st.lists(st.integers(0, 13), max_size=2), st.data())
def test_brute_force_over_wild_assignments_agrees(hand, changes, data):
    """Plain hands (白 kept out, flip 白 so only 白 is wild), perturbed, with up to 2 tiles made wild;
    melded 1 leaves only the standard shape under 义乌."""
    _, _, tiles = hand
    kinds = [INDEX[t] if t != "P" else INDEX["C"] for t in tiles]
    for i in changes:
        kinds[i] = data.draw(st.integers(0, 32))
    n_wild = data.draw(st.integers(0, 2))
    counts = [0] * 34
    for k in kinds[n_wild:]:
        counts[k] += 1
    if max(counts) > 4:
        return
    expect = brute_standard(counts, n_wild)
    assert is_standard(counts, n_wild) is expect
    request_tiles = [CODES[k] for k in kinds[n_wild:]] + ["P"] * n_wild
    assert ask(request_tiles, "P", melded=1)["complete"] is expect


# ---------------------------------------------------------------- shapes

STD = "1m 2m 3m 4m 5m 6m 7p 8p 9p 2s 3s 4s 5s 5s"


def test_standard_wild_fills_a_chow_gap_and_five_of_a_kind_can_be_read():
    assert ask("1m E 3m 4m 5m 6m 7p 8p 9p 2s 3s 4s 5s 5s", flip="E")["win_type"] == "pinghu"
    # four 1m and a wild read as a fifth 1m: 111m + 11m pair
    assert ask("1m 1m 1m 1m E 2p 3p 4p 5p 6p 7p 7s 8s 9s", flip="E", melded=1)["complete"] is True


def test_chows_do_not_wrap_and_honours_do_not_chow():
    assert ask("8m 9m 1m 4p 5p 6p 7p 8p 9p 2s 3s 4s 5s 5s", flip="E")["complete"] is False
    assert ask("E S W 4p 5p 6p 7p 8p 9p 2s 3s 4s 5s 5s", flip="1m")["complete"] is False


def test_qidui_needs_melded_0():
    hand = "1m 1m 3m 3m 5p 5p 7p 7p 9s 9s E E C C"
    assert ask(hand, flip="2m")["win_type"] == "qidui"
    assert ask(hand, flip="2m", melded=1) == {"complete": False}


def test_shisanbukao_spacing_and_honours():
    assert ask("1m 5m 9m 2p 5p 8p 3s 6s 9s E S W N C", flip="2m")["win_type"] == "shisanbukao"
    assert ask("1m 3m 9m 2p 5p 8p 3s 6s 9s E S W N C", flip="2m") == {"complete": False}


# ---------------------------------------------------------------- 义乌 quirks


def test_yiwu_both_qidui_and_standard_reads_as_qidui():
    assert ask("1m 1m 2m 2m 3m 3m 4p 4p 5p 5p 6p 6p 7s 7s", self_drawn=True)["win_type"] == "qidui_zimo"


def test_yiwu_two_wilds_forbid_a_discard_win_but_not_zimo():
    assert ask("1m E 3m 4m 5m 6m 7p 8p 9p 2s 3s 4s 5s 5s", flip="E")["win_type"] == "pinghu"
    two = "1m E 3m 4m E 6m 7p 8p 9p 2s 3s 4s 5s 5s"
    assert ask(two, flip="E") == {
        "complete": True,
        "caishen": 2,
        "win_type": None,
        "reason": "holding 2 财神: no discard win (docs/rules/yiwu.md §9)",
    }
    assert ask(two, flip="E", self_drawn=True)["win_type"] == "zimo"
    assert ask(two, flip="E", robbing_kong=True)["win_type"] == "qianggang"


def test_yiwu_three_wilds_allow_gangkai():
    three = "1m E 3m 4m E 6m 7p 8p 9p 2s 3s 4s E 5s"
    assert ask(three, flip="E", after_kong=True)["win_type"] == "gangkai"
    assert ask(three, flip="E", self_drawn=True)["win_type"] == "caishentou"  # 5s pairs with a lone wild
    assert ask(three, flip="E", robbing_kong=True)["win_type"] is None


def test_yiwu_caishentou_when_last_is_itself_a_wild():
    assert ask("1m 2m 3m 4m 5m 6m 7p 8p 9p 2s 3s 4s E E", flip="E", self_drawn=True)["win_type"] == "caishentou"
    # only one wild, and it is last: no lone wild is held
    assert ask("1m 2m 3m 4m 5m 6m 7p 8p 9p 2s 3s 4s 5s E", flip="E", self_drawn=True)["win_type"] == "zimo"


def test_yiwu_caishentou_is_self_drawn_only():
    assert ask("1m 2m 3m 4m 5m 6m 7p 8p 9p 2s 3s 4s E 5s", flip="E")["win_type"] == "pinghu"


def test_yiwu_qidui_caishentou():
    hand = "1m 1m 3m 3m 5p 5p 7p 7p 9s 9s E E 2m 4s"
    assert ask(hand, flip="2m", self_drawn=True)["win_type"] == "qidui_caishentou"


def test_yiwu_flip_bai_makes_bai_wild_with_nothing_standing_in():
    assert ask("1m P 3m 4m 5m 6m 7p 8p 9p 2s 3s 4s 5s 5s", flip="P") == {
        "complete": True,
        "caishen": 1,
        "win_type": "pinghu",
    }


def test_yiwu_has_no_luanfeng():
    assert ask("E E E S S W W N N C C F F F", flip="9m") == {"complete": False}


def test_yiwu_waits_are_listed_even_when_refused():
    waits = ask("1m E 3m 4m E 6m 7p 8p 9p 2s 3s 4s 5s", flip="E")["waits"]
    five = next(w for w in waits if w["tile"] == "5s")
    assert five["win_type"] is None
    assert five["reason"]


# ---------------------------------------------------------------- 诸暨 quirks


def zhuji(tiles, flip="9p", **context):
    return ask(tiles, flip, ruleset="zhuji", **context)


def test_zhuji_reads_only_the_standard_shape():
    assert zhuji("1m 1m 3m 3m 5p 5p 7p 7p 9s 9s E E C C", flip="2m") == {"complete": False}


def test_zhuji_pinghu_needs_a_plain_pair():
    answer = zhuji("1m 2m 3m 4m 5m 6m 7p 8p 9p 2s 3s 4s 5s 5s", flip="E", seat_wind="S")
    assert answer["tai"]["shape"] == "pinghu"
    assert answer["tai_total"] == 1
    seat_pair = zhuji("1m 2m 3m 4m 5m 6m 7p 8p 9p 2s 3s 4s S S", flip="C", seat_wind="S")
    assert seat_pair["tai"]["shape"] == "mixed"
    assert seat_pair["tai_total"] == 0


def test_zhuji_lists_a_wind_pung_worth_nothing():
    answer = zhuji("W W W 4m 5m 6m 7p 8p 9p 2s 3s 4s 5s 5s", flip="C", seat_wind="S")
    assert answer["tai"]["wind_pungs"] == ["xi"]
    assert answer["tai_total"] == 0
    assert answer["can_win"] is True  # no wild
    assert breakdown(answer, "zhuji") == "0 台：0"


def test_zhuji_a_wild_and_0_tai_cannot_win_unless_gangkai_or_qianggang():
    hand = "W W W 4m 5m 6m 7p 8p 9p 2s 3s 4s 5s 1m"  # flip 1m: 1m and 2m wild
    answer = zhuji(hand, flip="1m", seat_wind="S")
    assert (answer["caishen"], answer["tai_total"], answer["can_win"]) == (1, 0, False)
    assert zhuji(hand, flip="1m", seat_wind="S", after_kong=True)["can_win"] is True
    robbed = zhuji(hand, flip="1m", seat_wind="S", robbing_kong=True)
    assert (robbed["tai"]["qianggang"], robbed["tai_total"], robbed["can_win"]) == (True, 1, True)


def test_zhuji_flip_fa_makes_bai_wild():
    answer = zhuji("1m 2m 3m 4m 5m 6m 7p 8p 9p 2s 3s 4s 5s P", flip="F", seat_wind="S")
    assert answer["caishen"] == 1
    assert answer["tai"]["no_caishen"] is False


def test_zhuji_quanzi_and_tianhu_are_8_flat_keeping_the_fields():
    answer = zhuji("E E E S S S C C C F F F N N", flip="1m", dealer=True)
    assert answer["tai"]["special"] == "quanzi"
    assert answer["tai"]["dragon_pungs"] == ["zhong", "fa"]
    assert answer["tai"]["shape"] == "duiduihu"
    assert answer["tai_total"] == 8
    tianhu = zhuji(STD, flip="E", dealer=True, self_drawn=True, first_round="tianhu")
    assert (tianhu["tai"]["special"], tianhu["tai"]["shape"], tianhu["tai_total"]) == ("tianhu", "pinghu", 8)


def test_zhuji_duiduihu_hunyise_dealer_5_tai():
    answer = zhuji("E E E C C C 1m 1m 1m 4m 4m 4m 9m 9m", flip="5p", dealer=True, self_drawn=True)
    assert answer["tai_total"] == 5
    assert breakdown(answer, "zhuji") == "5 台：东风 2 · 中 1 · 对对胡 1 · 混一色 1"


# ---------------------------------------------------------------- 武义 quirks


def wuyi2(tiles, flip="9p", **context):
    return ask(tiles, flip, ruleset="wuyi2", **context)


def test_wuyi2_patterns_always_name_the_shape():
    assert wuyi2(STD, flip="E") == {"complete": True, "caishen": 0, "patterns": ["pinghu"], "fan": 0}


def test_wuyi2_qingyise_cai_with_a_wild_read_as_the_suit():
    answer = wuyi2("1m 2m 3m 4m 5m 6m 7m 8m 9m 1m 2m 3m E 5m", flip="E")
    assert answer["patterns"] == ["pinghu", "qingyise_cai", "baotou"]
    assert answer["fan"] == 2


def test_wuyi2_caishentou_and_sancai():
    cst = wuyi2("1m 2m 3m 4m 5m 6m 7p 8p 9p 2s 3s 4s E E", flip="E")
    assert cst["patterns"] == ["pinghu", "caishentou"]
    sancai = wuyi2("1m 2m 3m 4m 5m 6m 7p 8p 9p E E E 5s 5s", flip="E")
    assert sancai["patterns"] == ["pinghu", "sancai"]
    assert sancai["fan"] == 3


def test_wuyi2_qingqidui_and_qingyise():
    answer = wuyi2("1m 1m 2m 2m 3m 3m 4m 4m 5m 5m 6m 6m 9m 9m", flip="E", self_drawn=True)
    assert answer["patterns"] == ["qingqidui", "qingyise"]
    assert answer["fan"] == 5
    assert breakdown(answer, "wuyi2") == "5 番：清七对 2 · 清一色 2 · 自摸 1"


def test_wuyi2_qifeng_needs_plain_winds():
    # flip 白: 白 is wild and may stand for a dragon, never for a wind
    assert wuyi2("1m 4m 7m 2p 5p 8p 3s E S W N C F P", flip="P")["patterns"] == ["qifeng"]
    assert wuyi2("1m 4m 7m 2p 5p 8p 3s 9s S W N C F P", flip="P")["patterns"] == ["shisanbukao"]
    # flip 9s: 白 plays as a plain 9s, so only six honours
    assert wuyi2("1m 4m 7m 2p 5p 8p 3s E S W N C F P", flip="9s")["patterns"] == ["shisanbukao"]


def test_wuyi2_qingfeng_beats_luanfeng():
    answer = wuyi2("E E E S S S W W W C C C F F", flip="1m")
    assert answer["patterns"] == ["qingfeng"]  # one shape only: 清风 4 over 碰碰胡 1 and 乱风 3
    assert answer["fan"] == 4


def test_wuyi2_quanqiuren_only_on_a_discard():
    assert wuyi2(STD, flip="E", melded=4)["patterns"] == ["quanqiuren"]
    assert wuyi2(STD, flip="E", melded=4, robbing_kong=True)["patterns"] == ["quanqiuren"]
    assert wuyi2(STD, flip="E", melded=4, self_drawn=True)["patterns"] == ["pinghu"]


def test_wuyi2_context_patterns():
    answer = wuyi2(STD, flip="E", after_kong=True, last_tile=True, dealer=True, first_round="tianhu")
    assert answer["patterns"] == ["pinghu", "tianhu", "gangkai", "haidi"]
    assert answer["fan"] == 4


# ---------------------------------------------------------------- context checks


@pytest.mark.parametrize(
    "context",
    [
        {"first_round": "tianhu", "self_drawn": True},  # not the dealer
        {"first_round": "dihu", "dealer": True},
        {"first_round": "renhu", "self_drawn": False},
        {"robbing_kong": True, "after_kong": True},
        {"dealer": True, "seat_wind": "N"},
        {"melded": True},
    ],
)
def test_context_checks(context):
    with pytest.raises(ScoringError):
        wuyi2(STD, flip="E", **context)


def test_four_of_the_flip_are_not_an_error():
    assert ask("E E E E 1m 2m 3m 4m 5m 6m 7p 8p 9p 5s", flip="E", self_drawn=True)["caishen"] == 4

"""杭州麻将 (docs/rules/hangzhou.md): one focused test per rule of §1-§6, the house rules and their
bounds, the contract's input hygiene, the explanations, seatings and corrections, and
``conflicts()`` agreeing with validation."""

import itertools

import pytest

from scoring.engine import get_ruleset, score_game, score_game_or_error
from scoring.rulesets.hangzhou.engine import (
    BY_CODE,
    CODES,
    DEFAULT_PRESET,
    GROUPS,
    HANGZHOU,
    LISTABLE,
    PATTERNS,
    PRESETS,
    RULE_INFO,
    Rules,
    chengbao_problem,
    conflicts,
    level,
    parse_rules,
)

DRAW = {"outcome": "draw"}
NOTHING = object()


def win(winner, *patterns, caipiao=None, chengbao=None):
    hand = {"outcome": "win", "winner": winner}
    if patterns:
        hand["patterns"] = list(patterns)
    if caipiao is not None:
        hand["caipiao"] = caipiao
    if chengbao is not None:
        hand["chengbao"] = chengbao
    return hand


def game(*hands, rules=NOTHING, first_dealer=None, players=None):
    g = {"ruleset": "hangzhou", "hands": list(hands)}
    if rules is not NOTHING:
        g["rules"] = rules
    if first_dealer is not None:
        g["first_dealer"] = first_dealer
    if players is not None:
        g["players"] = players
    return g


def play(*hands, **kw):
    return score_game(game(*hands, **kw))


def one(hand, **kw):
    """The one hand's result (seat 0 deals at 一老庄 unless said otherwise)."""
    return play(hand, **kw)["hands"][0]


def error(*hands, **kw) -> dict:
    ok, body = score_game_or_error(game(*hands, **kw))
    assert not ok, body
    err = body["error"]
    assert err["message"]
    assert err["message_en"]
    return err


def flows(result) -> dict:
    return {(p["from"], p["to"]): p["amount"] for p in result["payments"]}


# --- the package --------------------------------------------------------------------------


def test_ruleset_is_registered_with_four_seats_and_its_words():
    assert get_ruleset("hangzhou") is HANGZHOU
    assert (HANGZHOU.zh, HANGZHOU.en, HANGZHOU.seats) == ("杭州麻将", "Hangzhou", 4)
    assert HANGZHOU.count_word == ("番", "Fan")
    assert HANGZHOU.rules_document.name == "hangzhou.md"
    assert DEFAULT_PRESET in PRESETS


def test_the_fan_of_every_pattern_is_the_rulebooks_table():
    assert {p.code: p.fan for p in PATTERNS} == {
        "baotou": 1,
        "gangkai": 1,
        "caipiao": 1,
        "qidui": 2,
        "haohua_qidui": 4,
        "shifeng": 3,
        "shifeng_bai": 4,
        "no_caishen": 1,
    }
    assert "caipiao" not in LISTABLE  # counted by its own field, never listed
    assert set(CODES) == set(LISTABLE) | {"caipiao"}
    assert all(p.group in GROUPS for p in PATTERNS)


def test_the_defaults_are_the_rulebooks_reading():
    assert Rules().to_dict() == {
        "base": 1,
        "fan_cap": 4,
        "laozhuang": [2, 4, 8],
        "laozhuang_on_draw": True,
        "next_dealer": "winner",
        "caipiao_stack": True,
        "fan": {},
    }
    assert list(RULE_INFO) == list(Rules().to_dict())  # every house rule on the new-game form
    assert HANGZHOU.rules_from_dict(Rules().to_dict()) == Rules()


# --- §5 payments ---------------------------------------------------------------------------


def test_a_non_dealer_pinghu_takes_one_from_each_non_dealer_and_d_from_the_dealer():
    result = one(win(1))
    assert (result["fan"], result["net"]) == (0, [-2, 4, -1, -1])
    assert flows(result) == {(0, 1): 2, (2, 1): 1, (3, 1): 1}


def test_the_dealer_wins_d_times_the_basic_points_from_each():
    assert one(win(0))["net"] == [6, -2, -2, -2]


@pytest.mark.parametrize(
    ("patterns", "caipiao", "fan"),
    [
        ((), 0, 0),
        (("baotou",), 0, 1),
        (("gangkai",), 0, 1),
        ((), 1, 2),  # 财飘 is always 爆头 too
        (("baotou",), 1, 2),  # and 爆头 is counted once
        ((), 2, 3),
        (("qidui",), 0, 2),
        (("qidui", "no_caishen"), 0, 3),
        (("haohua_qidui",), 0, 4),
        (("shifeng",), 0, 3),
        (("shifeng", "no_caishen"), 0, 4),
        (("no_caishen",), 0, 1),
        (("baotou", "gangkai"), 0, 2),
        (("qidui", "baotou"), 1, 4),
    ],
)
def test_the_fan_add_up(patterns, caipiao, fan):
    result = one(win(2, *patterns, caipiao=caipiao), rules={"fan_cap": None})
    assert result["fan"] == fan
    assert result["net"][2] == 2**fan * 4  # 1 + 1 from the others, 2 from the dealer


def test_the_fan_are_capped_at_four():
    assert one(win(1, "haohua_qidui", "no_caishen"))["fan"] == 4
    assert one(win(1, "gangkai", caipiao=3))["fan"] == 4
    result = one(win(1, "gangkai", caipiao=3), rules={"fan_cap": None})
    assert result["fan"] == 5
    assert one(win(1, "baotou"), rules={"fan_cap": 0})["net"] == [-2, 4, -1, -1]


def test_the_base_multiplies_the_basic_points():
    assert one(win(2, "baotou"), rules={"base": 5})["net"] == [-20, -10, 40, -10]


@pytest.mark.parametrize(("streak", "lvl", "d"), [(0, 1, 2), (1, 2, 4), (2, 3, 8), (3, 3, 8), (40, 3, 8)])
def test_the_dealer_factor_follows_the_laozhuang_level(streak, lvl, d):
    assert level(streak) == lvl
    assert Rules().factor(streak) == d
    wins = [win(0)] * streak
    result = play(*wins, win(0))["hands"][-1]
    assert result["streak"] == streak
    assert result["net"] == [3 * d, -d, -d, -d]


def test_the_laozhuang_factors_are_a_house_rule():
    hands = play(win(0), win(0), win(0), win(1), rules={"laozhuang": [3, 5, 7]})["hands"]
    assert [h["net"][0] for h in hands] == [9, 15, 21, -7]


def test_the_dealer_climbs_to_sanlaozhuang_and_loses_it_to_the_winner():
    hands = play(win(3), win(3), DRAW, win(3), win(3), win(1, "baotou"))["hands"]
    assert [(h["dealer"], h["streak"]) for h in hands] == [(0, 0), (3, 0), (3, 1), (3, 2), (3, 3), (3, 4)]
    assert hands[-1]["net"] == [-2, 20, -2, -16]  # 2^1 = 2 from each, the 三老庄 dealer 2 × 8
    after = play(win(3), win(1), win(1))["hands"][-1]
    assert (after["dealer"], after["streak"]) == (1, 0)  # a new dealer starts at 一老庄


# --- §5 承包 --------------------------------------------------------------------------------


def test_the_winner_who_chowed_three_times_from_their_left_has_the_left_pay_everything():
    result = one(win(2, chengbao=[2]))
    assert flows(result) == {(1, 2): 4}  # T = 2 (dealer) + 1 + 1
    assert result["net"] == [0, -4, 4, 0]


def test_the_right_who_chowed_three_times_from_the_winner_pays_double():
    result = one(win(2, chengbao=[3]))
    assert flows(result) == {(3, 2): 8}


def test_both_liable_pay_and_the_fourth_pays_nothing():
    result = one(win(1, "baotou", chengbao=[2, 1]))
    assert flows(result) == {(0, 1): 8, (2, 1): 16}  # T = 4 + 2 + 2
    assert result["net"] == [-8, 24, -16, 0]


def test_a_dealer_win_under_chengbao_counts_d_for_each_of_the_three():
    result = one(win(0, chengbao=[0]))  # 北 chowed from: 东 won having chowed thrice from 北
    assert flows(result) == {(3, 0): 6}


def test_a_seat_in_chengbao_that_touches_neither_case_changes_nothing():
    assert one(win(1, chengbao=[3]))["net"] == one(win(1))["net"]
    assert one(win(1, chengbao=[0, 3]))["net"] == one(win(1))["net"]  # 0 chowed thrice from 3: not the winner
    assert one(win(1, chengbao=[0, 3, 2]))["net"] == one(win(1, chengbao=[2]))["net"]


# --- §2 the deal ---------------------------------------------------------------------------


def test_the_winner_deals_next_and_a_draw_keeps_the_dealer():
    hands = play(win(2), DRAW, win(2), win(3), first_dealer=1)["hands"]
    assert [(h["dealer"], h["streak"]) for h in hands] == [(1, 0), (2, 0), (2, 1), (2, 2)]


def test_a_draw_keeps_the_level_with_laozhuang_on_draw_false():
    hands = play(win(0), DRAW, DRAW, win(0), rules={"laozhuang_on_draw": False})["hands"]
    assert [h["streak"] for h in hands] == [0, 1, 1, 1]


def test_next_seat_passes_the_deal_to_the_dealers_right_when_another_wins():
    hands = play(win(2), win(0), win(1), rules={"next_dealer": "next_seat"})["hands"]
    assert [h["dealer"] for h in hands] == [0, 1, 2]


def test_caipiao_stack_false_counts_one_fan_for_the_float():
    assert one(win(1, caipiao=3), rules={"caipiao_stack": False})["fan"] == 2


def test_the_fan_table_is_a_house_rule_and_caipiao_is_per_wild():
    assert one(win(1, "qidui"), rules={"fan": {"qidui": 1}})["fan"] == 1
    assert one(win(1, caipiao=2), rules={"fan": {"caipiao": 0}, "fan_cap": None})["fan"] == 1
    assert one(win(1, caipiao=2), rules={"fan": {"caipiao": 2, "baotou": 0}, "fan_cap": None})["fan"] == 4


def test_a_draw_pays_nothing():
    result = one(DRAW)
    assert (result["fan"], result["net"], result["payments"]) == (0, [0, 0, 0, 0], [])


def test_the_output_of_a_hand_is_the_contracts():
    assert set(one(win(1, "baotou"))) == {"dealer", "streak", "fan", "net", "payments"}


# --- §4 validation -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("hand", "field", "words"),
    [
        ({"outcome": "win", "winner": 1, "discarder": 2}, "discarder", "只能自摸"),
        ({"outcome": "win", "winner": 1, "discarder": None}, "discarder", "只能自摸"),
        (win(1, "pinghu"), "patterns", "未知的番型"),
        (win(1, "caipiao"), "patterns", "财飘不列在番型里"),
        (win(1, "baotou", "baotou"), "patterns", "只能算一次"),
        (win(1, caipiao=4), "caipiao", "0-3"),
        (win(1, caipiao=-1), "caipiao", "0-3"),
        (win(1, caipiao=True), "caipiao", "0-3"),
        (win(1, "qidui", "haohua_qidui"), "patterns", "只能算一个"),
        (win(1, "shifeng", "shifeng_bai"), "patterns", "只能算一个"),
        (win(1, "shifeng", "baotou"), "patterns", "十风是单独的一种胡法"),
        (win(1, "shifeng_bai", "gangkai"), "patterns", "十风带白是单独的一种胡法"),
        (win(1, "qidui", "shifeng"), "patterns", "单独的一种胡法"),
        (win(1, "shifeng", caipiao=1), "caipiao", "单独的一种胡法"),
        (win(1, "no_caishen", "baotou"), "patterns", "要手里有财神"),
        (win(1, "no_caishen", caipiao=2), "caipiao", "要手里有财神"),
        (win(1, "qidui", "gangkai"), "patterns", "没有杠"),
        (win(1, "gangkai", "haohua_qidui"), "patterns", "没有杠"),
        (win(1, "qidui", chengbao=[1]), "chengbao", "没有吃牌"),
        (win(1, "shifeng", chengbao=[1]), "chengbao", "没有吃牌"),
        (win(1, chengbao=[2, 2]), "chengbao", "不能重复"),
        (win(1, chengbao=[4]), "chengbao", "座位号"),
        (win(1, chengbao=2), "chengbao", "座位号的列表"),
        (win(4), "winner", "座位号"),
        ({"outcome": "win"}, "winner", "谁胡了"),
        ({"outcome": "draw", "winner": 1}, "winner", "流局"),
        ({"outcome": "draw", "caipiao": 1}, "caipiao", "流局"),
        ({"outcome": "abandon", "leaver": 1}, "leaver", "未知字段"),
        ({**win(1), "feeders": [2]}, "feeders", "未知字段"),
    ],
)
def test_a_hand_breaking_a_rule_is_refused_naming_it_in_both_languages(hand, field, words):
    err = error(win(0), hand)
    assert err["hand"] == 1
    assert err["field"] == field
    assert words in err["message"]
    if field in ("discarder", "patterns", "caipiao", "chengbao") and "座位号" not in words and "流局" not in words:
        assert err["message"].startswith("§4")
        assert err["message_en"].startswith("§4")


def test_the_winner_liable_for_chows_is_refused_with_seven_pairs_but_the_right_is_not():
    assert one(win(1, "qidui", chengbao=[2]))["net"] == [0, 32, -32, 0]  # 西 pays 2 × 2^2 · (2 + 1 + 1)
    assert error(win(1, "haohua_qidui", chengbao=[1, 2]))["field"] == "chengbao"


def test_only_no_caishen_goes_with_shifeng():
    assert one(win(1, "shifeng_bai", "no_caishen"))["fan"] == 4
    assert one(win(1, "shifeng", chengbao=[2]))["net"][1] > 0  # the right may be liable


@pytest.mark.parametrize(
    ("rules", "field"),
    [
        ({"laozhuang": [2, 4]}, "laozhuang"),
        ({"laozhuang": [2, 4, 8, 16]}, "laozhuang"),
        ({"laozhuang": [2, 4, 65]}, "laozhuang.3"),
        ({"laozhuang": [0, 4, 8]}, "laozhuang.1"),
        ({"laozhuang": [2, True, 8]}, "laozhuang.2"),
        ({"laozhuang": "2,4,8"}, "laozhuang"),
        ({"fan_cap": 21}, "fan_cap"),
        ({"fan_cap": -1}, "fan_cap"),
        ({"fan": {"qidui": 11}}, "fan.qidui"),
        ({"fan": {"pinghu": 0}}, "fan"),
        ({"next_dealer": "left"}, "next_dealer"),
        ({"laozhuang_on_draw": 1}, "laozhuang_on_draw"),
        ({"caipiao_stack": "yes"}, "caipiao_stack"),
        ({"base": 0}, "base"),
        ({"base": 1_000_001}, "base"),
        ({"dealer_double": "both"}, "dealer_double"),
    ],
)
def test_a_bad_house_rule_is_a_game_level_error_naming_it(rules, field):
    err = error(win(0), rules=rules)
    assert err["hand"] is None
    assert err["field"] == field


def test_the_house_rules_parse_to_frozen_values():
    rules = parse_rules({"laozhuang": [1, 1, 64], "fan": {"caipiao": 10}, "fan_cap": None})
    assert rules.laozhuang == (1, 1, 64)
    assert rules.fan_table["caipiao"] == 10
    assert rules.fan_cap is None
    assert hash(rules) == hash(parse_rules({"fan_cap": None, "fan": {"caipiao": 10}, "laozhuang": [1, 1, 64]}))


def test_a_hand_whose_amount_reaches_ten_to_the_twelfth_is_refused_at_that_hand():
    big = {"base": 1_000_000, "fan_cap": None, "laozhuang": [64, 64, 64], "fan": {"caipiao": 10, "gangkai": 10}}
    assert play(win(1), rules=big)["totals"] == [-64_000_000, 66_000_000, -1_000_000, -1_000_000]
    err = error(win(1), win(0, "gangkai", caipiao=3), rules=big)
    assert err["hand"] == 1
    assert "10^12" in err["message"]


# --- conflicts() and the validator agree -----------------------------------------------------


def _valid(chips: tuple) -> bool:
    codes = [c for c in chips if c != "caipiao"]
    ok, _ = score_game_or_error(game(win(1, *codes, caipiao=1 if "caipiao" in chips else 0)))
    return ok


def test_conflicts_grey_exactly_the_chips_scoring_would_refuse():
    for size in range(0, 3):
        for chosen in itertools.combinations(CODES, size):
            if not _valid(chosen):
                continue
            refused = conflicts(chosen)
            for code in CODES:
                if code in chosen:
                    assert code not in refused
                else:
                    assert (code in refused) == (not _valid((*chosen, code))), (chosen, code)
                    if code in refused:
                        zh, en = refused[code]
                        assert zh.startswith("§4")
                        assert en.startswith("§4")


def test_chengbao_problem_names_the_hands_without_chows():
    assert chengbao_problem(("baotou", "gangkai", "caipiao")) is None
    for code in ("qidui", "haohua_qidui", "shifeng", "shifeng_bai"):
        zh, en = chengbao_problem((code,))
        assert BY_CODE[code].zh in zh
        assert BY_CODE[code].en in en


# --- explanations ---------------------------------------------------------------------------


def test_each_payment_says_the_fan_the_patterns_and_the_dealers_level():
    hands = play(win(0), win(0), win(2, "baotou", caipiao=1))["hands"]
    explained = {(p["from"], p["to"]): (p["explain"], p["explain_en"]) for p in hands[-1]["payments"]}
    assert explained[(0, 2)] == (
        "东→西 32 = 2^2 番（爆头1 + 财飘1）× 8 庄·三老庄",
        "E→W 32 = 2^2 fan (Wild head 1 + Wild float 1) × 8 dealer, level 3",
    )
    assert explained[(1, 2)][0] == "南→西 4 = 2^2 番（爆头1 + 财飘1）"


def test_a_capped_hand_says_its_fan_before_the_cap_and_a_base_shows():
    payment = one(win(1, "gangkai", caipiao=3), rules={"base": 2})["payments"][1]
    assert payment["explain"] == "西→南 32 = 2 × 2^4 番（爆头1 + 杠开1 + 财飘1×3 = 5，封顶4）"
    assert (
        payment["explain_en"] == "W→S 32 = 2 × 2^4 fan (Wild head 1 + Kong bloom 1 + Wild float 1×3 = 5, capped at 4)"
    )


def test_a_liable_payment_says_whose_shares_it_pays_and_why():
    upper, lower = one(win(1, "baotou", chengbao=[1, 2]))["payments"]
    assert upper["explain"] == "东→南 8 = 2^1 番（爆头1）×（1 + 1 + 2）包三家（胡家吃了上家三次），庄·一老庄 ×2"
    assert lower["explain"].startswith("西→南 16 = 2 × 2^1 番（爆头1）×（1 + 1 + 2）包三家加倍（下家吃了胡家三次）")
    assert "they chowed three times from the winner" in lower["explain_en"]


def test_a_pinghu_says_so():
    assert one(win(1))["payments"][1]["explain"] == "西→南 1 = 2^0 番（平和）"


# --- seatings, corrections, manual hands -----------------------------------------------------

PLAYERS = ["老王", "阿明", "小李", "阿芳"]


def seating(*names, dealer=None):
    entry = {"outcome": "seating", "players": list(names)}
    if dealer is not None:
        entry["dealer"] = dealer
    return entry


def test_a_seating_keeps_the_level_while_the_same_person_deals_and_restarts_it_for_another():
    hands = play(
        win(0),
        win(0),
        seating("老王", "阿明", "小李", "大张"),
        win(0),
        seating("大张", "阿明", "小李", "老王", dealer=1),
        win(1),
        players=PLAYERS,
    )["hands"]
    assert (hands[2]["dealer"], hands[2]["streak"]) == (0, 2)
    assert hands[3]["net"] == [24, -8, -8, -8]  # 三老庄
    assert (hands[4]["dealer"], hands[4]["streak"]) == (1, 0)
    assert hands[5]["net"] == [-2, 6, -2, -2]
    assert "fan" not in hands[2]


def test_a_correction_sets_the_dealer_and_the_level():
    g = game(win(1), win(1))
    g["corrections"] = [{"hand": 1, "dealer": 3, "streak": 2}]
    hands = score_game(g)["hands"]
    assert (hands[1]["dealer"], hands[1]["streak"]) == (3, 2)
    assert hands[1]["net"] == [-1, 10, -1, -8]


def test_a_manual_hand_keeps_the_dealer_and_the_level():
    manual = {"outcome": "manual", "net": [5, -5, 0, 0], "note": "罚分"}
    hands = play(win(0), manual, win(0))["hands"]
    assert hands[1]["streak"] == 1
    assert hands[2]["net"] == [12, -4, -4, -4]

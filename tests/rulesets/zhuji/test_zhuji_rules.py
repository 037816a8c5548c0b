"""诸暨麻将 rule by rule (docs/rules/zhuji.md §1-§7, docs/contract.md "A 诸暨 hand" and "A game (input)").

Every amount is written out as the rule computes it: a payment is base · 2^T, and on a discard the
two who did not discard pay base · 2^(T−1).
"""

from fractions import Fraction

import pytest

from scoring.engine import ScoringError, get_ruleset, replay, score_game, score_game_or_error
from scoring.rulesets.zhuji.engine import (
    DEFAULT_PRESET,
    PRESETS,
    RULE_INFO,
    ZHUJI,
    Rules,
    TableState,
    parse_hand,
    parse_rules,
    parse_tai,
    score_hand,
    seat_wind,
    tai_count,
    tai_items,
)
from scoring.rulesets.zhuji.engine.hands import wind_tai


def win(winner, discarder=None, **tai) -> dict:
    hand = {"outcome": "win", "winner": winner, "tai": tai}
    if discarder is not None:
        hand["discarder"] = discarder
    return hand


DRAW = {"outcome": "draw"}
PINGHU = {"shape": "pinghu"}


def play(*hands, **game) -> dict:
    return score_game({"ruleset": "zhuji", "hands": list(hands), **game})


def one(hand, **game) -> dict:
    return play(hand, **game)["hands"][0]


def refused(*hands, **game) -> ScoringError:
    with pytest.raises(ScoringError) as caught:
        play(*hands, **game)
    return caught.value


def pays(hand) -> dict:
    return {(p["from"], p["to"]): p["amount"] for p in hand["payments"]}


# --- registry and house rules ----------------------------------------------------------------


def test_zhuji_is_registered_with_four_seats():
    assert get_ruleset("zhuji") is ZHUJI
    assert (ZHUJI.zh, ZHUJI.en, ZHUJI.seats) == ("诸暨麻将", "Zhuji", 4)


def test_rules_defaults_and_to_dict():
    assert Rules().to_dict() == {"base": 1, "tai_cap": None, "draw_passes_deal": False}
    assert ZHUJI.rules_from_dict(Rules(base=5, tai_cap=3).to_dict()) == Rules(base=5, tai_cap=3)


def test_every_rule_has_chinese_and_english_label_and_help():
    assert list(RULE_INFO) == ["base", "tai_cap", "draw_passes_deal"]
    for info in RULE_INFO.values():
        assert info.zh
        assert info.zh_help
        assert info.en
        assert info.en_help


def test_presets_are_valid_rules():
    assert DEFAULT_PRESET in PRESETS
    assert ZHUJI.parse_rules(PRESETS["2分"]) == Rules(base=2)
    assert all(ZHUJI.parse_rules(PRESETS[name]).base >= 1 for name in PRESETS)


@pytest.mark.parametrize(
    "raw",
    [
        {"base": 0},
        {"base": 1_000_001},
        {"base": 1.5},
        {"base": True},
        {"tai_cap": -1},
        {"tai_cap": 101},
        {"draw_passes_deal": 1},
        {"base_dealer": 7},
    ],
)
def test_out_of_range_or_unknown_rules_are_game_errors(raw):
    with pytest.raises(ScoringError) as caught:
        parse_rules(raw)
    assert caught.value.hand is None
    assert caught.value.field == next(iter(raw))


def test_rule_bounds_are_accepted_at_their_edges():
    assert parse_rules({"base": 1_000_000, "tai_cap": 0}) == Rules(base=1_000_000, tai_cap=0)
    assert parse_rules({"tai_cap": 100, "draw_passes_deal": True}).tai_cap == 100
    assert parse_rules({"tai_cap": None}).tai_cap is None


@pytest.mark.parametrize("raw", [None, [], "base", 1])
def test_rules_must_be_an_object(raw):
    with pytest.raises(ScoringError) as caught:
        parse_rules(raw)
    assert caught.value.field == "rules"
    ok, body = score_game_or_error({"ruleset": "zhuji", "rules": raw, "hands": []})
    assert not ok
    assert body["error"]["hand"] is None


# --- §1 winds relative to the dealer ---------------------------------------------------------


def test_seat_wind_counts_from_the_dealer():
    assert [seat_wind(p, 0) for p in range(4)] == [0, 1, 2, 3]  # 东南西北
    assert [seat_wind(p, 2) for p in range(4)] == [2, 3, 0, 1]  # dealer 2 is 东, 3 南, 0 西, 1 北


def test_east_pung_is_two_tai_for_the_dealer_and_one_for_anyone_else():
    assert one(win(2, wind_pungs=["dong"]), first_dealer=2)["tai"] == 2
    assert one(win(3, wind_pungs=["dong"]), first_dealer=2)["tai"] == 1


@pytest.mark.parametrize("dealer", range(4))
def test_the_east_rule_reads_the_same_in_the_count_and_the_breakdown(dealer):
    """§3 东 is 2 for the dealer, 1 for anyone else; another wind 1 for its own seat (one source)."""
    for winner in range(4):
        for i, code in enumerate(("dong", "nan", "xi", "bei")):
            expected = (2 if winner == dealer else 1) if i == 0 else int(i == seat_wind(winner, dealer))
            tai = parse_tai({"wind_pungs": [code]})
            assert wind_tai(i, seat_wind(winner, dealer)) == expected
            assert tai_count(tai, winner, dealer) == expected
            assert tai_items(tai, winner, dealer)[0][2] == expected
    assert [wind_tai(i, None) for i in range(4)] == [1, 0, 0, 0]  # no winner yet: 东 is 1 to anyone


def test_own_seat_wind_counts_one_and_other_winds_nothing():
    # dealer 2: seat 3 is 南, seat 0 is 西, seat 1 is 北
    assert one(win(3, wind_pungs=["nan", "xi"]), first_dealer=2)["tai"] == 1  # 南1 + 西0
    assert one(win(0, wind_pungs=["xi", "bei", "dong"]), first_dealer=2)["tai"] == 2  # 西1 + 北0 + 东1
    assert one(win(1, wind_pungs=["bei", "nan"]), first_dealer=2)["tai"] == 1  # 北1 + 南0


def test_another_seats_wind_alone_is_zero_tai_and_refused():
    error = refused(win(0, wind_pungs=["nan"]))  # dealer 0: 南 is seat 1's wind
    assert error.field == "tai"


# --- §2 dealer --------------------------------------------------------------------------------


def test_dealer_win_keeps_the_deal_and_adds_to_the_streak():
    hands = play(win(0, **PINGHU), win(0, **PINGHU), win(0, **PINGHU))["hands"]
    assert [(h["dealer"], h["streak"]) for h in hands] == [(0, 0), (0, 1), (0, 2)]


def test_non_dealer_win_passes_the_deal_with_streak_zero():
    hands = play(win(0, **PINGHU), win(3, **PINGHU), win(1, **PINGHU), win(1, **PINGHU))["hands"]
    assert [(h["dealer"], h["streak"]) for h in hands] == [(0, 0), (0, 1), (1, 0), (1, 1)]


def test_first_dealer_is_chosen_at_creation_and_wraps_around():
    hands = play(win(1, **PINGHU), win(2, **PINGHU), first_dealer=3)["hands"]
    assert [(h["dealer"], h["streak"]) for h in hands] == [(3, 0), (0, 0)]


def test_draw_keeps_dealer_and_streak():
    hands = play(win(0, **PINGHU), DRAW, DRAW, win(0, **PINGHU))["hands"]
    assert [(h["dealer"], h["streak"]) for h in hands] == [(0, 0), (0, 1), (0, 1), (0, 1)]


def test_draw_passes_deal_house_rule():
    hands = play(win(0, **PINGHU), DRAW, DRAW, rules={"draw_passes_deal": True})["hands"]
    assert [(h["dealer"], h["streak"]) for h in hands] == [(0, 0), (0, 1), (1, 0)]


def test_streak_changes_no_amount():
    hands = play(win(0, **PINGHU), win(0, **PINGHU), win(0, **PINGHU))["hands"]
    assert [h["net"] for h in hands] == [[6, -2, -2, -2]] * 3  # each pays 1·2^1 every time


# --- §3 台 -----------------------------------------------------------------------------------


def test_each_dragon_pung_is_one_tai():
    assert one(win(1, dragon_pungs=["zhong"]))["tai"] == 1
    assert one(win(1, dragon_pungs=["zhong", "fa", "bai"]))["tai"] == 3  # 1 + 1 + 1


def test_pinghu_and_duiduihu_are_one_tai_each():
    assert one(win(1, shape="pinghu"))["tai"] == 1
    assert one(win(1, shape="duiduihu"))["tai"] == 1
    assert one(win(1, shape="duiduihu", dragon_pungs=["fa"]))["tai"] == 2  # 对对胡1 + 发1


def test_hunyise_is_one_more_on_top_of_the_honour_pungs():
    assert one(win(1, hunyise=True))["tai"] == 1
    assert one(win(1, hunyise=True, dragon_pungs=["bai"], wind_pungs=["nan"]))["tai"] == 3  # 混一色1 + 白1 + 南1


def test_qianggang_is_one_more():
    assert one(win(1, 2, qianggang=True))["tai"] == 1
    assert one(win(1, 2, qianggang=True, shape="pinghu"))["tai"] == 2


def test_extra_adds_the_tables_own_items():
    assert one(win(1, extra=3))["tai"] == 3
    assert one(win(1, extra=20, shape="pinghu"))["tai"] == 21


def test_gangkai_adds_no_tai_by_itself():
    assert one(win(1, gangkai=True))["tai"] == 0
    assert one(win(1, gangkai=True, dragon_pungs=["zhong"]))["tai"] == 1


@pytest.mark.parametrize(("special", "winner", "discarder"), [("tianhu", 0, None), ("dihu", 1, 0), ("quanzi", 2, None)])
def test_specials_are_eight_flat_and_nothing_else_counts(special, winner, discarder):
    hand = win(winner, discarder, special=special, dragon_pungs=["zhong", "fa"], hunyise=True, extra=5)
    assert one(hand)["tai"] == 8


def test_worked_seed_dealer_east_zhong_hunyise_is_four_and_five_with_duiduihu():
    assert one(win(0, wind_pungs=["dong"], dragon_pungs=["zhong"], hunyise=True))["tai"] == 4  # 2 + 1 + 1
    hand = win(0, wind_pungs=["dong"], dragon_pungs=["zhong"], hunyise=True, shape="duiduihu")
    assert one(hand)["tai"] == 5  # 2 + 1 + 1 + 对对胡1


def test_tai_items_break_down_the_count():
    tai = {"wind_pungs": ["dong", "xi"], "dragon_pungs": ["zhong"], "hunyise": True, "no_caishen": True}
    items = tai_items(tai, winner=0, dealer=0)
    assert items == [
        ("东风", "East wind", 2),
        ("西风", "West wind", 0),
        ("中", "Red", 1),
        ("混一色", "Half flush", 1),
        ("无财", "No wild tiles", 0),
    ]
    parsed = parse_hand(win(0, **tai)).tai
    assert tai_items(parsed, 0, 0) == items
    assert sum(i[2] for i in items) == tai_count(parsed, 0, 0) == 4
    assert tai_items({"special": "quanzi", "extra": 3}, 1, 0) == [("全字", "All honours", 8)]


# --- §4 who may win (each refusal names its rule and field) ---------------------------------


def test_a_win_needs_at_least_one_tai_and_the_message_names_both_exceptions():
    error = refused(win(1, 0))
    assert error.hand == 0
    assert error.field == "tai"
    assert "至少要1台" in error.zh
    assert "无财" in error.zh
    assert "杠开" in error.zh
    assert "at least 1 tai" in error.en
    assert "holding no wild tile" in error.en
    assert "a kong replacement win" in error.en


def test_no_caishen_may_win_at_zero_tai():
    assert one(win(1, 0, no_caishen=True))["tai"] == 0


def test_gangkai_may_win_at_zero_tai():
    assert one(win(1, gangkai=True))["net"] == [-1, 3, -1, -1]  # each pays 1·2^0


@pytest.mark.parametrize("tai", [{"dragon_pungs": ["bai"]}, {"wind_pungs": ["xi"]}])
def test_pinghu_has_no_pungs(tai):
    error = refused(win(2, shape="pinghu", **tai))
    assert (error.hand, error.field) == (0, "tai.shape")
    assert "平胡" in error.zh


def test_quanzi_cannot_be_pinghu():
    error = refused(win(2, special="quanzi", shape="pinghu"))
    assert (error.field, "全字" in error.zh) == ("tai.shape", True)


def test_qianggang_needs_a_discarder():
    error = refused(win(2, qianggang=True))
    assert (error.field, "抢杠" in error.zh) == ("discarder", True)


def test_gangkai_is_self_drawn():
    error = refused(win(2, 1, gangkai=True))
    assert (error.field, "杠开" in error.zh) == ("discarder", True)


def test_qianggang_and_gangkai_together_are_refused_either_way():
    assert refused(win(2, 1, gangkai=True, qianggang=True)).field == "discarder"
    assert refused(win(2, gangkai=True, qianggang=True)).field == "discarder"


def test_tianhu_is_self_drawn():
    error = refused(win(0, 1, special="tianhu"))
    assert (error.field, "天胡" in error.zh) == ("discarder", True)


def test_tianhu_only_for_the_dealer():
    error = refused(DRAW, win(2, special="tianhu"))
    assert (error.hand, error.field) == (1, "tai.special")
    assert "庄家" in error.zh


def test_dihu_only_for_a_non_dealer():
    error = refused(win(0, 1, special="dihu"))
    assert (error.field, "地胡" in error.zh) == ("tai.special", True)


@pytest.mark.parametrize("discarder", [2, None])
def test_dihu_only_on_the_dealers_discard(discarder):
    error = refused(win(1, discarder, special="dihu"))
    assert (error.field, "地胡" in error.zh) == ("discarder", True)


@pytest.mark.parametrize(
    ("tai", "field"),
    [({"dragon_pungs": ["zhong", "zhong"]}, "tai.dragon_pungs"), ({"wind_pungs": ["xi", "xi"]}, "tai.wind_pungs")],
)
def test_a_tile_can_be_listed_once(tai, field):
    error = refused(win(1, **tai))
    assert error.field == field
    assert "两次" in error.zh


def test_the_discarder_is_not_the_winner():
    assert refused(win(1, 1, **PINGHU)).field == "discarder"


# --- §5 payments -----------------------------------------------------------------------------


def test_self_drawn_each_other_pays_base_times_two_to_the_tai():
    hand = one(win(1, dragon_pungs=["zhong", "fa"]))  # T = 2
    assert hand["net"] == [-4, 12, -4, -4]  # each pays 1·2^2; W gets 3·4
    assert pays(hand) == {(0, 1): 4, (2, 1): 4, (3, 1): 4}


def test_discard_the_discarder_pays_full_and_the_other_two_half():
    hand = one(win(1, 3, dragon_pungs=["zhong", "fa"]))  # T = 2
    assert pays(hand) == {(0, 1): 2, (2, 1): 2, (3, 1): 4}  # 3 pays 1·2^2; 0 and 2 pay 1·2^1
    assert hand["net"] == [-2, 8, -2, -4]


def test_qianggang_pays_as_a_discard_by_the_robbed_player():
    hand = one(win(1, 0, qianggang=True, shape="pinghu"))  # T = 2
    assert hand["net"] == [-4, 8, -2, -2]  # 0 pays 2^2; 2 and 3 pay 2^1


def test_zero_tai_discard_is_half_a_point_exactly():
    hand = one(win(3, 1, no_caishen=True))
    assert hand["net"] == [-0.5, -1, -0.5, 2]  # 1 pays 2^0; 0 and 2 pay 2^(0−1)
    result = replay(ZHUJI, Rules(), [win(3, 1, no_caishen=True)])[0][0]
    assert result.net == [Fraction(-1, 2), -1, Fraction(-1, 2), 2]
    assert type(result.net[3]) is int
    assert type(result.payments[0].amount) is Fraction


def test_base_multiplies_every_payment():
    hand = one(win(1, 3, dragon_pungs=["zhong", "fa"]), rules={"base": 5})
    assert pays(hand) == {(0, 1): 10, (2, 1): 10, (3, 1): 20}  # 5·2^2 and 5·2^1


def test_even_base_makes_zero_tai_halves_whole():
    hand = one(win(3, 1, no_caishen=True), rules={"base": 2})
    assert hand["net"] == [-1, -2, -1, 4]  # 2·2^0 and 2·2^(0−1)
    assert all(isinstance(n, int) for n in hand["net"])


def test_tai_cap_limits_the_count_paid_on():
    hand = one(win(0, wind_pungs=["dong"], dragon_pungs=["zhong"], hunyise=True), rules={"tai_cap": 2})
    assert hand["tai"] == 2  # min(4, 2)
    assert hand["net"] == [12, -4, -4, -4]  # each pays 2^2


def test_tai_cap_applies_to_the_eight_flat_hands():
    hand = one(win(0, special="tianhu"), rules={"tai_cap": 3})
    assert (hand["tai"], hand["net"]) == (3, [24, -8, -8, -8])  # each pays 2^3, not 2^8


def test_tai_cap_above_the_count_changes_nothing():
    assert one(win(1, **PINGHU), rules={"tai_cap": 5})["net"] == [-2, 6, -2, -2]


def test_draw_nobody_pays():
    assert one(DRAW) == {"dealer": 0, "streak": 0, "tai": 0, "net": [0, 0, 0, 0], "payments": []}


# --- §6 readings -----------------------------------------------------------------------------


def test_at_least_one_tai_is_checked_before_the_cap():
    hand = one(win(1, 2, **PINGHU), rules={"tai_cap": 0})  # 1 台 before the cap: may win, paid at 0
    assert (hand["tai"], hand["net"]) == (0, [-0.5, 2, -1, -0.5])  # 2 pays 2^0; 0 and 3 pay 2^(0−1)
    assert refused(win(1, 2), rules={"tai_cap": 0}).field == "tai"


def test_specials_still_check_repeats_and_pinghu_pungs():
    assert refused(win(0, special="tianhu", dragon_pungs=["fa", "fa"])).field == "tai.dragon_pungs"
    assert refused(win(1, 0, special="dihu", shape="pinghu", wind_pungs=["nan"])).field == "tai.shape"


@pytest.mark.parametrize("extra", [-1, 21, 1.0, True, "2"])
def test_extra_is_a_whole_number_from_0_to_20(extra):
    assert refused(win(1, extra=extra)).field == "tai.extra"


# --- §7 worked numbers -----------------------------------------------------------------------


def test_worked_seat_1_self_drawn_pinghu():
    hand = one(win(1, **PINGHU))
    assert (hand["tai"], hand["net"]) == (1, [-2, 6, -2, -2])  # each pays 2


def test_worked_seat_2_pinghu_on_seat_0s_discard():
    hand = one(win(2, 0, **PINGHU))
    assert (hand["tai"], hand["net"]) == (1, [-2, -1, 4, -1])  # 0 pays 2; 1 and 3 pay 1


def test_worked_dealer_self_drawn_east_zhong_hunyise_duiduihu():
    hand = one(win(0, wind_pungs=["dong"], dragon_pungs=["zhong"], hunyise=True, shape="duiduihu"))
    assert (hand["tai"], hand["net"]) == (5, [96, -32, -32, -32])  # each pays 2^5 = 32


def test_worked_seat_3_no_caishen_zero_tai_on_seat_1s_discard():
    hand = one(win(3, 1, no_caishen=True))
    assert (hand["tai"], hand["net"]) == (0, [-0.5, -1, -0.5, 2])  # 1 pays 1; 0 and 2 pay 0.5


def test_worked_seat_1_tianhu_is_refused():
    error = refused(win(1, special="tianhu"))
    assert error.hand == 0


# --- half points -----------------------------------------------------------------------------


def test_halves_sum_exactly_over_many_hands():
    hands = [win(3, 1, no_caishen=True)] * 1001  # each: 0 −0.5, 1 −1, 2 −0.5, 3 +2 (deal passes)
    result = play(*hands)
    totals = [0, 0, 0, 0]
    for hand in result["hands"]:
        totals = [a + b for a, b in zip(totals, hand["net"], strict=True)]
    assert result["totals"] == totals == [-500.5, -1001, -500.5, 2002]
    state = replay(ZHUJI, Rules(), hands)[1]
    assert state.totals == [Fraction(-1001, 2), -1001, Fraction(-1001, 2), 2002]
    two = replay(ZHUJI, Rules(), hands[:2])[1]
    assert two.totals == [-1, -2, -1, 4]
    assert all(type(t) is int for t in two.totals)


def test_state_round_trips_through_json_with_halves():
    state = replay(ZHUJI, Rules(), [win(3, 1, no_caishen=True), win(0, **PINGHU)])[1]
    data = state.to_dict()
    assert data == {"dealer": 2, "streak": 0, "totals": [5.5, -3, -2.5, 0]}  # −0.5+6, −1−2, −0.5−2, 2−2
    back = ZHUJI.state_from_dict(data)
    assert back == state
    assert back.totals[0] == Fraction(11, 2)
    assert type(back.totals[1]) is int


def test_correct_sets_dealer_and_streak():
    state = TableState()
    state.correct(2, 3)
    assert (state.dealer, state.streak) == (2, 3)
    results = replay(ZHUJI, Rules(), [win(1, **PINGHU), win(2, **PINGHU)], fixes={1: (2, 3)})[0]
    assert [(r.dealer, r.streak) for r in results] == [(0, 0), (2, 3)]


def test_score_hand_does_not_change_the_state():
    state = TableState(dealer=1, streak=2, totals=[1, 2, 3, -6])
    result = score_hand(Rules(), state, parse_hand(win(1, **PINGHU)))
    assert state == TableState(dealer=1, streak=2, totals=[1, 2, 3, -6])
    assert (result.dealer, result.streak, result.tai) == (1, 2, 1)


# --- explanations ----------------------------------------------------------------------------


def test_explanation_of_a_self_drawn_payment():
    results = replay(ZHUJI, Rules(), [win(0, wind_pungs=["dong"], dragon_pungs=["zhong"], hunyise=True)])[0]
    payment = results[0].payments[1]
    assert (payment.payer, payment.payee, payment.amount) == (2, 0, 16)
    assert payment.zh == "西→东 16 = 2^4 台（东风2 + 中1 + 混一色1）"
    assert payment.en == "W→E 16 = 2^4 tai (East wind 2 + Red 1 + Half flush 1)"
    assert payment.formula() == "2^4 台（东风2 + 中1 + 混一色1）"
    assert payment.explain(True, ["阿明", "小芳", "老王", "大伟"]).startswith("老王→阿明 16 = ")


def test_explanation_shows_base_half_and_cap():
    hand = win(0, 2, wind_pungs=["dong"], dragon_pungs=["zhong"], hunyise=True)
    payments = replay(ZHUJI, Rules(base=3, tai_cap=3), [hand])[0][0].payments
    assert payments[0].zh == "南→东 12 = 3 × 2^(3−1) 台（东风2 + 中1 + 混一色1 = 4，封顶3台），没放冲付一半"
    assert (
        payments[1].en
        == "W→E 24 = 3 × 2^3 tai (East wind 2 + Red 1 + Half flush 1 = 4, capped at 3), discarder pays in full"
    )
    assert "half" in payments[2].en


def test_contract_output_carries_both_explanations_and_half_amounts():
    hand = one(win(3, 1, no_caishen=True))
    first = hand["payments"][0]
    assert first == {
        "from": 0,
        "to": 3,
        "amount": 0.5,
        "explain": "东→北 0.5 = 2^(0−1) 台（无财0），没放冲付一半",
        "explain_en": "E→N 0.5 = 2^(0−1) tai (No wild tiles 0), half: not the discarder",
    }


# --- input hygiene ---------------------------------------------------------------------------


def test_discarder_null_is_an_error_not_a_self_draw():
    error = refused(win(1, **PINGHU), {"outcome": "win", "winner": 1, "discarder": None, "tai": PINGHU})
    assert (error.hand, error.field) == (1, "discarder")


@pytest.mark.parametrize(
    ("hand", "field"),
    [
        ({"outcome": "win", "winner": 1, "tai": PINGHU, "win_type": "pinghu"}, "win_type"),
        ({"outcome": "win", "winner": 1, "tai": {"shape": "pinghu", "flowers": 2}}, "tai.flowers"),
        ({"outcome": "draw", "winner": 1}, "winner"),
        ({"outcome": "draw", "tai": {}}, "tai"),
        ({"outcome": "abandon", "leaver": 1}, "leaver"),
        ({"outcome": "abandon"}, "outcome"),
        ({"outcome": "win", "tai": PINGHU}, "winner"),
        ({"outcome": "win", "winner": 1}, "tai"),
        ({"outcome": "win", "winner": 4, "tai": PINGHU}, "winner"),
        ({"outcome": "win", "winner": True, "tai": PINGHU}, "winner"),
        ({"outcome": "win", "winner": 1, "discarder": "0", "tai": PINGHU}, "discarder"),
        ({"outcome": "win", "winner": 1, "tai": [PINGHU]}, "tai"),
        ({"outcome": "win", "winner": 1, "tai": {"shape": "qidui"}}, "tai.shape"),
        ({"outcome": "win", "winner": 1, "tai": {"special": "shisanyao"}}, "tai.special"),
        ({"outcome": "win", "winner": 1, "tai": {"dragon_pungs": "zhong"}}, "tai.dragon_pungs"),
        ({"outcome": "win", "winner": 1, "tai": {"wind_pungs": ["east"]}}, "tai.wind_pungs"),
        ({"outcome": "win", "winner": 1, "tai": {"hunyise": 1}}, "tai.hunyise"),
        ({"outcome": "win", "winner": 1, "tai": {"no_caishen": None}}, "tai.no_caishen"),
        ("win", "hand"),
    ],
)
def test_unknown_fields_and_wrong_kinds_are_errors_for_that_hand(hand, field):
    ok, body = score_game_or_error({"ruleset": "zhuji", "hands": [DRAW, hand]})
    assert not ok
    assert (body["error"]["hand"], body["error"]["field"]) == (1, field)
    assert body["error"]["message"]
    assert body["error"]["message_en"]


def test_special_null_is_allowed():
    assert one(win(1, special=None, **PINGHU))["tai"] == 1


def test_unknown_rule_of_another_ruleset_is_a_game_error():
    ok, body = score_game_or_error({"ruleset": "zhuji", "rules": {"base_dealer": 7}, "hands": []})
    assert (ok, body["error"]["hand"], body["error"]["field"]) == (False, None, "base_dealer")


def test_an_amount_reaching_ten_to_the_twelve_is_an_error_at_that_hand():
    huge = win(0, dragon_pungs=["zhong", "fa", "bai"], wind_pungs=["dong"], shape="duiduihu", hunyise=True, extra=20)
    # T = 3 + 2 + 1 + 1 + 20 = 27; 10^6 · 2^27 ≈ 1.3·10^14
    error = refused(win(1, **PINGHU), huge, rules={"base": 1_000_000})
    assert (error.hand, error.field) == (1, "hand")


def test_a_running_total_reaching_ten_to_the_twelve_is_an_error_at_that_hand():
    big = win(0, extra=18)  # each pays 10^6 · 2^18 = 262,144,000,000; the dealer gets 3× = 786,432,000,000
    result = play(big, rules={"base": 1_000_000})
    assert result["totals"][0] == 786_432_000_000 < 10**12
    error = refused(big, big, rules={"base": 1_000_000})  # the dealer's total would be 1,572,864,000,000
    assert error.hand == 1

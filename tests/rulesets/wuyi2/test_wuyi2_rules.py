"""武义二人麻将 (docs/rules/wuyi2.md): one focused test per rule of §1-§7, the house rules, the
contract's input hygiene, the explanations and ``conflicts()`` agreeing with validation."""

import pytest

from scoring.engine import ScoringError, get_ruleset, replay, score_game, score_game_or_error
from scoring.rulesets.wuyi2.engine import (
    BY_CODE,
    CODES,
    DEFAULT_PRESET,
    GROUPS,
    LISTABLE,
    PATTERNS,
    PRESETS,
    RULE_INFO,
    WUYI2,
    Rules,
    TableState,
    conflicts,
    parse_hand,
    parse_rules,
    score_hand,
)


def win(winner, *patterns, discarder=None):
    hand = {"outcome": "win", "winner": winner, "patterns": list(patterns)}
    if discarder is not None:
        hand["discarder"] = discarder
    return hand


DRAW = {"outcome": "draw"}


NOTHING = object()


def game(*hands, rules=NOTHING, first_dealer=None, players=None):
    g = {"ruleset": "wuyi2", "hands": list(hands)}
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
    """The one hand's result (seat 0 deals unless first_dealer says otherwise)."""
    return play(hand, **kw)["hands"][0]


def error(*hands, **kw):
    ok, body = score_game_or_error(game(*hands, **kw))
    assert not ok, body
    err = body["error"]
    assert err["message"]
    assert err["message_en"]
    return err


# --- the package --------------------------------------------------------------------------


def test_ruleset_is_registered_with_two_seats():
    assert get_ruleset("wuyi2") is WUYI2
    assert (WUYI2.zh, WUYI2.en, WUYI2.seats) == ("武义二人麻将", "Wuyi (2 players)", 2)


def test_patterns_follow_the_order_of_section_2_with_zimo_last():
    assert [p.code for p in PATTERNS] == [
        "pinghu",
        "pengpenghu",
        "quanqiuren",
        "qidui",
        "qingqidui",
        "qidui_baotou",
        "shisanbukao",
        "qifeng",
        "luanfeng",
        "qingfeng",
        "qingyise_cai",
        "qingyise",
        "baotou",
        "caishentou",
        "sancai",
        "tianhu",
        "dihu",
        "renhu",
        "gangkai",
        "haidi",
        "zimo",
    ]
    assert "zimo" not in LISTABLE
    assert all(p.group in GROUPS for p in PATTERNS)


def test_default_fan_of_every_pattern_is_the_spec_table():
    assert {p.code: p.fan for p in PATTERNS} == {
        "pinghu": 0,
        "pengpenghu": 1,
        "quanqiuren": 1,
        "qidui": 1,
        "qingqidui": 2,
        "qidui_baotou": 3,
        "shisanbukao": 0,
        "qifeng": 1,
        "luanfeng": 3,
        "qingfeng": 4,
        "qingyise_cai": 1,
        "qingyise": 2,
        "baotou": 1,
        "caishentou": 2,
        "sancai": 3,
        "tianhu": 1,
        "dihu": 1,
        "renhu": 1,
        "gangkai": 1,
        "haidi": 1,
        "zimo": 1,
    }


# --- §1 table and dealer ------------------------------------------------------------------


def test_seat_0_deals_first_by_default():
    assert one(DRAW)["dealer"] == 0


def test_first_dealer_can_be_seat_1():
    assert one(DRAW, first_dealer=1)["dealer"] == 1


def test_first_dealer_2_is_a_game_error_in_a_two_player_game():
    assert error(DRAW, first_dealer=2)["hand"] is None


def test_players_must_be_two_names():
    assert error(DRAW, players=["a", "b", "c", "d"])["hand"] is None
    assert play(DRAW, players=["阿明", "小芳"])["totals"] == [0, 0]


@pytest.mark.parametrize("field", ["winner", "discarder"])
def test_seat_2_is_an_error_in_a_two_player_game(field):
    hand = win(0, discarder=1) | {field: 2}
    err = error(hand)
    assert (err["hand"], err["field"]) == (0, field)


def test_dealer_win_keeps_the_deal_and_adds_to_the_streak():
    hands = play(win(0), win(0), DRAW)["hands"]
    assert [(h["dealer"], h["streak"]) for h in hands] == [(0, 0), (0, 1), (0, 2)]


def test_draw_keeps_the_dealer_and_the_streak():
    hands = play(win(0), DRAW, DRAW, win(0))["hands"]
    assert [(h["dealer"], h["streak"]) for h in hands] == [(0, 0), (0, 1), (0, 1), (0, 1)]


def test_other_players_win_passes_the_deal_to_them_with_streak_0():
    hands = play(win(0), win(0), win(1), win(0), DRAW)["hands"]
    assert [(h["dealer"], h["streak"]) for h in hands] == [(0, 0), (0, 1), (0, 2), (1, 0), (0, 0)]


# --- §2 patterns and 番 -----------------------------------------------------------------


def test_no_pattern_is_pinghu_worth_0_fan():
    hand = one(win(1, discarder=0))
    assert hand["fan"] == 0
    assert hand["net"] == [-4, 4]  # 2^0 · 2 discard · 2 dealer


def test_zimo_adds_1_fan_by_itself_when_there_is_no_discarder():
    assert one(win(1))["fan"] == 1
    assert one(win(1, discarder=0))["fan"] == 0


# (code, fan on a discard by the other player) for every shape, winner 1, seat 0 deals
SHAPE_FAN = [
    ("pinghu", 0),
    ("pengpenghu", 1),
    ("quanqiuren", 1),
    ("qidui", 1),
    ("qingqidui", 2),
    ("qidui_baotou", 3),
    ("shisanbukao", 0),
    ("qifeng", 1),
    ("luanfeng", 3),
    ("qingfeng", 4),
]


@pytest.mark.parametrize(("code", "fan"), SHAPE_FAN)
def test_each_shape_pays_its_fan_on_a_discard(code, fan):
    hand = one(win(1, code, discarder=0))
    assert hand["fan"] == fan
    assert hand["net"] == [-(2**fan) * 4, 2**fan * 4]  # 2^fan · 2 discard · 2 dealer


@pytest.mark.parametrize(
    ("patterns", "fan"),
    [
        (["qingyise_cai"], 1),
        (["qingyise"], 2),
        (["baotou"], 1),
        (["caishentou"], 2),
        (["sancai"], 3),
        (["dihu"], 1),
    ],
)
def test_each_added_pattern_pays_its_fan_over_pinghu_on_a_discard(patterns, fan):
    hand = one(win(1, *patterns, discarder=0))
    assert hand["fan"] == fan  # 平胡 0 + the pattern
    assert hand["net"] == [-(2**fan) * 4, 2**fan * 4]


@pytest.mark.parametrize(("winner", "code"), [(0, "tianhu"), (1, "renhu"), (1, "gangkai"), (0, "haidi")])
def test_self_drawn_patterns_pay_1_fan_plus_zimo(winner, code):
    hand = one(win(winner, code))
    assert hand["fan"] == 2  # the pattern 1 + 自摸 1
    assert abs(hand["net"][0]) == 8  # 2^2 · 2 dealer


def test_fan_add_up_so_multipliers_multiply():
    hand = one(win(1, "pengpenghu", "qingyise_cai", "caishentou", "renhu", "gangkai", "haidi"))
    assert hand["fan"] == 1 + 1 + 2 + 1 + 1 + 1 + 1  # ... + 自摸
    assert hand["net"] == [-(2**8) * 2, 2**8 * 2]


def test_quanqiuren_on_a_discard_is_1_fan():
    assert one(win(1, "quanqiuren", discarder=0))["fan"] == 1


def test_quanqiuren_on_zimo_scores_as_pinghu_plus_zimo():
    assert one(win(1, "quanqiuren"))["fan"] == 0 + 1


def test_quanqiuren_on_zimo_takes_the_pinghu_entry_of_the_fan_table():
    rules = {"fan": {"pinghu": 2, "quanqiuren": 5}}
    assert one(win(1, "quanqiuren"), rules=rules)["fan"] == 2 + 1  # 平胡's 2, not 全求人's 5
    assert one(win(1, "quanqiuren", discarder=0), rules=rules)["fan"] == 5


def test_gangbao_is_baotou_plus_gangkai():
    hand = one(win(1, "baotou", "gangkai"))
    assert hand["fan"] == 1 + 1 + 1  # 爆头 + 杠开 + 自摸
    assert hand["net"] == [-16, 16]  # 2^3 · 2 dealer


# --- §3 payment -----------------------------------------------------------------------------


def test_discarder_pays_double():
    assert one(win(1, "qidui", discarder=0))["net"] == [-8, 8]  # 2^1 · 2 discard · 2 dealer
    assert one(win(1, "qidui"))["net"] == [-8, 8]  # 2^(1+1 自摸) · 2 dealer


def test_base_multiplies_every_payment():
    assert one(win(1, discarder=0), rules={"base": 5})["net"] == [-20, 20]  # 5 · 2^0 · 2 · 2


def test_dealer_double_both_doubles_every_payment():
    assert one(win(1, discarder=0), rules={"dealer_double": "both"})["net"] == [-4, 4]  # 1 · 2 · 2
    assert one(win(0, discarder=1), rules={"dealer_double": "both"})["net"] == [4, -4]


def test_dealer_double_payer_doubles_only_when_the_dealer_pays():
    assert one(win(1, discarder=0), rules={"dealer_double": "payer"})["net"] == [-4, 4]  # dealer pays: 1 · 2 · 2
    assert one(win(0, discarder=1), rules={"dealer_double": "payer"})["net"] == [2, -2]  # 1 · 2 discard


def test_dealer_double_none_never_doubles():
    assert one(win(1, discarder=0), rules={"dealer_double": "none"})["net"] == [-2, 2]  # 1 · 2 discard
    assert one(win(0), rules={"dealer_double": "none"})["net"] == [2, -2]  # 2^1 自摸


def test_fan_cap_limits_the_fan_paid_on_and_the_fan_reported():
    hand = one(win(1, "qingfeng"), rules={"fan_cap": 3})
    assert hand["fan"] == 3  # min(4 + 1, 3)
    assert hand["net"] == [-16, 16]  # 2^3 · 2 dealer


def test_fan_cap_above_the_sum_changes_nothing():
    assert one(win(1, "qingfeng"), rules={"fan_cap": 5})["fan"] == 5


def test_fan_cap_0_makes_every_win_pay_base_times_the_doublings():
    rules = {"fan_cap": 0, "base": 3}
    assert one(win(1, "qingfeng", "renhu"), rules=rules)["net"] == [-6, 6]  # 3 · 2^0 · 2 dealer
    assert one(win(1, "qingfeng", discarder=0), rules=rules)["net"] == [-12, 12]  # 3 · 2 discard · 2 dealer


def test_draw_pays_nothing():
    hand = one(DRAW, rules={"base": 100})
    assert (hand["fan"], hand["net"], hand["payments"]) == (0, [0, 0], [])


def test_payment_goes_from_the_loser_to_the_winner():
    payments = one(win(1, discarder=0))["payments"]
    assert [(p["from"], p["to"], p["amount"]) for p in payments] == [(0, 1, 4)]


# --- §4 validation --------------------------------------------------------------------------


def refused(*patterns, because: str, field="patterns", winner=1, discarder=None, first_dealer=0):
    """The second hand's refusal, which must be by the rule whose English words ``because`` names."""
    err = error(DRAW, win(winner, *patterns, discarder=discarder), first_dealer=first_dealer)
    assert err["hand"] == 1
    assert because in err["message_en"]
    assert err["field"] == field
    return err


def test_unknown_pattern_code_is_an_error():
    refused("wuyi", because="Unknown pattern: wuyi")


@pytest.mark.parametrize(
    ("pair", "because"),
    [
        (("pengpenghu", "qidui"), "Only one shape"),
        (("pinghu", "qingfeng"), "Only one shape"),
        (("qingyise", "qingyise_cai"), "At most one of the"),
        (("baotou", "caishentou"), "At most one of the"),
        (("caishentou", "sancai"), "At most one of the"),
        # 地胡 and 人胡 never share a way of winning, so the first-round rule refuses them first
        (("dihu", "renhu"), "needs the dealer as discarder"),
        (("gangkai", "gangkai"), "is listed twice"),
        (("haidi", "haidi"), "is listed twice"),
        (("qidui", "qidui"), "is listed twice"),
    ],
)
def test_two_patterns_of_one_group_are_an_error(pair, because):
    refused(*pair, because=because)


@pytest.mark.parametrize("suit", ["qingyise", "qingyise_cai"])
@pytest.mark.parametrize("shape", ["shisanbukao", "qifeng", "luanfeng", "qingfeng"])
def test_qingyise_is_not_allowed_with_honour_shapes(suit, shape):
    refused(suit, shape, because="cannot count with")
    refused(shape, suit, because="cannot count with")


def test_qingyise_cai_is_not_allowed_with_qingqidui():
    refused("qingyise_cai", "qingqidui", because="Pure seven pairs has no wilds")


def test_qingyise_without_caishen_is_allowed_with_qingqidui():
    assert one(win(1, "qingqidui", "qingyise", discarder=0))["fan"] == 2 + 2


@pytest.mark.parametrize("other", ["baotou", "caishentou", "sancai", "qidui_baotou"])
def test_qingyise_without_caishen_is_not_allowed_with_a_caishen_pattern(other):
    refused("qingyise", other, because="holds a wild: choose One suit with wilds")


@pytest.mark.parametrize("other", ["baotou", "caishentou", "sancai", "qidui_baotou", "qidui"])
def test_qingyise_cai_is_allowed_with_caishen_patterns(other):
    assert one(win(1, "qingyise_cai", other, discarder=0))["fan"] == 1 + BY_CODE[other].fan


@pytest.mark.parametrize("cai", ["baotou", "caishentou", "sancai"])
@pytest.mark.parametrize("shape", [s for s, _ in SHAPE_FAN if s not in ("pinghu", "pengpenghu")])
def test_caishen_patterns_go_only_with_pinghu_or_pengpenghu(cai, shape):
    refused(cai, shape, because="goes only with Plain win or All pungs")


@pytest.mark.parametrize("cai", ["baotou", "caishentou", "sancai"])
@pytest.mark.parametrize("shape", ["pinghu", "pengpenghu"])
def test_caishen_patterns_are_allowed_with_pinghu_and_pengpenghu(cai, shape):
    assert one(win(1, shape, cai, discarder=0))["fan"] == BY_CODE[shape].fan + BY_CODE[cai].fan


@pytest.mark.parametrize("shape", [s for s, _ in SHAPE_FAN])
def test_moment_patterns_are_allowed_with_any_shape(shape):
    assert one(win(1, shape, "dihu", discarder=0))["fan"] == BY_CODE[shape].fan + 1
    self_drawn_shape = 0 if shape == "quanqiuren" else BY_CODE[shape].fan  # 全求人 on 自摸 = 平胡
    assert one(win(0, shape, "tianhu"))["fan"] == self_drawn_shape + 1 + 1
    assert one(win(1, shape, "renhu"))["fan"] == self_drawn_shape + 1 + 1


def test_discarder_must_be_the_other_player():
    refused(winner=1, discarder=1, because="The discarder must be the other player", field="discarder")


@pytest.mark.parametrize("code", ["gangkai", "haidi", "tianhu", "renhu"])
def test_self_drawn_only_patterns_refuse_a_discarder(code):
    winner = 0 if code == "tianhu" else 1
    refused(code, winner=winner, discarder=1 - winner, because="is self-drawn only: no discarder")


def test_dihu_needs_the_dealer_as_discarder():
    refused("dihu", winner=1, because="needs the dealer as discarder")  # 自摸


def test_dihu_needs_the_non_dealer_as_winner():
    refused("dihu", winner=0, discarder=1, because="Only the non-dealer can win")


def test_dihu_with_dealer_1_is_won_by_seat_0():
    assert one(win(0, "dihu", discarder=1), first_dealer=1)["fan"] == 1


def test_tianhu_is_only_for_the_dealer():
    refused("tianhu", winner=1, because="Only the dealer can win")
    refused("tianhu", winner=0, first_dealer=1, because="Only the dealer can win")


def test_renhu_is_only_for_the_non_dealer():
    refused("renhu", winner=0, because="Only the non-dealer can win")
    assert one(win(0, "renhu"), first_dealer=1)["fan"] == 2


def test_validation_messages_name_the_rule_in_table_words():
    err = refused("qidui", "caishentou", because="goes only with Plain win or All pungs")
    assert "财神头" in err["message"]
    assert "七对子" in err["message"]
    assert "Wild pair" in err["message_en"]


# --- §5 readings ----------------------------------------------------------------------------


def test_listing_zimo_is_an_error():
    refused("zimo", because="zimo is never listed")


def test_zimo_fan_can_be_overridden():
    assert one(win(1), rules={"fan": {"zimo": 3}})["fan"] == 3


# --- §6 house rules ---------------------------------------------------------------------------


def test_default_rules():
    assert Rules().to_dict() == {"base": 1, "dealer_double": "both", "fan_cap": None, "fan": {}}


def test_fan_override_changes_that_codes_fan():
    rules = {"fan": {"qingyise": 3, "pengpenghu": 2}}
    assert one(win(1, "qingyise", "pengpenghu"), rules=rules)["fan"] == 3 + 2 + 1


@pytest.mark.parametrize(
    "rules",
    [
        {"base": 0},
        {"base": 1_000_001},
        {"base": "1"},
        {"base": True},
        {"dealer_double": "dealer"},
        {"fan_cap": -1},
        {"fan_cap": 101},
        {"fan_cap": 2.5},
        {"fan": {"wuyi": 1}},
        {"fan": {"qingyise": 21}},
        {"fan": {"qingyise": -1}},
        {"fan": {"qingyise": None}},
        {"fan": []},
        {"tai_cap": 3},
    ],
)
def test_bad_rule_values_are_game_errors(rules):
    assert error(DRAW, rules=rules)["hand"] is None


def test_rule_bounds_are_accepted_at_their_ends():
    parse_rules({"base": 1_000_000, "fan_cap": 100, "fan": {"zimo": 20, "pinghu": 0}})
    assert parse_rules({"base": 1, "fan_cap": 0}).fan_cap == 0
    assert parse_rules({"fan_cap": None}).fan_cap is None


def test_rule_info_covers_every_rule_with_text_in_both_languages():
    assert list(RULE_INFO) == ["base", "dealer_double", "fan_cap", "fan"]
    for info in RULE_INFO.values():
        assert info.zh
        assert info.zh_help
        assert info.en
        assert info.en_help
    assert RULE_INFO["fan"].kind == "map"
    assert set(RULE_INFO["fan"].keys) == set(CODES)
    assert "zimo" in RULE_INFO["fan"].keys


def test_presets_parse_and_the_default_preset_exists():
    assert DEFAULT_PRESET in PRESETS
    assert [WUYI2.parse_rules(PRESETS[name]).base for name in PRESETS] == [1, 2, 5]


def test_rules_survive_to_dict_and_back():
    rules = parse_rules({"base": 2, "dealer_double": "payer", "fan_cap": 6, "fan": {"qingyise": 3}})
    assert WUYI2.rules_from_dict(rules.to_dict()) == rules
    assert WUYI2.rules_from_dict(rules.to_dict()).fan_table["qingyise"] == 3


# --- §7 worked numbers (defaults; seat 0 deals) ---------------------------------------------


def test_worked_1_wins_pinghu_on_0s_discard():
    hand = one(win(1, discarder=0))
    assert (hand["fan"], hand["net"]) == (0, [-4, 4])  # 1 · 2 discard · 2 dealer


def test_worked_0_zimo_pinghu():
    hand = one(win(0))
    assert (hand["fan"], hand["net"]) == (1, [4, -4])  # 2^1 · 2 dealer


def test_worked_1_zimo_qingyise_pengpenghu():
    hand = one(win(1, "qingyise", "pengpenghu"))
    assert (hand["fan"], hand["net"]) == (4, [-32, 32])  # 2^(2+1+1) · 2 dealer


def test_worked_0_wins_qidui_baotou_on_1s_discard():
    hand = one(win(0, "qidui_baotou", discarder=1))
    assert (hand["fan"], hand["net"]) == (3, [32, -32])  # 2^3 · 2 discard · 2 dealer


def test_worked_1_quanqiuren_zimo():
    hand = one(win(1, "quanqiuren"))
    assert (hand["fan"], hand["net"]) == (1, [-4, 4])  # 2^(0+1 自摸) · 2 dealer


# --- contract input hygiene -------------------------------------------------------------------


def test_discarder_null_is_an_error_not_a_zimo():
    err = error(DRAW, {"outcome": "win", "winner": 1, "discarder": None, "patterns": []})
    assert (err["hand"], err["field"]) == (1, "discarder")


@pytest.mark.parametrize("field", ["winner", "patterns"])
def test_null_winner_or_patterns_is_an_error(field):
    err = error(win(1) | {field: None})
    assert (err["hand"], err["field"]) == (0, field)


def test_patterns_may_be_left_out_for_pinghu():
    assert one({"outcome": "win", "winner": 1, "discarder": 0})["fan"] == 0


def test_win_without_winner_is_an_error():
    assert error({"outcome": "win"})["field"] == "winner"


@pytest.mark.parametrize("field", ["winner", "discarder", "patterns"])
def test_draw_with_win_fields_is_an_error(field):
    assert error({"outcome": "draw", field: 0 if field != "patterns" else []})["field"] == field


@pytest.mark.parametrize("outcome", ["abandon", None, "WIN"])
def test_unknown_outcome_is_an_error(outcome):
    assert error({"outcome": outcome})["field"] == "outcome"


def test_unknown_hand_field_is_an_error_with_the_field_named():
    err = error(DRAW, win(1, discarder=0) | {"caishen": 2})
    assert (err["hand"], err["field"]) == (1, "caishen")


def test_patterns_must_be_a_list_of_strings():
    assert error(win(1) | {"patterns": "qidui"})["field"] == "patterns"
    assert error(win(1) | {"patterns": [1]})["field"] == "patterns"


def test_boolean_seat_is_an_error():
    assert error(win(True))["field"] == "winner"


@pytest.mark.parametrize("rules", [[], "base", 1, None])
def test_rules_not_an_object_is_a_game_error(rules):
    err = error(DRAW, rules=rules)
    assert (err["hand"], err["field"]) == (None, "rules")


def test_a_running_total_reaching_10_to_the_12_is_an_error_at_that_hand():
    rules = {"base": 1_000_000, "fan": {"qingfeng": 17}}
    # each hand: 10^6 · 2^(17+1) · 2 dealer = 524,288,000,000 < 10^12; two reach 1,048,576,000,000
    assert play(win(0, "qingfeng"), rules=rules)["totals"] == [524_288_000_000, -524_288_000_000]
    assert error(DRAW, win(0, "qingfeng"), win(0, "qingfeng"), rules=rules)["hand"] == 2


def test_one_amount_reaching_10_to_the_12_is_an_error_at_that_hand():
    rules = {"base": 1_000_000, "fan": {"qingfeng": 20}}
    assert error(DRAW, win(1, "qingfeng", discarder=0), rules=rules)["hand"] == 1


# --- state, results and explanations ------------------------------------------------------------


def test_score_hand_does_not_change_the_state():
    state = TableState(dealer=1, streak=2, totals=[5, -5])
    score_hand(Rules(), state, parse_hand(win(0, "qidui", discarder=1)))
    assert state.to_dict() == {"dealer": 1, "streak": 2, "totals": [5, -5]}


def test_table_state_round_trips_and_can_be_corrected():
    state = TableState(dealer=1, streak=2, totals=[5, -5])
    assert TableState.from_dict(state.to_dict()) == state
    state.correct(0, 3)
    assert (state.dealer, state.streak) == (0, 3)


def test_replay_with_a_correction_moves_the_deal():
    results, state = replay(WUYI2, Rules(), [win(0), win(0)], fixes={1: (1, 0)})
    assert [(r.dealer, r.streak) for r in results] == [(0, 0), (1, 0)]
    assert (state.dealer, state.streak) == (0, 0)


def test_hand_output_has_exactly_the_contract_fields():
    hand = one(win(1, discarder=0))
    assert set(hand) == {"dealer", "streak", "fan", "net", "payments"}
    assert set(hand["payments"][0]) == {"from", "to", "amount", "explain", "explain_en"}


def explained(hand, **kw):
    return one(hand, **kw)["payments"][0]


def test_explanation_of_a_single_pattern_names_it():
    p = explained(win(0, "qidui_baotou", discarder=1))
    assert p["explain"] == "闲→庄 32 = 2^3 番（七对子爆头）× 2 放铳 × 2 庄"
    assert p["explain_en"] == "Non-dealer→Dealer 32 = 2^3 fan (Seven pairs, wild pair) × 2 discard × 2 dealer"


def test_explanation_lists_each_stacked_pattern_with_its_fan():
    p = explained(win(1, "qingyise", "pengpenghu"))
    assert p["explain"] == "庄→闲 32 = 2^4 番（清一色2 + 碰碰胡1 + 自摸1）× 2 庄"
    assert p["explain_en"] == "Dealer→Non-dealer 32 = 2^4 fan (One suit 2 + All pungs 1 + Self-draw 1) × 2 dealer"


def test_explanation_shows_the_base_and_the_cap_when_they_apply():
    p = explained(win(1, "qingfeng"), rules={"base": 10, "fan_cap": 3, "dealer_double": "none"})
    assert p["explain"] == "庄→闲 80 = 10 × 2^3 番（清风4 + 自摸1 = 5，封顶3）"
    assert p["explain_en"] == "Dealer→Non-dealer 80 = 10 × 2^3 fan (Pure honours 4 + Self-draw 1 = 5, capped at 3)"


def test_explanation_of_quanqiuren_on_zimo_says_it_counts_as_pinghu():
    assert "全求人自摸按平胡0 + 自摸1" in explained(win(1, "quanqiuren"))["explain"]


def test_explanation_can_use_the_tables_names():
    results, _ = replay(WUYI2, Rules(), [win(1, discarder=0)])
    payment = results[0].payments[0]
    assert payment.explain(True, ["阿明", "小芳"]) == "阿明→小芳 4 = 2^0 番（平胡）× 2 放铳 × 2 庄"
    assert payment.formula(False) == "2^0 fan (Plain win) × 2 discard × 2 dealer"


# --- conflicts() agrees with validation ------------------------------------------------------


def _scoring_refuses(codes, winner, dealer, self_drawn):
    hand = {"outcome": "win", "winner": winner, "patterns": list(codes)}
    if not self_drawn:
        hand["discarder"] = 1 - winner
    try:
        score_hand(Rules(), TableState(dealer=dealer), parse_hand(hand))
    except ScoringError as err:
        return (err.zh, err.en)
    return None


CONTEXTS = [(w, d, s) for w in (0, 1) for d in (0, 1) for s in (True, False)]


def test_conflicts_says_refused_iff_scoring_refuses_for_every_code_added_to_a_valid_set():
    # Every valid set of codes (grown one code at a time, in table order) in every context.
    checked = valid_sets = 0
    for context in CONTEXTS:
        frontier = [()]
        while frontier:
            codes = frontier.pop()
            valid_sets += 1
            refused_codes = conflicts(codes, *context)
            for code in LISTABLE:
                if code in codes:
                    continue
                refusal = _scoring_refuses((*codes, code), *context)
                assert refused_codes.get(code) == refusal, (codes, code, context)
                checked += 1
                if refusal is None and LISTABLE.index(code) > max(map(LISTABLE.index, codes), default=-1):
                    frontier.append((*codes, code))
    assert valid_sets > 1_500
    assert checked > 20_000


def test_conflicts_leaves_out_chosen_codes_and_greys_by_context():
    refused_codes = conflicts(["qidui"], winner=1, dealer=0, self_drawn=False)
    assert "qidui" not in refused_codes
    assert {"pengpenghu", "caishentou", "gangkai", "haidi", "tianhu", "renhu"} <= set(refused_codes)
    assert "dihu" not in refused_codes
    zh, en = refused_codes["caishentou"]
    assert "财神头" in zh
    assert en


def test_conflicts_without_a_winner_skips_the_seat_checks():
    refused_codes = conflicts([], winner=None, dealer=0, self_drawn=True)
    assert "tianhu" not in refused_codes
    assert "renhu" not in refused_codes
    assert "dihu" in refused_codes

"""People and seats (换人, 轮空, 换位) in every ruleset: a seating entry between hands moves no
points, ends every bet, keeps or restarts the deal, and each person's total is the sum of the
nets of the seats they sat in (docs/contract.md "People and seats")."""

from copy import deepcopy
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.engine import get_ruleset, replay, score_game
from scoring.engine.contract import score_game_or_error
from scoring.engine.seating import Seated
from tests.rulesets.wuyi2.test_wuyi2_properties import valid_games as wuyi2_games
from tests.rulesets.yiwu import strategies
from tests.rulesets.zhuji.test_zhuji_properties import valid_games as zhuji_games
from tests.speed import examples

NAMES = ["阿明", "小芳", "老王", "阿强"]


def seating(players, **extra) -> dict:
    return {"outcome": "seating", "players": players, **extra}


def people(result) -> dict:
    return {p["name"]: p["total"] for p in result["people"]}


def error_of(game) -> dict:
    ok, out = score_game_or_error(game)
    assert not ok, out
    error = out["error"]
    assert error["message"] != error["message_en"]  # Chinese, and English beside it
    return error


# --- 义乌: a substitute mid-tenure ends every bet ----------------------------------------------


def yiwu_substitute(after: list[dict]) -> dict:
    """老王 (seat 2) holds 买子 and 阿强 (seat 3) a 下子 of 2 when 小李 takes 老王's seat."""
    return {
        "rules": {"maizi_buy": "tenure_start"},
        "players": NAMES,
        "hands": [
            # 庄 阿明 自摸 (×2): 小芳 and 老王 bought 买子. Pair units with the dealer: 庄7 + 买子2 = 9
            # for each buyer, 7 for 阿强; ×2 → 18, 18, 14; 阿明 +50.
            {"outcome": "win", "winner": 0, "win_type": "zimo", "maizi": [0, 1, 1, 0]},
            # 庄 阿明 平胡 (×1) on 阿强's discard; 阿强 placed 下子 2 (the dealer's last ×2):
            # 9, 9 and 阿强 庄7 + 下子2 + 放铳1 = 10; 阿明 +28. Then 连庄 2, 阿强's 下子 doubles to 4.
            {"outcome": "win", "winner": 0, "win_type": "pinghu", "discarder": 3, "xiazi_join": [3]},
            seating(["阿明", "小芳", "小李", "阿强"]),
            *after,
        ],
    }


def test_yiwu_a_substitute_mid_tenure_ends_every_bet():
    buy = {"outcome": "win", "winner": 1, "win_type": "zimo", "maizi": [0, 0, 1, 0]}
    without = yiwu_substitute([buy])
    del without["hands"][2]
    assert error_of(without)["field"] == "maizi"  # without the seating, 小芳's 买子 lasts the tenure
    # 小芳 (闲, seat 1) 自摸 ×2, and only 小李 buys 买子 (a game's first hand again, though the
    # tenure started two hands ago and the house rule is 坐庄第一局买子). No 下子 is left:
    #   阿明 (庄): 庄7 (+ 下子 0) = 7 → 14;  小李: 闲5 + 买子2 = 7 → 14;  阿强: 闲5 → 10.
    # Had the bets stood, 小芳's 买子 would add 2 to every pair of hers.
    result = score_game(yiwu_substitute([buy]))
    hands = result["hands"]
    assert hands[2] == {
        "seating": ["阿明", "小芳", "小李", "阿强"],
        "dealer": 0,
        "streak": 2,  # the dealer seat stays, and with it the 连庄
        "net": [0, 0, 0, 0],
        "payments": [],
    }
    assert (hands[3]["maizi"], hands[3]["xiazi"]) == ([0, 0, 1, 0], [0, 0, 0, 0])
    assert (hands[3]["dealer"], hands[3]["streak"]) == (0, 2)
    assert hands[3]["net"] == [-14, 14 + 14 + 10, -14, -10]
    assert result["totals"] == [50 + 28 - 14, -18 - 9 + 38, -18 - 9 - 14, -14 - 10 - 10]
    assert result["people"] == [
        {"name": "阿明", "total": 50 + 28 - 14},
        {"name": "小芳", "total": -18 - 9 + 38},
        {"name": "老王", "total": -18 - 9},  # stood up with his seat's total so far
        {"name": "阿强", "total": -14 - 10 - 10},
        {"name": "小李", "total": -14},  # counts from the seat's total when he sat down
    ]


def test_yiwu_after_a_seating_no_xiazi_may_be_placed_though_the_dealer_won_last():
    join = {"outcome": "win", "winner": 0, "win_type": "zimo", "xiazi_join": [1]}
    error = error_of(yiwu_substitute([join]))
    assert error["hand"] == 3
    assert error["field"] == "xiazi_join"
    without = yiwu_substitute([join])
    del without["hands"][2]  # the same hand right after the dealer's win: a 下子 may be placed
    assert score_game(without)["hands"][2]["xiazi"] == [0, 1, 0, 4]


# --- 义乌: the deal and its 连庄 follow the person who deals --------------------------------------


def reshuffle(dealer: int | None) -> dict:
    extra = {} if dealer is None else {"dealer": dealer}
    return {
        "players": NAMES,
        "hands": [
            {"outcome": "win", "winner": 0, "win_type": "zimo"},  # 庄 阿明 自摸: 7 × 2 = 14 each
            {"outcome": "win", "winner": 0, "win_type": "zimo"},  # again, 连庄 1 → 2
            seating(["老王", "阿强", "小芳", "阿明"], **extra),  # everyone moves
            {"outcome": "win", "winner": 3, "win_type": "zimo"},  # 阿明, now in seat 3, 自摸
        ],
    }


@pytest.mark.parametrize("dealer", [None, 3])
def test_yiwu_the_dealing_person_keeps_the_deal_and_streak_wherever_they_sit(dealer):
    result = score_game(reshuffle(dealer))
    hands = result["hands"]
    assert (hands[2]["dealer"], hands[2]["streak"]) == (3, 2)
    # 阿明 deals on from seat 3 at 连庄 2 (every bet ended): a dealer's 自摸, 庄7 × 2 = 14 from each.
    assert (hands[3]["dealer"], hands[3]["streak"], hands[3]["net"]) == (3, 2, [-14, -14, -14, 42])
    assert result["totals"] == [42 + 42 - 14, -14 - 14 - 14, -14 - 14 - 14, -14 - 14 + 42]
    assert people(result) == {
        "阿明": 42 + 42 + 42,  # seat 0, then seat 3
        "小芳": -14 - 14 - 14,  # seat 1, then seat 2
        "老王": -14 - 14 - 14,  # seat 2, then seat 0
        "阿强": -14 - 14 - 14,  # seat 3, then seat 1
    }


def test_a_seating_that_gives_the_deal_to_another_person_restarts_the_streak():
    result = score_game(reshuffle(0))
    hands = result["hands"]
    assert (hands[2]["dealer"], hands[2]["streak"]) == (0, 0)
    # 老王 deals from seat 0 at 连庄 0; 阿明 (seat 3, 闲) 自摸: 庄7 × 2 from 老王, 闲5 × 2 from the others.
    assert (hands[3]["dealer"], hands[3]["streak"], hands[3]["net"]) == (0, 0, [-14, -10, -10, 34])
    assert people(result)["阿明"] == 42 + 42 + 34


# --- 诸暨: halves, and a player who leaves and comes back ---------------------------------------


def test_zhuji_halves_and_a_returning_player():
    game = {
        "ruleset": "zhuji",
        "players": ["甲", "乙", "丙", "丁"],
        "hands": [
            # 丁 wins on 乙's discard with 无财 alone (0 台): 乙 pays 1, 甲 and 丙 half of it.
            {"outcome": "win", "winner": 3, "discarder": 1, "tai": {"no_caishen": True}},
            seating(["甲", "乙", "丙", "戊"]),  # 丁 goes home for a while; 戊 sits in
            # 戊 平胡 自摸 (1 台): 2 from each; the deal went to 乙 and goes on to 丙.
            {"outcome": "win", "winner": 3, "tai": {"shape": "pinghu"}},
            seating(["丁", "乙", "丙", "戊"]),  # 丁 is back, in 甲's seat
            # 乙 wins on 丁's discard with 无财: 丁 pays 1, 丙 and 戊 half each.
            {"outcome": "win", "winner": 1, "discarder": 0, "tai": {"no_caishen": True}},
        ],
    }
    result = score_game(game)
    assert [h["net"] for h in result["hands"] if "seating" not in h] == [
        [-0.5, -1, -0.5, 2],
        [-2, -2, -2, 6],
        [-1, 2, -0.5, -0.5],
    ]
    assert result["totals"] == [-0.5 - 2 - 1, -1 - 2 + 2, -0.5 - 2 - 0.5, 2 + 6 - 0.5]
    assert result["people"] == [
        {"name": "甲", "total": -2.5},  # −0.5 − 2 in seat 0
        {"name": "乙", "total": -1},  # −1 − 2 + 2
        {"name": "丙", "total": -3},  # −0.5 − 2 − 0.5
        {"name": "丁", "total": 1},  # +2 in seat 3, then −1 in seat 0
        {"name": "戊", "total": 5.5},  # +6 − 0.5 in seat 3
    ]
    zhuji = get_ruleset("zhuji")
    table = replay(zhuji, zhuji.parse_rules({}), game["hands"], players=game["players"])[1]
    assert dict(table.people()) == {"甲": Fraction(-5, 2), "乙": -1, "丙": -3, "丁": 1, "戊": Fraction(11, 2)}
    assert type(dict(table.people())["丁"]) is int  # whole amounts stay ints


# --- 武义二人: a third friend rotates in ----------------------------------------------------------


def test_wuyi2_a_third_friend_rotates_in():
    game = {
        "ruleset": "wuyi2",
        "players": ["阿明", "小芳"],
        "hands": [
            # 阿明 (庄) 自摸, no pattern: 平胡 0 + 自摸 1 = 1 番 → 2^1 × 2 (庄) = 4.
            {"outcome": "win", "winner": 0, "patterns": []},
            # 小芳 on 阿明's discard, 碰碰胡 1 番: 2 × 2 (放铳) × 2 (庄) = 8; the deal passes to 小芳.
            {"outcome": "win", "winner": 1, "discarder": 0, "patterns": ["pengpenghu"]},
            seating(["老王", "小芳"]),  # 阿明 sits out; 老王 in seat 0
            # 老王 自摸 七对 (1) + 自摸 (1) = 2 番: 4 × 2 (庄 小芳 pays) = 8; the deal passes to 老王.
            {"outcome": "win", "winner": 0, "patterns": ["qidui"]},
            seating(["老王", "阿明"]),  # 小芳 sits out; 阿明 back, in seat 1
            # 阿明 on 老王's discard, 清一色 2 番: 4 × 2 (放铳) × 2 (庄) = 16.
            {"outcome": "win", "winner": 1, "discarder": 0, "patterns": ["qingyise"]},
        ],
    }
    result = score_game(game)
    assert [h["net"] for h in result["hands"]] == [[4, -4], [-8, 8], [0, 0], [8, -8], [0, 0], [-16, 16]]
    assert [(h["dealer"], h["streak"]) for h in result["hands"]] == [(0, 0), (0, 1), (1, 0), (1, 0), (0, 0), (0, 0)]
    assert result["totals"] == [4 - 8 + 8 - 16, -4 + 8 - 8 + 16]
    assert result["people"] == [
        {"name": "阿明", "total": 4 - 8 + 16},
        {"name": "小芳", "total": -4 + 8 - 8},
        {"name": "老王", "total": 8 - 16},
    ]


# --- 诸暨: two people swap seats ------------------------------------------------------------------


def test_zhuji_two_people_swap_seats():
    game = {
        "ruleset": "zhuji",
        "players": ["甲", "乙", "丙", "丁"],
        "hands": [
            {"outcome": "win", "winner": 0, "tai": {"shape": "duiduihu"}},  # 甲 (庄) 1 台 自摸: 2 each
            seating(["丙", "乙", "甲", "丁"], dealer=0),  # 甲 and 丙 swap; the table has seat 0 deal
            # 丙 deals from seat 0: 东风 pung, worth 2 to the dealer: 2 台 自摸 → 4 each.
            {"outcome": "win", "winner": 0, "tai": {"wind_pungs": ["dong"]}},
            # 甲 (seat 2, 西 to the dealer) on 丙's discard with 西风: 1 台 → 丙 2, 乙 and 丁 1.
            {"outcome": "win", "winner": 2, "discarder": 0, "tai": {"wind_pungs": ["xi"]}},
        ],
    }
    result = score_game(game)
    assert result["hands"][1]["streak"] == 0  # another person deals: 连庄 restarts
    assert result["totals"] == [6 + 12 - 2, -2 - 4 - 1, -2 - 4 + 4, -2 - 4 - 1]
    assert people(result) == {"甲": 6 - 4 + 4, "乙": -7, "丙": -2 + 12 - 2, "丁": -7}


# --- what moves and what stays ---------------------------------------------------------------------


def test_a_manual_hand_and_a_correction_after_a_seating_count_for_whoever_sits():
    game = {
        "ruleset": "zhuji",
        "players": ["甲", "乙", "丙", "丁"],
        "corrections": [{"hand": 1, "dealer": 2, "streak": 3}],
        "hands": [
            seating(["甲", "乙", "戊", "丁"]),
            {"outcome": "manual", "net": [-1.5, 0, 2, -0.5], "note": "罚分"},
        ],
    }
    result = score_game(game)
    assert (result["hands"][1]["dealer"], result["hands"][1]["streak"]) == (2, 3)
    assert people(result) == {"甲": -1.5, "乙": 0, "丙": 0, "丁": -0.5, "戊": 2}


def test_people_are_answered_exactly_when_the_game_names_its_players():
    hands = [{"outcome": "win", "winner": 1, "win_type": "zimo"}]  # 闲 自摸: 14, 10, 10
    assert score_game({"players": NAMES, "hands": hands})["people"] == [
        {"name": "阿明", "total": -14},
        {"name": "小芳", "total": 34},
        {"name": "老王", "total": -10},
        {"name": "阿强", "total": -10},
    ]
    assert "people" not in score_game({"hands": hands})


def test_the_seated_table_round_trips_through_its_dict_and_copies_apart():
    zhuji = get_ruleset("zhuji")
    hands = [
        {"outcome": "win", "winner": 3, "discarder": 1, "tai": {"no_caishen": True}},
        seating(["甲", "乙", "丙", "戊"]),
        {"outcome": "win", "winner": 3, "tai": {"shape": "pinghu"}},
    ]
    state = replay(zhuji, zhuji.parse_rules({}), hands, players=["甲", "乙", "丙", "丁"])[1]
    assert isinstance(state, Seated)
    data = state.to_dict()
    assert data["seating"] == ["甲", "乙", "丙", "戊"]
    assert data["people"] == [
        {"name": "甲", "total": -2.5},
        {"name": "乙", "total": -3},
        {"name": "丙", "total": -2.5},
        {"name": "丁", "total": 2},
        {"name": "戊", "total": 6},
    ]
    assert data["totals"] == [-2.5, -3, -2.5, 8]
    back = zhuji.state_from_dict(data)
    assert back == state
    assert back.to_dict() == data
    copy = deepcopy(state)
    zhuji.advance(zhuji.parse_rules({}), copy, zhuji.parse_hand(seating(["甲", "乙", "丙", "丁"])), None)
    assert state.seating == ["甲", "乙", "丙", "戊"]
    assert copy.seating == ["甲", "乙", "丙", "丁"]
    assert dict(copy.people())["丁"] == 2


# --- rounds: the deal passing ------------------------------------------------------------------------


def test_the_seated_table_counts_the_deal_passing_by_play_only():
    """A hand after which another seat deals is a pass (rounds: scoring/people.py); a seating's or a
    correction's new dealer is not. 义乌: a dealer's win or a draw keeps the deal; another's win
    passes it to the next seat."""
    yiwu = get_ruleset("yiwu")
    hands = [
        {"outcome": "win", "winner": 0, "win_type": "zimo"},  # 阿明 deals on: no pass
        {"outcome": "win", "winner": 2, "win_type": "zimo"},  # to 小芳: 1
        {"outcome": "draw"},  # 小芳 deals on: 1
        seating(["阿明", "小芳", "小李", "阿强"], dealer=3),  # a new dealer by the table: still 1
        {"outcome": "win", "winner": 1, "win_type": "zimo"},  # from 阿强 to 阿明: 2
        {"outcome": "manual", "net": [1, -1, 0, 0], "note": "罚分", "dealer": 2},  # the table moves it: 3
        {"outcome": "draw"},  # a correction before it (to seat 0) is no pass: 3
    ]
    rules = yiwu.parse_rules({})
    for count, passes in ((1, 0), (2, 1), (3, 1), (4, 1), (5, 2), (6, 3)):
        assert replay(yiwu, rules, hands[:count], players=NAMES)[1].passes == passes, count
    state = replay(yiwu, rules, hands, fixes={6: (0, 0)}, players=NAMES)[1]
    assert (state.dealer, state.passes) == (0, 3)
    assert yiwu.state_from_dict(state.to_dict()) == state  # kept in the stored table
    assert state.to_dict()["passes"] == 3


# --- errors ------------------------------------------------------------------------------------------


def test_a_seating_with_a_name_twice_is_refused_at_its_hand():
    error = error_of({"players": NAMES, "hands": [seating(["阿明", "小芳", " 阿明 ", "阿强"])]})
    assert (error["hand"], error["field"]) == (0, "players")
    assert "重复" in error["message"]


def test_a_seating_without_the_games_players_is_a_game_level_error():
    error = error_of({"ruleset": "wuyi2", "hands": [{"outcome": "draw"}, seating(["甲", "乙"])]})
    assert (error["hand"], error["field"]) == (None, "players")


def test_a_seating_that_changes_nobody_is_refused():
    error = error_of({"players": NAMES, "hands": [seating(["阿明 ", "小芳", "老王", "阿强"], dealer=2)]})
    assert (error["hand"], error["field"]) == (0, "players")
    assert "至少" in error["message"]


@pytest.mark.parametrize(
    ("entry", "field", "says"),
    [
        (seating(["阿明", "小芳", "老王"]), "players", "需要 4 个名字"),  # three names for four seats
        (seating("阿明 小芳 老王 小李"), "players", "需要 4 个名字"),
        (seating(["阿明", "小芳", "老王", "x" * 41]), "players", "1-40 个字"),  # over 40 characters
        (seating(["阿明", "小芳", "老王", " "]), "players", "1-40 个字"),
        (seating(["阿明", "小芳", "老王", 7]), "players", "1-40 个字"),
        (seating(["阿明", "小芳", "老王", "小\u202e李"]), "players", "U+202E"),  # a direction mark
        (seating(["阿明", "小芳", "老王", "小李"], dealer=4), "dealer", "座位号 0-3"),
        (seating(["阿明", "小芳", "老王", "小李"], dealer=True), "dealer", "座位号 0-3"),
        (seating(["阿明", "小芳", "老王", "小李"], dealer=None), "dealer", "座位号 0-3"),
        (seating(["阿明", "小芳", "老王", "小李"], net=[0, 0, 0, 0]), "net", "未知字段"),
    ],
)
def test_a_malformed_seating_is_refused_at_its_hand(entry, field, says):
    draw = {"outcome": "draw"}
    error = error_of({"players": NAMES, "hands": [draw, entry]})
    assert (error["hand"], error["field"]) == (1, field)
    assert says in error["message"]
    well_formed = seating(["阿明", "小芳", "老王", "小李"], dealer=3)
    assert score_game({"players": NAMES, "hands": [draw, well_formed]})["hands"][1]["dealer"] == 3


# --- the property: money follows the people ----------------------------------------------------------

POOL = ["阿明", "小芳", "老王", "阿强", "小李", "大刘"]


@st.composite
def seated_games(draw) -> dict:
    """A valid game of any ruleset with its players named and seatings inserted at random (a
    seating may hand the deal to another seat, which can spoil a later hand: see ``scored``)."""
    game = draw(st.one_of(strategies.valid_games(max_hands=12), zhuji_games(max_hands=12), wuyi2_games()))
    seats = get_ruleset(game.get("ruleset", "yiwu")).seats
    now = draw(st.permutations(POOL).map(lambda names: names[:seats]))
    game["players"] = list(now)
    hands = []
    for hand in game["hands"]:
        if draw(st.integers(0, 3)) == 0:
            names = draw(st.permutations(POOL).map(lambda names: names[:seats]))
            if names != now:
                extra = {"dealer": draw(st.integers(0, seats - 1))} if draw(st.booleans()) else {}
                hands.append(seating(list(names), **extra))
                now = names
        hands.append(hand)
    game["hands"] = hands
    return game


def scored(game: dict) -> tuple[dict, dict]:
    """The game cut before the first hand a seating's new dealer made impossible, and its result."""
    while True:
        ok, out = score_game_or_error(game)
        if ok:
            return game, out
        assert out["error"]["hand"] is not None, out
        game = {**game, "hands": game["hands"][: out["error"]["hand"]]}


def exact(value) -> Fraction:
    return Fraction(value)  # halves are exact in a binary float


@settings(max_examples=examples(300), deadline=None)
@given(seated_games())
def test_each_persons_total_is_the_sum_of_the_nets_of_the_seats_they_sat_in(game):
    game, result = scored(game)
    sitting = list(game["players"])
    by_person = {name: Fraction(0) for name in sitting}
    for hand in result["hands"]:
        assert sum(exact(n) for n in hand["net"]) == 0
        if "seating" in hand:
            assert hand["net"] == [0] * len(sitting)
            assert hand["payments"] == []
            sitting = hand["seating"]
            for name in sitting:
                by_person.setdefault(name, Fraction(0))
            continue
        for seat, net in enumerate(hand["net"]):
            by_person[sitting[seat]] += exact(net)
    totals = [exact(t) for t in result["totals"]]
    answered = {p["name"]: exact(p["total"]) for p in result["people"]}
    assert sum(answered.values()) == sum(totals) == 0
    assert answered == by_person
    assert [p["name"] for p in result["people"]] == list(by_person)  # in order of first appearance

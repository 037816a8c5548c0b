"""杭州 算牌 (docs/analysis.md "杭州"): the request it takes and refuses, one test per reading the
tiles decide, the breakdown the page reads, and the page's questions (财飘, 十风, 承包) applied to
an answer and priced by the scorer. The random hands are in test_hangzhou_analyse_brute.py; the
worked requests (tests/data/examples/analyse/hangzhou) run through both doors with the others'."""

import pytest

from scoring.engine import score_game
from scoring.engine.analyse import analyse, breakdown
from scoring.engine.analyse.request import table_rules
from scoring.engine.errors import ScoringError
from scoring.rulesets.hangzhou.engine import analyse as hangzhou
from tests.examples import analyse_examples

STANDARD = "1m 2m 3m 4p 5p 6p 7s 8s 9s E E E".split()  # four sets: a pair and it is 平和
BAOTOU = [*STANDARD, "P", "5m"]  # 爆头: the 5m drawn, the lone 白 its pair
SIX_PAIRS = "1m 1m 3m 3m 4p 4p 5p 5p 6s 6s 9s 9s".split()
RULES = table_rules("hangzhou", None)


def ask(tiles, **context) -> dict:
    return analyse({"ruleset": "hangzhou", "tiles": tiles, **context})


def test_the_worked_requests_are_among_the_examples_both_doors_run():
    names = {p.stem for p in analyse_examples() if p.parent.name == "hangzhou"}
    assert {"02-baotou", "05-haohua-qidui-baotou", "08-waits-any-tile", "e1-a-flip-is-an-error"} <= names
    assert len(names) == 12


# ---------------------------------------------------------------- the request


@pytest.mark.parametrize(
    ("context", "field", "says"),
    [
        ({"flip": "3m"}, "flip", "不翻财神"),
        ({"self_drawn": False}, "self_drawn", "只能自摸"),
        ({"robbing_kong": True}, "robbing_kong", "没有 robbing_kong"),
        ({"last_tile": True}, "last_tile", "没有 last_tile"),
        ({"seat_wind": "S"}, "seat_wind", "没有 seat_wind"),
        ({"first_round": "tianhu"}, "first_round", "没有 first_round"),
        ({"after_kong": True}, "after_kong", "杠开要先有杠"),
        ({"self_drawn": "yes"}, "self_drawn", "true 或 false"),
    ],
)
def test_a_request_hangzhou_does_not_take_is_refused_naming_the_field(context, field, says):
    with pytest.raises(ScoringError) as refused:
        ask([*STANDARD, "5m", "5m"], **context)
    assert refused.value.field == field
    assert says in refused.value.zh
    assert refused.value.en


def test_self_drawn_true_is_taken_and_the_dealer_changes_nothing():
    plain = ask([*STANDARD, "5m", "5m"])
    assert ask([*STANDARD, "5m", "5m"], self_drawn=True, dealer=True) == plain
    assert ask([*STANDARD, "5m", "5m"], after_kong=True, melded=1)["patterns"] == ["gangkai", "no_caishen"]


# ---------------------------------------------------------------- what the tiles decide


def test_four_real_alike_make_haohua_qidui_but_a_bai_as_the_fourth_does_not():
    assert ask(["1m", "1m", *SIX_PAIRS])["patterns"] == ["haohua_qidui", "no_caishen"]
    answer = ask("1m 1m 1m P 3m 3m 4p 4p 5p 5p 6s 6s 9s 9s".split())
    assert (answer["caishen"], answer["patterns"]) == (1, ["qidui"])


def test_a_melded_hand_is_no_qidui():
    assert ask(["1m", "1m", *SIX_PAIRS], melded=1) == {"complete": False}


def test_haohua_baotou_needs_the_four_among_the_twelve_left():
    drawn_fourth = [*"1m 1m 1m 3m 3m 4p 4p 5p 5p 6s 6s P".split(), "P", "1m"]  # the fourth 1m drawn
    answer = ask(drawn_fourth)
    assert answer["patterns"] == ["haohua_qidui"]  # 4 番 beats 爆头 + 七对子's 3
    assert answer["fan"] == 4


def test_bai_drawn_is_no_baotou_but_a_held_one_is():
    assert ask([*STANDARD, "5m", "P"])["patterns"] == []
    assert ask([*STANDARD, "P", "P"])["patterns"] == ["baotou"]  # a held 白 pairs the drawn one


def test_a_baotou_hand_read_as_a_set_is_still_baotou():
    # 白 can fill the 4-6p chow, but set aside with the 5m drawn the rest is 4 sets
    assert ask([*STANDARD, "P", "5m"], last="5m")["patterns"] == ["baotou"]
    # here the 白 is needed in a set: no 爆头
    answer = ask([*"1m 2m 3m 4p P 6p 7s 8s 9s E E E".split(), "5m", "5m"])
    assert (answer["caishen"], answer["patterns"]) == (1, [])


def test_thirteen_tiles_holding_a_bai_and_six_pairs_win_on_any_tile():
    answer = ask([*SIX_PAIRS, "P"])
    assert answer["any_tile"] is True
    assert len(answer["waits"]) == 34
    assert all(w["patterns"][0] == "baotou" for w in answer["waits"])


def test_thirteen_tiles_without_a_lone_bai_list_their_waits_only():
    answer = ask([*STANDARD[:-1], "5m", "P"])  # 123m 456p 789s 东东 5m 白
    assert answer["any_tile"] is False
    assert [w["tile"] for w in answer["waits"]] == ["3m", "4m", "5m", "6m", "7m", "E", "P"]


# ---------------------------------------------------------------- the breakdown


@pytest.mark.parametrize(
    ("tiles", "zh", "en"),
    [
        ([*STANDARD, "5m", "P"], "0 番：平和", "0 fan: Plain win"),
        (BAOTOU, "1 番：爆头 1", "1 fan: Wild head 1"),
        (
            ["1m", "1m", *SIX_PAIRS],
            "5 番（封顶 4）：豪华七对 4 · 无财神 1",
            "5 fan (capped at 4): Luxury seven pairs 4 · No wilds 1",
        ),
    ],
)
def test_the_breakdown_names_each_pattern_at_the_tables_fan(tiles, zh, en):
    answer = ask(tiles)
    assert breakdown(answer, "hangzhou", rules=None) == zh
    assert breakdown(answer, "hangzhou", zh=False) == en


def test_the_breakdown_reads_the_tables_own_fan_and_cap():
    rules = {"fan": {"baotou": 2}, "fan_cap": None}
    answer = ask(BAOTOU, rules=rules)
    assert answer["fan"] == 2
    assert breakdown(answer, "hangzhou", rules=rules) == "2 番：爆头 2"


# ---------------------------------------------------------------- the page's questions


def applied(tiles, chosen, winner=2, **context):
    request = {"ruleset": "hangzhou", "tiles": tiles, **context}
    return hangzhou.with_answers(analyse(request), chosen, request, winner)


def paid(answer, winner=2) -> list[int]:
    """What the three others pay and the winner gets: the entry through the scorer (dealer seat 0)."""
    assert hangzhou.can_win(answer), answer
    return score_game({"ruleset": "hangzhou", "hands": [hangzhou.hand_entry(answer, winner)]})["totals"]


def test_caipiao_counts_one_fan_per_bai_discarded_over_baotou():
    answer = applied(BAOTOU, {"caipiao": ("2",)})
    assert (answer["patterns"], answer["caipiao"], answer["fan"]) == (["baotou"], 2, 3)
    assert breakdown(answer, "hangzhou") == "3 番：爆头 1 · 财飘 ×2 2"
    assert paid(answer) == [-16, -8, 32, -8]  # 1 × 2³, the dealer ×2


def test_caipiao_stack_off_counts_it_once():
    answer = applied(BAOTOU, {"caipiao": ("3",)}, rules={"caipiao_stack": False})
    assert answer["fan"] == 2


def test_caipiao_on_tiles_that_are_no_baotou_is_refused_with_the_reason():
    answer = applied([*STANDARD, "5m", "5m"], {"caipiao": ("1",)})
    assert not hangzhou.can_win(answer)
    assert "无财神" in answer["reason"][0]
    request = {"ruleset": "hangzhou", "tiles": [*STANDARD, "5m", "P"]}  # the 白 drawn: no 爆头
    asked = {q["name"]: q["options"] for q in hangzhou.questions(analyse(request), {}, request, 2)}
    assert all("爆头" in option["reason"][0] for option in asked["caipiao"])
    assert applied(request["tiles"], {"caipiao": ("1",)})["reason"] == asked["caipiao"][0]["reason"]


def test_shifeng_is_a_hand_of_its_own_whatever_the_tiles():
    tiles = "1m 4m 7m E S W N C F 9s 2p 5p 8p 1s".split()
    assert analyse({"ruleset": "hangzhou", "tiles": tiles}) == {"complete": False}
    answer = applied(tiles, {"shifeng": ("shifeng",)})
    assert answer["patterns"] == ["shifeng", "no_caishen"]
    assert paid(answer) == [-32, -16, 64, -16]  # 4 番, capped at 4
    with_bai = applied([*tiles[:-1], "P"], {"shifeng": ("shifeng_bai",)})
    assert (with_bai["patterns"], with_bai["fan"]) == (["shifeng_bai"], 4)


def test_shifeng_with_melded_sets_or_after_a_kong_is_refused():
    for context in ({"melded": 1}, {"melded": 1, "after_kong": True}):  # (a kong is a melded set)
        answer = applied(BAOTOU, {"shifeng": ("shifeng",)}, **context)
        assert not hangzhou.can_win(answer)
        assert "吃、碰、杠" in answer["reason"][0]


def test_chengbao_up_makes_the_upper_seat_pay_all_and_down_the_lower_double():
    up = applied([*STANDARD, "5m", "5m"], {"chengbao": ("up",)})  # seat 2 chowed thrice from seat 1
    assert up["chengbao"] == [2]
    assert paid(up) == [0, -8, 8, 0]  # T = 4 + 2 + 2 (无财神: 1 番)
    down = applied([*STANDARD, "5m", "5m"], {"chengbao": ("down",)})
    assert down["chengbao"] == [3]
    assert paid(down) == [0, 0, 16, -16]


def test_chengbao_up_is_refused_for_a_qidui_winner_and_down_is_not():
    tiles = ["1m", "1m", *SIX_PAIRS]
    assert "豪华七对" in applied(tiles, {"chengbao": ("up",)})["reason"][0]
    assert hangzhou.can_win(applied(tiles, {"chengbao": ("down",)}))


def test_the_questions_name_the_seats_of_the_winner_chengbao_is_asked_with_a_winner_only():
    request = {"ruleset": "hangzhou", "tiles": BAOTOU}
    answer = analyse(request)
    asked = {q["name"]: q for q in hangzhou.questions(answer, {"chengbao": ("down",)}, request, 0)}
    assert [(o["value"], o["seat"], o["on"]) for o in asked["chengbao"]["options"]] == [
        ("up", 3, False),
        ("down", 1, True),
    ]
    assert "chengbao" not in {q["name"] for q in hangzhou.questions(answer, {}, request, None)}


def test_the_waits_take_caipiao_when_every_tile_wins_as_baotou():
    answer = applied([*STANDARD, "P"], {"caipiao": ("1",)})
    assert answer["any_tile"] is True
    assert {(w["fan"], w["caipiao"]) for w in answer["waits"]} == {(2, 1)}

"""手动记分 in every ruleset: typed changes that sum to zero, paid largest first, replayed like any hand."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.engine import ScoringError, score_game
from scoring.engine.contract import score_game_or_error
from tests.rulesets.yiwu.strategies import valid_games
from tests.speed import examples

SETTINGS = settings(max_examples=examples(100), deadline=None)
ZIMO = {"outcome": "win", "winner": 0, "win_type": "zimo"}


def manual(net, note="罚分", **extra) -> dict:
    return {"outcome": "manual", "net": net, "note": note, **extra}


def error_of(game) -> dict:
    ok, out = score_game_or_error(game)
    assert not ok
    return out["error"]


@pytest.mark.parametrize(
    ("ruleset", "net", "hand"),
    [
        ("yiwu", [-10, 5, 3, 2], {"outcome": "win", "winner": 1, "win_type": "zimo"}),
        ("zhuji", [-3, 1, 1, 1], {"outcome": "draw"}),
        ("wuyi2", [-4, 4], {"outcome": "draw"}),
    ],
)
def test_every_ruleset_takes_a_manual_hand(ruleset, net, hand):
    result = score_game({"ruleset": ruleset, "hands": [manual(net), hand]})
    first = result["hands"][0]
    assert first["net"] == net
    assert first["manual"] is True
    assert first["note"] == "罚分"
    assert all("手动 · 罚分" in p["explain"] for p in first["payments"])
    assert result["totals"] == [a + b for a, b in zip(net, result["hands"][1]["net"], strict=True)]


def test_the_losers_pay_the_winners_largest_first():
    hand = score_game({"hands": [manual([-7, 10, -3, 0])]})["hands"][0]
    pays = [(p["from"], p["to"], p["amount"]) for p in hand["payments"]]
    assert pays == [(0, 1, 7), (2, 1, 3)]
    hand = score_game({"hands": [manual([6, 4, -9, -1])]})["hands"][0]
    assert [(p["from"], p["to"], p["amount"]) for p in hand["payments"]] == [(2, 0, 6), (2, 1, 3), (3, 1, 1)]


def test_amounts_that_do_not_sum_to_zero_are_refused():
    error = error_of({"hands": [ZIMO, manual([-10, 5, 3, 1])]})
    assert error["hand"] == 1
    assert error["field"] == "net"
    assert "加起来应为 0" in error["message"]


def test_halves_only_in_zhuji():
    assert score_game({"ruleset": "zhuji", "hands": [manual([-1.5, 0.5, 1, 0])]})["totals"] == [-1.5, 0.5, 1, 0]
    assert error_of({"hands": [manual([-1.5, 0.5, 1, 0])]})["field"] == "net"
    assert error_of({"ruleset": "wuyi2", "hands": [manual([-0.5, 0.5])]})["field"] == "net"
    assert error_of({"ruleset": "zhuji", "hands": [manual([-0.25, 0.25, 0, 0])]})["field"] == "net"


@pytest.mark.parametrize(
    ("hand", "field"),
    [
        (manual([-1, 1, 0]), "net"),
        (manual([-1, 1, 0, True]), "net"),
        (manual([-1, 1, 0, "0"]), "net"),
        (manual([-2_000_000, 2_000_000, 0, 0]), "net"),
        (manual([-1, 1, 0, 0], note=""), "note"),
        (manual([-1, 1, 0, 0], note="   "), "note"),
        (manual([-1, 1, 0, 0], note="x" * 101), "note"),
        (manual([-1, 1, 0, 0], note="a\nb"), "note"),
        (manual([-1, 1, 0, 0], dealer=4), "dealer"),
        (manual([-1, 1, 0, 0], dealer=None), "dealer"),
        ({"outcome": "manual", "net": [-1, 1, 0, 0]}, "note"),
        ({**manual([-1, 1, 0, 0]), "winner": 1}, "winner"),
    ],
)
def test_bad_manual_hands_are_refused_naming_the_field(hand, field):
    assert error_of({"hands": [hand]})["field"] == field


def test_the_dealer_stays_unless_the_table_names_the_next_one():
    hands = [ZIMO, {**ZIMO, "xiazi_join": [1]}, manual([-1, 1, 0, 0])]
    after = score_game({"hands": [*hands, ZIMO]})["hands"][3]
    assert (after["dealer"], after["streak"]) == (0, 2)  # 连庄 and the 下子 kept
    assert after["xiazi"] == [0, 4, 0, 0]
    moved = score_game({"hands": [*hands[:2], manual([-1, 1, 0, 0], dealer=2), ZIMO]})["hands"][3]
    assert (moved["dealer"], moved["streak"]) == (2, 0)
    assert moved["xiazi"] == [0, 0, 0, 0]  # a new dealer: the bets ended
    same = score_game({"hands": [*hands[:2], manual([-1, 1, 0, 0], dealer=0), ZIMO]})["hands"][3]
    assert (same["dealer"], same["streak"]) == (0, 2)


@st.composite
def games_with_manual_hands(draw):
    game = draw(valid_games())
    hands = list(game["hands"])
    for _ in range(draw(st.integers(1, 3))):
        a, b = draw(st.permutations(range(4)))[:2]
        amount = draw(st.integers(1, 50))
        net = [0, 0, 0, 0]
        net[a], net[b] = -amount, amount
        hand = manual(net, note=draw(st.sampled_from(["罚分", "side bet", "手算的一局"])))
        if draw(st.booleans()):
            hand["dealer"] = draw(st.integers(0, 3))
        hands.insert(draw(st.integers(0, len(hands))), hand)
    return {**game, "hands": hands}


@SETTINGS
@given(games_with_manual_hands(), st.data())
def test_a_prefix_replays_to_the_same_first_hands(game, data):
    ok, whole = score_game_or_error(game)
    if not ok:  # a manual dealer change can make a later 下子/买子 entry invalid: still a clean error
        assert isinstance(whole["error"]["hand"], int)
        return
    cut = data.draw(st.integers(0, len(game["hands"])))
    prefix = score_game({**game, "hands": game["hands"][:cut]})
    assert prefix["hands"] == whole["hands"][:cut]
    running = [0, 0, 0, 0]
    for hand in whole["hands"][:cut]:
        assert sum(hand["net"]) == 0
        running = [a + b for a, b in zip(running, hand["net"], strict=True)]
    assert prefix["totals"] == running


def test_a_manual_hand_parsed_alone_is_a_scoring_error_at_the_index():
    with pytest.raises(ScoringError) as raised:
        score_game({"hands": [ZIMO, ZIMO, manual([1, 1, 1, 1])]})
    assert raised.value.hand == 2

"""Properties over random valid games and random rule options (hypothesis)."""

from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.engine import score_game, score_game_or_error
from tests.rulesets.yiwu.strategies import mangled_games, valid_games
from tests.speed import examples

SETTINGS = settings(max_examples=examples(200), deadline=None)


@SETTINGS
@given(valid_games())
def test_every_hand_sums_to_zero_and_totals_are_the_sum_of_nets(game):
    result = score_game(game)
    assert len(result["hands"]) == len(game["hands"])
    running = [0, 0, 0, 0]
    for hand in result["hands"]:
        assert sum(hand["net"]) == 0
        assert all(isinstance(n, int) for n in hand["net"])
        paid = [0, 0, 0, 0]
        for p in hand["payments"]:
            assert p["amount"] > 0
            assert p["from"] != p["to"]
            paid[p["from"]] -= p["amount"]
            paid[p["to"]] += p["amount"]
        assert paid == hand["net"]
        keys = [(p["from"], p["to"]) for p in hand["payments"]]
        assert keys == sorted(set(keys))
        running = [a + b for a, b in zip(running, hand["net"], strict=True)]
    assert result["totals"] == running


@SETTINGS
@given(valid_games(), st.data())
def test_scoring_a_prefix_gives_the_same_first_hands(game, data):
    cut = data.draw(st.integers(0, len(game["hands"])))
    whole = score_game(game)
    prefix = score_game({**game, "hands": game["hands"][:cut]})
    assert prefix["hands"] == whole["hands"][:cut]


@SETTINGS
@given(valid_games())
def test_dealer_and_streak_follow_the_winners(game):
    hands = score_game(game)["hands"]
    for i in range(1, len(hands)):
        before, after, entry = hands[i - 1], hands[i], game["hands"][i - 1]
        if entry["outcome"] == "win" and entry["winner"] != before["dealer"]:
            assert (after["dealer"], after["streak"]) == ((before["dealer"] + 1) % 4, 0)
            assert after["maizi"] == game["hands"][i].get("maizi", [0, 0, 0, 0])
            assert after["xiazi"] == [0, 0, 0, 0]
        elif entry["outcome"] == "win":
            assert (after["dealer"], after["streak"]) == (before["dealer"], before["streak"] + 1)
        else:
            assert (after["dealer"], after["streak"]) == (before["dealer"], before["streak"])


@settings(max_examples=examples(400), deadline=None)
@given(mangled_games())
def test_invalid_entries_give_the_contract_error_and_nothing_else(game):
    ok, body = score_game_or_error(game)
    if ok:
        assert sum(body["totals"]) == 0
        return
    error = body["error"]
    assert set(error) >= {"hand", "message"}
    assert error["hand"] is None or 0 <= error["hand"] < len(game["hands"])
    assert isinstance(error["message"], str)
    assert error["message"]

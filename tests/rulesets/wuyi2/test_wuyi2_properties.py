"""武义二人麻将: properties over random valid games and random rule options (hypothesis)."""

from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.engine import score_game, score_game_or_error
from scoring.rulesets.wuyi2.engine import LISTABLE, conflicts

SETTINGS = settings(max_examples=100, deadline=None)


@st.composite
def rule_options(draw) -> dict:
    options = {}
    if draw(st.booleans()):
        options["base"] = draw(st.sampled_from([1, 2, 5, 10]))
    if draw(st.booleans()):
        options["dealer_double"] = draw(st.sampled_from(["both", "payer", "none"]))
    if draw(st.booleans()):
        options["fan_cap"] = draw(st.sampled_from([None, 0, 3, 6]))
    if draw(st.booleans()):
        options["fan"] = draw(st.dictionaries(st.sampled_from([*LISTABLE, "zimo"]), st.integers(0, 5), max_size=3))
    return options


@st.composite
def valid_games(draw, max_hands: int = 12) -> dict:
    """A valid game: each pattern is drawn among those ``conflicts`` still allows."""
    first = draw(st.integers(0, 1))
    dealer, hands = first, []
    for _ in range(draw(st.integers(0, max_hands))):
        if draw(st.integers(0, 9)) == 0:
            hands.append({"outcome": "draw"})
            continue
        winner, self_drawn = draw(st.integers(0, 1)), draw(st.booleans())
        codes: list[str] = []
        for _ in range(draw(st.integers(0, 4))):
            refused = conflicts(codes, winner, dealer, self_drawn)
            free = [c for c in LISTABLE if c not in refused and c not in codes]
            if free:
                codes.append(draw(st.sampled_from(free)))
        hand = {"outcome": "win", "winner": winner}
        if codes or draw(st.booleans()):
            hand["patterns"] = codes
        if not self_drawn:
            hand["discarder"] = 1 - winner
        hands.append(hand)
        dealer = winner
    return {"ruleset": "wuyi2", "rules": draw(rule_options()), "first_dealer": first, "hands": hands}


# Ways to spoil one hand: each breaks the contract or a rule of docs/rules/wuyi2.md §4/§5.
MANGLES = [
    lambda h: {**h, "discarder": None},  # null is not a 自摸
    lambda h: {**h, "winner": 2},  # no seat 2 in a two-player game
    lambda h: {**h, "extra": 1},  # unknown field
    lambda h: {**h, "outcome": "abandon"},
    lambda h: {"outcome": "win", "winner": 0, "patterns": ["zimo"]},  # zimo is never listed
    lambda h: {"outcome": "win", "winner": 0, "patterns": ["qidui", "pengpenghu"]},  # two shapes
    lambda h: {"outcome": "win", "winner": 1, "discarder": 1},  # discarder is the winner
    lambda h: {"outcome": "win", "winner": 0, "discarder": 1, "patterns": ["haidi"]},  # 海底 is self-drawn
    lambda h: "win",
]


@SETTINGS
@given(valid_games())
def test_nets_sum_to_zero_and_totals_are_the_sum_of_nets(game):
    result = score_game(game)
    assert len(result["hands"]) == len(game["hands"])
    running = [0, 0]
    for hand in result["hands"]:
        assert sum(hand["net"]) == 0
        paid = [0, 0]
        for p in hand["payments"]:
            assert p["amount"] > 0
            paid[p["from"]] -= p["amount"]
            paid[p["to"]] += p["amount"]
        assert paid == hand["net"]
        running = [a + b for a, b in zip(running, hand["net"], strict=True)]
    assert result["totals"] == running


@SETTINGS
@given(valid_games())
def test_every_win_pays_base_times_two_to_the_fan_times_the_doublings(game):
    rules = game["rules"]
    base, mode = rules.get("base", 1), rules.get("dealer_double", "both")
    for entry, hand in zip(game["hands"], score_game(game)["hands"], strict=True):
        if entry["outcome"] == "draw":
            assert hand["net"] == [0, 0]
            continue
        loser = 1 - entry["winner"]
        doubled = mode == "both" or (mode == "payer" and loser == hand["dealer"])
        expected = base * 2 ** hand["fan"] * (2 if "discarder" in entry else 1) * (2 if doubled else 1)
        assert hand["net"][entry["winner"]] == expected


@SETTINGS
@given(valid_games(), st.data())
def test_scoring_a_prefix_gives_the_same_first_hands(game, data):
    cut = data.draw(st.integers(0, len(game["hands"])))
    whole = score_game(game)
    prefix = score_game({**game, "hands": game["hands"][:cut]})
    assert prefix["hands"] == whole["hands"][:cut]


@SETTINGS
@given(valid_games(max_hands=8), st.data())
def test_a_mangled_hand_returns_the_contract_error_at_its_index(game, data):
    hands = [*game["hands"], {"outcome": "draw"}]
    index = data.draw(st.integers(0, len(hands) - 1))
    mangle = data.draw(st.sampled_from(MANGLES))
    hands[index] = mangle(hands[index])
    ok, body = score_game_or_error({**game, "hands": hands})
    assert not ok
    assert set(body) == {"error"}
    assert body["error"]["hand"] == index
    assert body["error"]["message"]
    assert body["error"]["message_en"]

"""杭州麻将: the engine against an independent reading of docs/rules/hangzhou.md (oracle.py) on
random games and random house rules (hypothesis), both valid and broken on purpose; and the
properties every game keeps (nets sum to zero, totals are their sum, a prefix scores the same)."""

from hypothesis import given, settings
from hypothesis import strategies as st

import scoring.rulesets.hangzhou.engine  # noqa: F401  (registers the ruleset)
from scoring.engine import score_game, score_game_or_error
from tests.examples import contract_view
from tests.rulesets.hangzhou.oracle import FAN, LISTED, oracle
from tests.speed import examples

SETTINGS = settings(max_examples=examples(400), deadline=None)
CODES = sorted(LISTED)


@st.composite
def rule_options(draw) -> dict:
    options = {}
    if draw(st.booleans()):
        options["base"] = draw(st.sampled_from([1, 2, 5, 1_000_000]))
    if draw(st.booleans()):
        options["fan_cap"] = draw(st.sampled_from([None, 0, 2, 4, 20]))
    if draw(st.booleans()):
        options["laozhuang"] = draw(st.lists(st.integers(1, 64), min_size=3, max_size=3))
    for name in ("laozhuang_on_draw", "caipiao_stack"):
        if draw(st.booleans()):
            options[name] = draw(st.booleans())
    if draw(st.booleans()):
        options["next_dealer"] = draw(st.sampled_from(["winner", "next_seat"]))
    if draw(st.booleans()):
        options["fan"] = draw(st.dictionaries(st.sampled_from(sorted(FAN)), st.integers(0, 10), max_size=4))
    return options


BAD_RULES = [
    {"laozhuang": [2, 4]},
    {"laozhuang": [2, 4, 65]},
    {"laozhuang": [0, 4, 8]},
    {"fan_cap": 21},
    {"fan": {"qidui": 11}},
    {"fan": {"pinghu": 1}},
    {"next_dealer": "left"},
    {"caipiao_stack": 1},
    {"base": 0},
    {"base": True},
    {"flowers": True},
]


@st.composite
def win(draw, loose: bool) -> dict:
    """A win: any codes, 财飘 and 承包 (``loose``: anything, many of them invalid), or a valid one."""
    hand = {"outcome": "win", "winner": draw(st.integers(0, 3))}
    if loose:
        if draw(st.booleans()):
            hand["patterns"] = draw(st.lists(st.sampled_from([*CODES, "caipiao", "pinghu"]), max_size=4))
        if draw(st.booleans()):
            hand["caipiao"] = draw(st.integers(0, 4))
        if draw(st.booleans()):
            hand["chengbao"] = draw(st.lists(st.integers(0, 3), max_size=3))
        if draw(st.integers(0, 9)) == 0:
            hand["discarder"] = draw(st.sampled_from([0, 1, 2, 3, None]))
        return hand
    # Valid by the rules document's §4, built here: 十风 alone (or with 无财神), no 杠开 with a 七对,
    # 无财神 without 爆头 or 财飘, and a liable winner only with a hand that has chows.
    shape = draw(st.sampled_from(["", "", "", "qidui", "haohua_qidui", "shifeng", "shifeng_bai"]))
    allowed = [] if shape.startswith("shifeng") else ["baotou"] + ([] if shape else ["gangkai"])
    extras = draw(st.lists(st.sampled_from([*allowed, "no_caishen"]), unique=True, max_size=2))
    if "no_caishen" in extras and "baotou" in extras:
        extras.remove("baotou")
    patterns = ([shape] if shape else []) + extras
    if patterns or draw(st.booleans()):
        hand["patterns"] = patterns
    if not shape.startswith("shifeng") and "no_caishen" not in extras and draw(st.booleans()):
        hand["caipiao"] = draw(st.integers(0, 3))
    if draw(st.booleans()):
        side = draw(st.sampled_from([[0], [1], [0, 1]] if not shape else [[1]]))
        hand["chengbao"] = [(hand["winner"] + s) % 4 for s in side]
    return hand


@st.composite
def games(draw, max_hands: int = 14) -> dict:
    hands = []
    for _ in range(draw(st.integers(0, max_hands))):
        hands.append({"outcome": "draw"} if draw(st.integers(0, 5)) == 0 else draw(win(draw(st.integers(0, 24)) == 0)))
    rules = draw(st.sampled_from(BAD_RULES)) if draw(st.integers(0, 15)) == 0 else draw(rule_options())
    return {"ruleset": "hangzhou", "rules": rules, "first_dealer": draw(st.integers(0, 3)), "hands": hands}


@SETTINGS
@given(games())
def test_the_engine_scores_every_game_as_the_rules_document_reads(game):
    expected = oracle(game)
    ok, body = score_game_or_error(game)
    if isinstance(expected, tuple):
        assert not ok, (expected, body)
        assert body["error"]["hand"] == expected[1]
        assert body["error"]["message"]
        assert body["error"]["message_en"]
    else:
        assert ok, body
        assert contract_view(body) == expected


@SETTINGS
@given(games())
def test_nets_sum_to_zero_and_totals_are_their_sum(game):
    ok, body = score_game_or_error(game)
    if not ok:
        return
    running = [0, 0, 0, 0]
    for hand in body["hands"]:
        assert sum(hand["net"]) == 0
        paid = [0, 0, 0, 0]
        for p in hand["payments"]:
            assert p["amount"] > 0
            paid[p["from"]] -= p["amount"]
            paid[p["to"]] += p["amount"]
            assert f"2^{hand['fan']} 番" in p["explain"]
            assert f"2^{hand['fan']} fan" in p["explain_en"]
        assert paid == hand["net"]
        running = [a + b for a, b in zip(running, hand["net"], strict=True)]
    assert body["totals"] == running


@SETTINGS
@given(games(), st.data())
def test_scoring_a_prefix_gives_the_same_first_hands(game, data):
    ok, whole = score_game_or_error(game)
    cut = data.draw(st.integers(0, len(whole["hands"]) if ok else 0))
    prefix = score_game({**game, "hands": game["hands"][:cut]}) if ok else None
    if ok:
        assert prefix["hands"] == whole["hands"][:cut]

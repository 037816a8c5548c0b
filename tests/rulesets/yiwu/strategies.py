"""Hypothesis strategies: random rule options and random valid Yiwu games.

Valid hands are built from the replayed table state, so 买子, 下子, 飘 and 承包 entries are
the ones the rules allow at that point of the game.
"""

from hypothesis import strategies as st

from scoring.engine import score
from scoring.rulesets.yiwu.engine import PRESETS, WIN_TYPES, YIWU, Rules, TableState, parse_hand, parse_rules

NON_PIAO = [t for t in WIN_TYPES.values() if not t.piao_level]


@st.composite
def rule_options(draw) -> dict:
    options = dict(draw(st.sampled_from([PRESETS[name] for name in sorted(PRESETS)])))
    choices = {
        "maizi_buy": ["any_hand", "tenure_start"],
        "xiazi_amount": ["fixed", "up_to"],
        "xiazi_cap": [None, 2, 4, 8],
        "discarder_extra": ["plus1", "double"],
        "fanpei_factor": [1, 2],
        "shuangpiao_draw_mult": [2, 4],
        "shuangpiao_draw_includes_xiazi": [True, False],
        "multi_feeder": ["shared", "first"],
        "others_may_caishentou_after_shuangpiao": [True, False],
        "abandon_enabled": [True, False],
    }
    for name, values in choices.items():
        if draw(st.booleans()):
            options[name] = draw(st.sampled_from(values))
    return options


def _others(seat: int) -> list[int]:
    return [s for s in range(4) if s != seat]


@st.composite
def valid_hand(draw, rules: Rules, state: TableState) -> dict:
    hand: dict = {}
    if draw(st.integers(0, 4)) == 0:
        buys = draw(st.lists(st.booleans(), min_size=4, max_size=4)) if state.may_buy_maizi(rules) else [False] * 4
        hand["maizi"] = [int(held or buy) for held, buy in zip(state.maizi, buys, strict=True)]
    full = state.join_amount(rules)
    free = [s for s in range(4) if s != state.dealer and not state.xiazi[s]]
    if full and free and draw(st.booleans()):
        seats = draw(st.lists(st.sampled_from(free), unique=True, min_size=1))
        if rules.xiazi_amount == "up_to":
            hand["xiazi_join"] = {str(s): draw(st.integers(1, full)) for s in seats}
        else:
            hand["xiazi_join"] = seats
    piao = None
    if draw(st.integers(0, 3)) == 0:
        piao = {"player": draw(st.integers(0, 3)), "level": draw(st.sampled_from([1, 2]))}
        hand["piao"] = piao
        if draw(st.booleans()):
            hand["feeders"] = draw(st.lists(st.sampled_from(_others(piao["player"])), unique=True, min_size=1))
    kinds = ["win"] * 6 + ["draw"] + (["abandon"] if rules.abandon_enabled else [])
    outcome = draw(st.sampled_from(kinds))
    hand["outcome"] = outcome
    if outcome == "abandon":
        hand["leaver"] = draw(st.integers(0, 3))
    elif outcome == "win":
        hand.update(draw(_win(rules, piao)))
    return hand


@st.composite
def _win(draw, rules: Rules, piao: dict | None) -> dict:
    winner = draw(st.integers(0, 3))
    if piao and winner == piao["player"]:
        types = [t for t in WIN_TYPES.values() if t.piao_level == piao["level"]]
    elif piao and piao["level"] == 2:
        types = [
            t
            for t in NON_PIAO
            if t.code == "gangkai" or (rules.others_may_caishentou_after_shuangpiao and t.caishentou)
        ]
    elif piao:
        types = [t for t in NON_PIAO if not t.discard]
    else:
        types = NON_PIAO
    win_type = draw(st.sampled_from(types))
    win = {"winner": winner, "win_type": win_type.code}
    if win_type.discard:
        win["discarder"] = draw(st.sampled_from(_others(winner)))
    if draw(st.booleans()):
        if win_type.piao_level or win_type.caishentou or win_type.code == "gangkai":
            win["caishen"] = draw(st.integers(0, 3))
        elif not win_type.discard:
            win["caishen"] = draw(st.integers(0, 2))
        else:
            win["caishen"] = draw(st.integers(0, 1))
    return win


@st.composite
def valid_games(draw, max_hands: int = 30) -> dict:
    options = draw(rule_options())
    rules = parse_rules(options)
    first = draw(st.integers(0, 3))
    state = TableState(dealer=first)
    hands = []
    for _ in range(draw(st.integers(0, max_hands))):
        hand = draw(valid_hand(rules, state))
        score(YIWU, rules, state, parse_hand(hand))  # advance the state the next hand is drawn from
        hands.append(hand)
    return {"rules": options, "first_dealer": first, "hands": hands}


JUNK = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 20) | st.floats(allow_nan=False) | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=3),
    max_leaves=6,
)
FIELDS = ["outcome", "winner", "win_type", "discarder", "maizi", "xiazi_join", "piao", "feeders", "caishen", "leaver"]


@st.composite
def mangled_games(draw) -> dict:
    """A valid game with one hand's field replaced, added or dropped: often invalid."""
    game = draw(valid_games(max_hands=8))
    hands = game["hands"]
    if not hands or draw(st.integers(0, 5)) == 0:
        game[draw(st.sampled_from(["rules", "first_dealer", "players", "hands", "extra"]))] = draw(JUNK)
        return game
    hand = hands[draw(st.integers(0, len(hands) - 1))]
    name = draw(st.sampled_from([*FIELDS, "junk"]))
    if name in hand and draw(st.booleans()):
        del hand[name]
    else:
        hand[name] = draw(JUNK | st.integers(0, 3) | st.sampled_from(list(WIN_TYPES)))
    return game

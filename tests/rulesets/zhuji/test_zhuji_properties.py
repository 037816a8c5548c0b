"""Properties of 诸暨 scoring over random valid games (hypothesis), and mangled games that must give
the contract's error object, never another exception."""

from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.engine import score_game, score_game_or_error

SETTINGS = settings(max_examples=80, deadline=None)
DRAGONS = ["zhong", "fa", "bai"]
WINDS = ["dong", "nan", "xi", "bei"]


def expected_tai(tai: dict, winner: int, dealer: int) -> int:
    """docs/rules/zhuji.md §3, counted independently of the engine."""
    if tai.get("special"):
        return 8
    own = WINDS[(winner - dealer) % 4]
    winds = sum((2 if own == "dong" else 1) if w == "dong" else int(w == own) for w in tai.get("wind_pungs", []))
    shape = int(tai.get("shape", "mixed") != "mixed")
    flags = int(tai.get("hunyise", False)) + int(tai.get("qianggang", False))
    return len(tai.get("dragon_pungs", [])) + winds + shape + flags + tai.get("extra", 0)


@st.composite
def valid_hand(draw, dealer: int) -> dict:
    if draw(st.integers(0, 9)) == 0:
        return {"outcome": "draw"}
    winner = draw(st.integers(0, 3))
    special = draw(st.sampled_from([None] * 12 + ["tianhu", "dihu", "quanzi"]))
    if special == "tianhu":
        winner = dealer
    if special == "dihu" and winner == dealer:
        winner = (dealer + 1) % 4
    others = [s for s in range(4) if s != winner]
    discarder = draw(st.sampled_from([None, *others]))
    if special == "tianhu":
        discarder = None
    elif special == "dihu":
        discarder = dealer
    tai: dict = {}
    dragons = draw(st.lists(st.sampled_from(DRAGONS), unique=True, max_size=3))
    winds = draw(st.lists(st.sampled_from(WINDS), unique=True, max_size=3))
    if dragons:
        tai["dragon_pungs"] = dragons
    if winds:
        tai["wind_pungs"] = winds
    shapes = ["mixed", "duiduihu"] if dragons or winds or special == "quanzi" else ["mixed", "duiduihu", "pinghu"]
    shape = draw(st.sampled_from(shapes))
    if shape != "mixed" or draw(st.booleans()):
        tai["shape"] = shape
    for flag in ("hunyise", "no_caishen"):
        if draw(st.booleans()):
            tai[flag] = draw(st.booleans())
    if discarder is not None and draw(st.booleans()):
        tai["qianggang"] = True
    if discarder is None and draw(st.booleans()):
        tai["gangkai"] = True
    if draw(st.booleans()):
        tai["extra"] = draw(st.integers(0, 3))
    if special is not None or draw(st.booleans()):
        tai["special"] = special
    if expected_tai(tai, winner, dealer) == 0 and not tai.get("no_caishen") and not tai.get("gangkai"):
        tai["no_caishen"] = True  # §4 a 0-台 win needs 无财 or 杠开
    hand = {"outcome": "win", "winner": winner, "tai": tai}
    if discarder is not None:
        hand["discarder"] = discarder
    return hand


@st.composite
def valid_games(draw, max_hands: int = 25) -> dict:
    rules: dict = {}
    if draw(st.booleans()):
        rules["base"] = draw(st.integers(1, 100))
    if draw(st.booleans()):
        rules["tai_cap"] = draw(st.one_of(st.none(), st.integers(0, 10)))
    if draw(st.booleans()):
        rules["draw_passes_deal"] = draw(st.booleans())
    dealer = first = draw(st.integers(0, 3))
    hands = []
    for _ in range(draw(st.integers(0, max_hands))):
        hand = draw(valid_hand(dealer))
        hands.append(hand)
        won = hand["outcome"] == "win"
        if (won and hand["winner"] != dealer) or (not won and rules.get("draw_passes_deal")):
            dealer = (dealer + 1) % 4  # §2
    return {"ruleset": "zhuji", "rules": rules, "first_dealer": first, "hands": hands}


@SETTINGS
@given(valid_games())
def test_random_valid_games_nets_sum_to_zero_and_totals_are_the_sum_of_nets(game):
    result = score_game(game)
    rules = game["rules"]
    base, cap = rules.get("base", 1), rules.get("tai_cap")
    running = [0, 0, 0, 0]
    for entry, hand in zip(game["hands"], result["hands"], strict=True):
        assert sum(hand["net"]) == 0
        assert all((2 * n) == int(2 * n) for n in hand["net"])  # multiples of one half, exactly
        paid = [0, 0, 0, 0]
        for p in hand["payments"]:
            paid[p["from"]] -= p["amount"]
            paid[p["to"]] += p["amount"]
        assert paid == hand["net"]
        assert [(p["from"], p["to"]) for p in hand["payments"]] == sorted(
            (p["from"], p["to"]) for p in hand["payments"]
        )
        if entry["outcome"] == "win":
            raw = expected_tai(entry["tai"], entry["winner"], hand["dealer"])
            t = raw if cap is None else min(raw, cap)
            assert hand["tai"] == t
            for p in hand["payments"]:
                full = p["from"] == entry.get("discarder", p["from"])  # 自摸, or the discarder
                assert p["amount"] == (base * 2**t if full else base * 2**t / 2)
        else:
            assert (hand["tai"], hand["payments"]) == (0, [])
        running = [a + b for a, b in zip(running, hand["net"], strict=True)]
    assert result["totals"] == running


@SETTINGS
@given(valid_games(), st.data())
def test_a_prefix_replays_the_same_first_hands(game, data):
    cut = data.draw(st.integers(0, len(game["hands"])))
    whole = score_game(game)
    prefix = score_game({**game, "hands": game["hands"][:cut]})
    assert prefix["hands"] == whole["hands"][:cut]


JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 30) | st.floats(allow_nan=False) | st.text(max_size=6),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3),
    max_leaves=6,
)
HAND_KEYS = ["outcome", "winner", "discarder", "tai", "caishen"]
TAI_KEYS = ["dragon_pungs", "wind_pungs", "shape", "hunyise", "qianggang", "gangkai", "no_caishen", "special", "extra"]
GAME_KEYS = ["ruleset", "rules", "first_dealer", "players", "hands", "totals"]


@st.composite
def mangled_games(draw) -> dict:
    game = draw(valid_games(max_hands=8))
    how = draw(st.sampled_from(["hand", "tai", "game", "rule", "drop"]))
    hands = game["hands"]
    if how in ("hand", "tai", "drop") and hands:
        i = draw(st.integers(0, len(hands) - 1))
        hand = dict(hands[i])
        if how == "hand":
            hand[draw(st.sampled_from(HAND_KEYS))] = draw(JSON)
        elif how == "drop":
            hand.pop(draw(st.sampled_from(sorted(hand))))
        else:
            hand["tai"] = {**hand.get("tai", {}), draw(st.sampled_from(TAI_KEYS)): draw(JSON)}
        hands[i] = hand
    elif how == "rule":
        game["rules"] = {
            **game["rules"],
            draw(st.sampled_from(["base", "tai_cap", "draw_passes_deal", "x"])): draw(JSON),
        }
    else:
        game[draw(st.sampled_from(GAME_KEYS))] = draw(JSON)
    return game


@settings(max_examples=100, deadline=None)
@given(mangled_games())
def test_mangled_input_gives_the_contract_error_and_never_another_exception(game):
    ok, body = score_game_or_error(game)
    if ok:
        assert len(body["hands"]) == len(game["hands"])
        assert sum(body["totals"]) == 0
    else:
        error = body["error"]
        assert error["hand"] is None or 0 <= error["hand"] < len(game["hands"])
        assert error["message"]
        assert error["message_en"]

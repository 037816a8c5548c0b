"""Whatever a phone sends, the answer is a page or a message, never a server error."""

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoring.engine import all_rulesets
from scoring.models import AccessMiss, Game, Hand
from tests.helpers import game_url
from tests.speed import examples

FIELDS = [
    "outcome",
    "winner",
    "win_type",
    "discarder",
    "leaver",
    "maizi",
    "xz0",
    "xz1",
    "xz2",
    "xz3",
    "piao_player",
    "piao_level",
    "feeder1",
    "feeder2",
    "feeder3",
    "caishen",
    "dealer_fix",
    "streak_fix",
    "confirm",
    "next_seq",
    "form_token",
    "revision",
    "reason",
    "n0",
    "n1",
    "n2",
    "n3",
    "note",
    "extra",
    "streak_fix",
]
VALUES = st.one_of(
    st.sampled_from(
        [
            "",
            "0",
            "1",
            "2",
            "3",
            "4",
            "-1",
            "win",
            "draw",
            "abandon",
            "zimo",
            "pinghu",
            "danpiao",
            "shuangpiao",
            "x",
            "1e9",
            "１",
            "\u0663",  # Arabic-Indic 3
            "\u00b2",  # superscript 2: str.isdigit() but not int()
            "1e3",
            "NaN",
            "Infinity",
            "老\u202e王",
            "\ue000",
            "\x00",
        ]
    ),
    st.text(max_size=12),
)
FORMS = st.dictionaries(st.sampled_from(FIELDS), st.one_of(VALUES, st.lists(VALUES, max_size=3)), max_size=10)
SAFE = {200, 204, 302, 400, 403, 404, 405}


@settings(max_examples=examples(120), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    data=FORMS,
    path=st.sampled_from(["record", "hand/1/edit", "hand/1/void", "settle", "finish", "analyse", "me/3", "bet"]),
    method=st.sampled_from(["get", "post"]),
)
def test_random_form_input_never_breaks_the_server(client, one_hand_game, data, path, method):
    AccessMiss.objects.all().delete()  # one game for every example: start each under its budget of writes
    response = getattr(client, method)(game_url(one_hand_game) + path, data)
    assert response.status_code in SAFE
    assert Hand.objects.filter(game=one_hand_game).count() <= 2


@settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(body=st.one_of(st.text(max_size=40), st.binary(max_size=40)))
def test_random_bodies_to_the_json_doors_are_400s(client, db, body):
    AccessMiss.objects.all().delete()  # one database for every example: start each under the rate limit
    for url in ("/api/score", "/api/settle"):
        response = client.post(url, data=body, content_type="application/json")
        assert response.status_code in (200, 400)


# --- Hostile JSON at every JSON door: NaN and infinities, lone surrogates, bidi and control
# characters, private use, blank and repeated names, in every place a value or key can go. --------

HOSTILE_TEXT = ["\ud800", "\udfff", "老\u202e王", "\x00", "\ue000", "   ", "\u2028", "\u200b", "甲", "x" * 50]
CONTRACT_KEYS = ["outcome", "winner", "win_type", "discarder", "net", "note", "dealer", "patterns", "tai", "fan"]
KEYS = st.sampled_from(CONTRACT_KEYS + HOSTILE_TEXT)
LEAVES = st.one_of(
    st.sampled_from(HOSTILE_TEXT),
    st.floats(allow_nan=True, allow_infinity=True),
    st.integers(-3, 5),
    st.booleans(),
    st.none(),
    st.sampled_from(["win", "draw", "manual", "zimo", "pinghu", "qingyise"]),
)
VALUES_ = st.one_of(LEAVES, st.lists(LEAVES, max_size=4), st.dictionaries(KEYS, LEAVES, max_size=3))
MANUAL = st.fixed_dictionaries({"outcome": st.just("manual"), "net": st.lists(LEAVES, min_size=2, max_size=4)}).map(
    lambda hand: {**hand, "note": "x"}
)
HANDS = st.one_of(MANUAL, st.dictionaries(KEYS, VALUES_, max_size=5))
GAMES = st.fixed_dictionaries(
    {"hands": st.lists(HANDS, max_size=3)},
    optional={
        "ruleset": st.sampled_from([r.code for r in all_rulesets()]),
        "players": st.one_of(st.lists(st.sampled_from(HOSTILE_TEXT), min_size=2, max_size=4), st.just(["甲", "乙"])),
        "rules": st.dictionaries(st.sampled_from(["fan", "base", *HOSTILE_TEXT]), VALUES_, max_size=2),
        "first_dealer": LEAVES,
    },
)
SETTLES = st.fixed_dictionaries(
    {"balances": st.dictionaries(st.sampled_from(HOSTILE_TEXT), LEAVES, max_size=4), "rate_fen": LEAVES}
)
ANALYSES = st.fixed_dictionaries(
    {"tiles": st.lists(st.sampled_from(["1m", "5s", "E", *HOSTILE_TEXT]), max_size=14), "flip": LEAVES},
    optional={"melded": LEAVES, "last": LEAVES, "\ud800": LEAVES},
)
BODIES = st.one_of(
    st.tuples(st.just("/api/score"), GAMES),
    st.tuples(st.just("/api/settle"), SETTLES),
    st.tuples(st.just("/api/analyse"), ANALYSES),
)


@settings(max_examples=examples(400), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(door_body=BODIES)
def test_hostile_json_at_the_api_doors_is_a_json_answer_never_a_500(client, db, door_body):
    AccessMiss.objects.all().delete()
    door, body = door_body
    response = client.post(door, json.dumps(body), content_type="application/json")  # NaN, \ud800 as JSON writes them
    assert response.status_code in (200, 400)
    assert response.json()


@settings(max_examples=examples(200), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(game=GAMES)
def test_a_hostile_backup_is_refused_or_makes_a_game_every_page_can_show(client, db, game):
    AccessMiss.objects.all().delete()
    response = client.post("/import", {"text": json.dumps(game)})
    assert response.status_code in (302, 400)
    assert Game.objects.exists() == (response.status_code == 302)
    url = response.get("Location", "/")  # a refused file: the pages of no game
    for page in ("", "poll?v=0", "summary", "settle", "export.csv", "export.json", "chart", "hand/1/edit"):
        assert client.get(url + page).status_code in (200, 204, 302, 404), page
    for page in ("/", "/history", "/stats"):
        assert client.get(page).status_code == 200, page
    Game.objects.all().delete()

"""Whatever a phone sends, the answer is a page or a message, never a server error."""

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoring.models import AccessMiss, Hand
from tests.speed import examples
from tests.web.helpers import game_url

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
        ]
    ),
    st.text(max_size=12),
)
FORMS = st.dictionaries(st.sampled_from(FIELDS), st.one_of(VALUES, st.lists(VALUES, max_size=3)), max_size=10)
SAFE = {200, 204, 302, 400, 403, 404, 405}


@settings(max_examples=examples(120), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    data=FORMS,
    path=st.sampled_from(["record", "hand/1/edit", "hand/1/void", "settle", "finish"]),
    method=st.sampled_from(["get", "post"]),
)
def test_random_form_input_never_breaks_the_server(client, one_hand_game, data, path, method):
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

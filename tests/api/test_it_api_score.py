import json

import pytest
from django.test import Client

from tests.examples import check, game_examples, load

# The doors count anonymous requests in the database (the rate limit, scoring/access.py).
pytestmark = pytest.mark.django_db

URL = "/api/score"


def post(client: Client, body, content_type="application/json"):
    data = body if isinstance(body, (str, bytes)) else json.dumps(body)
    return client.post(URL, data=data, content_type=content_type)


@pytest.mark.parametrize("path", game_examples(), ids=lambda p: f"{p.parent.name}-{p.stem}")
def test_api_matches_spec_example(client, path):
    example = load(path)
    response = post(client, example["game"])
    assert response.status_code in (200, 400)
    check(example["expect"], response.status_code == 200, response.json())


def test_api_needs_no_csrf_token():
    client = Client(enforce_csrf_checks=True)
    response = post(client, {"hands": []})
    assert response.status_code == 200
    assert response.json() == {"hands": [], "totals": [0, 0, 0, 0]}


def test_api_answers_chinese_unescaped():
    response = post(Client(), {"hands": [{"outcome": "win", "winner": 1, "win_type": "pinghu"}]})
    assert response.status_code == 400
    assert "放铳" in response.content.decode("utf-8")


@pytest.mark.parametrize("body", ["{", "not json", b"\xff\xfe", ""])
def test_malformed_json_is_a_clear_400(client, body):
    response = post(client, body)
    assert response.status_code == 400
    error = response.json()["error"]
    assert error["hand"] is None
    assert "JSON" in error["message"]


@pytest.mark.parametrize(
    ("game", "field"),
    [
        ({"hands": [], "colour": "red"}, "colour"),
        ({"hands": [], "rules": {"base_dealerz": 7}}, "base_dealerz"),
        ({"hands": [], "rules": {"base_dealer": "7"}}, "base_dealer"),
        ({"hands": [], "rules": {"base_dealer": True}}, "base_dealer"),
        ({"hands": [], "rules": {"maizi_buy": "sometimes"}}, "maizi_buy"),
        ({"hands": [], "first_dealer": 4}, "first_dealer"),
        ({"hands": {}}, "hands"),
        ([], "game"),
    ],
)
def test_unknown_fields_rules_and_wrong_types_are_game_errors(client, game, field):
    response = post(client, game)
    assert response.status_code == 400
    error = response.json()["error"]
    assert error["hand"] is None
    assert error["field"] == field
    assert error["message"]
    assert error["message_en"]


def test_unknown_field_inside_a_hand_is_an_error_for_that_hand(client):
    hands = [{"outcome": "draw"}, {"outcome": "draw", "flowers": 2}]
    response = post(client, {"hands": hands})
    assert response.status_code == 400
    assert response.json()["error"]["hand"] == 1
    assert "flowers" in response.json()["error"]["message"]


def test_body_over_the_limit_is_refused(client, settings):
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 1000
    response = post(client, {"hands": [{"outcome": "draw"}] * 100})
    assert response.status_code == 400
    assert "太大" in response.json()["error"]["message"]


def test_get_is_not_allowed(client):
    response = client.get(URL)
    assert response.status_code == 405
    assert response.json()["error"]["message"]

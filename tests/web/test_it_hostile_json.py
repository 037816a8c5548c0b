"""JSON built to break the parser (deep nesting, huge integers) answers 400, never 500."""

import json

import pytest

from scoring.models import Game

DEEP = "[" * 100_000
HUGE_INT = '{"hands": [], "first_dealer": ' + "9" * 5000 + "}"
DOORS = ["/api/score", "/api/settle"]


@pytest.mark.parametrize("door", DOORS)
@pytest.mark.parametrize("body", [DEEP, HUGE_INT, '{"a": ' + "[" * 5000 + "]" * 5000 + "}"])
def test_hostile_json_to_the_json_doors_is_a_400_with_an_error(client, db, door, body):
    response = client.post(door, body, content_type="application/json")
    assert response.status_code == 400
    error = response.json()["error"]
    assert error["message"]
    assert error["message_en"]


def test_deep_nesting_is_named_in_the_message(client, db):
    error = client.post("/api/score", DEEP, content_type="application/json").json()["error"]
    assert "嵌套" in error["message"]
    assert "nested" in error["message_en"]


@pytest.mark.parametrize("body", [DEEP, HUGE_INT])
def test_hostile_json_to_the_import_form_is_a_form_error(client, db, body):
    response = client.post("/import", {"text": body})
    assert response.status_code == 400
    assert "JSON" in response.content.decode()
    assert not Game.objects.exists()


@pytest.mark.parametrize("points", [10**300, 10**12, -(10**12)])
def test_settle_refuses_balances_of_a_trillion_points_or_more(client, db, points):
    body = {"balances": {"甲": points, "乙": -points}, "rate_fen": 100}
    response = client.post("/api/settle", json.dumps(body), content_type="application/json")
    assert response.status_code == 400
    assert response.json()["error"]["field"] == "balances"


def test_settle_still_takes_balances_just_under_a_trillion(client, db):
    points = 10**12 - 1
    body = {"balances": {"甲": points, "乙": -points}, "rate_fen": 100}
    response = client.post("/api/settle", json.dumps(body), content_type="application/json")
    assert response.status_code == 200
    assert response.json()["transfers"] == [{"from": "乙", "to": "甲", "amount_fen": points * 100}]


def test_import_of_more_than_2000_hands_is_refused_with_a_clear_message(client, db):
    backup = {"hands": [{"outcome": "draw"}] * 2001}
    response = client.post("/import", {"text": json.dumps(backup)})
    assert response.status_code == 400
    assert "最多 2000 局" in response.content.decode()
    assert not Game.objects.exists()

"""JSON built to break the parser (deep nesting, huge integers) answers 400, never 500."""

import json

import pytest

from scoring.models import Game
from tests.helpers import manage

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


# --- Numbers JSON cannot hold, and lone UTF-16 surrogates, at every JSON door ---------------------

HAND = ["1m", "2m", "3m", "4m", "5m", "6m", "7p", "8p", "9p", "2s", "3s", "4s", "5s", "5s"]
NON_FINITE = ["NaN", "Infinity", "-Infinity", "1e400", "-1e400"]
ZHUJI_MANUAL = '{"ruleset": "zhuji", "hands": [{"outcome": "manual", "net": [%s, 0, 0, 0], "note": "x"}]}'
# One body per door, with %s where the hostile number goes.
NUMBER_BODIES = {
    "/api/score": ZHUJI_MANUAL,
    "/api/settle": '{"balances": {"甲": %s, "乙": 0}, "rate_fen": 100}',
    "/api/analyse": '{"tiles": ["1m"], "flip": "E", "melded": %s}',
}
LONE = "\ud800"  # half of a UTF-16 pair: no UTF-8 text can hold it, so no page or JSON can show it
# What reached the engine's messages raw: an unknown key, a pattern code, a 番 table key, a name.
SURROGATE_GAMES = [
    {"hands": [], LONE: 1},
    {"ruleset": "wuyi2", "hands": [{"outcome": "win", "winner": 0, "discarder": 1, "patterns": [LONE]}]},
    {"ruleset": "wuyi2", "rules": {"fan": {LONE: 3}}, "hands": []},
    {"players": [LONE, "乙", "丙", "丁"], "hands": []},
    {"hands": [{"outcome": "win", "winner": 0, "win_type": "zimo", LONE: 1}]},
]
SURROGATE_BODIES = [
    *(("/api/score", game) for game in SURROGATE_GAMES),
    ("/api/settle", {"balances": {LONE: 1, "乙": -1}, "rate_fen": 100}),
    ("/api/settle", {"balances": {"甲": 1, "乙": -1}, "rate_fen": 100, LONE: 0}),
    ("/api/analyse", {"tiles": HAND, "flip": "E", LONE: True}),
    ("/api/analyse", {"tiles": [*HAND[:13], LONE], "flip": "E"}),
]


def refused_as_unreadable(response) -> dict:
    assert response.status_code == 400
    error = response.json()["error"]
    assert error["message"]
    assert error["message_en"]
    return error


@pytest.mark.parametrize("number", NON_FINITE)
@pytest.mark.parametrize("door", NUMBER_BODIES)
def test_nan_infinity_and_overflowing_numbers_are_refused_at_every_api_door(client, db, door, number):
    response = client.post(door, NUMBER_BODIES[door] % number, content_type="application/json")
    error = refused_as_unreadable(response)
    assert "有限" in error["message"]
    assert "finite" in error["message_en"]


@pytest.mark.parametrize("number", NON_FINITE)
def test_an_imported_nan_is_a_form_error_and_no_game(client, db, number):
    response = client.post("/import", {"text": ZHUJI_MANUAL % number})
    assert response.status_code == 400
    assert "有限" in response.content.decode()
    assert not Game.objects.exists()


@pytest.mark.parametrize(("door", "body"), SURROGATE_BODIES)
def test_a_lone_surrogate_is_refused_at_every_api_door_and_never_echoed(client, db, door, body):
    response = client.post(door, json.dumps(body), content_type="application/json")
    error = refused_as_unreadable(response)
    assert "代理" in error["message"]
    assert "surrogate" in error["message_en"]
    assert "\\ud800" in response.content.decode()  # named by its escape, not echoed raw


@pytest.mark.parametrize("game", SURROGATE_GAMES)
def test_a_lone_surrogate_in_a_backup_is_a_form_error_and_no_game(client, db, game):
    response = client.post("/import", {"text": json.dumps(game)})
    assert response.status_code == 400
    assert "代理" in response.content.decode()
    assert not Game.objects.exists()


def test_a_manual_amount_at_the_edge_of_float_is_refused_not_a_crash(client, db):
    response = client.post("/api/score", ZHUJI_MANUAL % "1.7e308", content_type="application/json")
    assert refused_as_unreadable(response)["field"] == "net"


@pytest.mark.parametrize("body", ['{"a": 1, "a": 2}', '{"balances": {"甲": 1, "甲": -1, "乙": 0}, "rate_fen": 100}'])
def test_a_repeated_key_is_refused_not_silently_dropped(client, db, body):
    for door in DOORS:
        error = refused_as_unreadable(client.post(door, body, content_type="application/json"))
        assert "重复" in error["message"]


COMMAND_BODIES = [
    ("score_game", ZHUJI_MANUAL % "NaN", "finite"),
    ("score_game", ZHUJI_MANUAL % "1e400", "finite"),
    ("score_game", json.dumps({"hands": [], LONE: 1}), "surrogate"),
    ("score_game", json.dumps(SURROGATE_GAMES[1]), "surrogate"),
    ("analyse_hand", '{"tiles": ["1m"], "flip": "E", "melded": Infinity}', "finite"),
    ("analyse_hand", json.dumps({"tiles": HAND, "flip": "E", LONE: True}), "surrogate"),
]


@pytest.mark.parametrize(("command", "body", "said"), COMMAND_BODIES)
def test_both_commands_exit_2_with_the_error_json_not_a_traceback(tmp_path, command, body, said):
    request = tmp_path / "request.json"
    request.write_text(body, encoding="utf-8")
    proc = manage(command, str(request), env={"DJANGO_DEBUG": "1"})
    assert proc.returncode == 2, proc.stderr
    assert "Traceback" not in proc.stderr
    assert said in json.loads(proc.stdout)["error"]["message_en"]

"""The two 算牌 doors, ``POST /api/analyse`` and ``manage.py analyse_hand``, give the same JSON."""

import io
import json
from io import StringIO

import pytest
from django.core.management import call_command
from django.test import Client

from tests.examples import analyse_examples, example_id, load

pytestmark = pytest.mark.django_db  # the doors count anonymous requests in the database
URL = "/api/analyse"
HAND = ["1m", "2m", "3m", "4m", "5m", "6m", "7p", "8p", "9p", "2s", "3s", "4s", "5s", "5s"]


def post(client: Client, body, content_type="application/json"):
    data = body if isinstance(body, (str, bytes)) else json.dumps(body)
    return client.post(URL, data=data, content_type=content_type)


def run_command(path) -> tuple[int, dict]:
    out = StringIO()
    try:
        call_command("analyse_hand", str(path), stdout=out)
        code = 0
    except SystemExit as exit_:
        code = exit_.code
    return code, json.loads(out.getvalue())


def check(expect: dict, ok: bool, body: dict) -> None:
    if "error" in expect:
        assert not ok, body
        assert body["error"]["message"]
        assert body["error"]["hand"] is None
    else:
        assert ok, body
        assert body == expect


@pytest.mark.parametrize("path", analyse_examples(), ids=example_id)
def test_api_matches_spec_example(client, path):
    example = load(path)
    response = post(client, example["request"])
    assert response.status_code in (200, 400)
    check(example["expect"], response.status_code == 200, response.json())


@pytest.mark.parametrize("path", analyse_examples(), ids=example_id)
def test_command_matches_spec_example(path, tmp_path):
    example = load(path)
    request_file = tmp_path / "request.json"
    request_file.write_text(json.dumps(example["request"], ensure_ascii=False), encoding="utf-8")
    code, body = run_command(request_file)
    assert code in (0, 2)
    check(example["expect"], code == 0, body)


def test_api_needs_no_csrf_token():
    response = post(Client(enforce_csrf_checks=True), {"tiles": HAND, "flip": "E", "self_drawn": True})
    assert response.status_code == 200
    assert response.json() == {"complete": True, "caishen": 0, "win_type": "zimo"}


def test_api_refuses_get(client):
    assert client.get(URL).status_code == 405


@pytest.mark.parametrize("body", ["{", "not json", b"\xff\xfe", ""])
def test_malformed_json_is_a_clear_400(client, body):
    response = post(client, body)
    assert response.status_code == 400
    assert "JSON" in response.json()["error"]["message"]


def test_deep_nesting_is_a_400_not_a_crash(client):
    deep = "[" * 5000 + "]" * 5000  # under the 16 KB bound, far over the parser's recursion limit
    response = post(client, deep)
    assert response.status_code == 400
    assert "JSON" in response.json()["error"]["message"]


def test_huge_body_is_refused(client):
    response = post(client, {"tiles": HAND, "flip": "E", "pad": "x" * 20_000})
    assert response.status_code == 400
    assert "16 KB" in response.json()["error"]["message"]


@pytest.mark.parametrize(
    ("request_", "field"),
    [
        ({"tiles": HAND * 2, "flip": "E"}, "tiles"),
        ({"tiles": HAND, "flip": "E", "colour": "red"}, "colour"),
        ({"tiles": HAND, "flip": "X"}, "flip"),
        ({"tiles": HAND}, "flip"),
        ({"tiles": HAND, "flip": "E", "ruleset": "riichi"}, "ruleset"),
        ({"tiles": [*HAND[:13], "0m"], "flip": "E"}, "tiles"),
        ({"tiles": HAND[:13], "flip": "E", "last": "1m"}, "last"),
        ({"tiles": HAND, "flip": "E", "self_drawn": "yes"}, "self_drawn"),
        ({"tiles": HAND, "flip": "E", "melded": 5}, "melded"),
        ({"tiles": HAND, "flip": "E", "robbing_kong": True, "self_drawn": True}, "robbing_kong"),
        ({"tiles": HAND, "flip": "E", "dealer": True, "seat_wind": "S"}, "seat_wind"),
        ({"tiles": HAND, "flip": "E", "seat_wind": "E"}, "seat_wind"),
        ({"tiles": HAND, "flip": "E", "first_round": "tianhu", "dealer": True, "self_drawn": True}, "first_round"),
        ({"tiles": HAND, "flip": "E", "ruleset": "zhuji", "first_round": "tianhu"}, "first_round"),
        ([], None),
    ],
)
def test_bad_requests_are_400_with_the_field(client, request_, field):
    response = post(client, request_)
    assert response.status_code == 400
    error = response.json()["error"]
    assert error["message"]
    assert error["message_en"]
    assert error["field"] == field


def test_over_14_tiles_has_a_clear_message(client):
    response = post(client, {"tiles": ["1m"] * 15, "flip": "E"})
    assert response.status_code == 400
    assert "14" in response.json()["error"]["message"]


def test_command_reads_standard_input(monkeypatch):
    request = {"tiles": HAND, "flip": "E"}
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(json.dumps(request).encode())))
    assert run_command("-") == (0, {"complete": True, "caishen": 0, "win_type": "pinghu"})


def test_command_exits_2_on_bad_input(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text("{oops", encoding="utf-8")
    code, body = run_command(bad)
    assert code == 2
    assert "JSON" in body["error"]["message"]
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 5000 + "]" * 5000, encoding="utf-8")
    assert run_command(deep)[0] == 2
    big = tmp_path / "big.json"
    big.write_text(json.dumps({"tiles": HAND, "flip": "E", "pad": "x" * 20_000}), encoding="utf-8")
    code, body = run_command(big)
    assert code == 2
    assert "16 KB" in body["error"]["message"]
    code, body = run_command(tmp_path / "missing.json")
    assert code == 2
    assert body["error"]["message"]

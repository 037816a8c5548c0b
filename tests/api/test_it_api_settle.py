import json

import pytest
from django.test import Client

# The doors count anonymous requests in the database (the rate limit, scoring/access.py).
pytestmark = pytest.mark.django_db

URL = "/api/settle"
GREEDY_TRAP = {"老王": -10, "小李": -3, "阿华": -3, "大刘": 6, "Eve": 5, "Bob": 5}


def post(client: Client, body, content_type="application/json"):
    data = body if isinstance(body, (str, bytes)) else json.dumps(body)
    return client.post(URL, data=data, content_type=content_type)


def test_fewest_transfers_in_fen_summing_exactly_per_person(client):
    response = post(client, {"balances": GREEDY_TRAP, "rate_fen": 50})
    assert response.status_code == 200
    transfers = response.json()["transfers"]
    assert len(transfers) == 4
    net = dict.fromkeys(GREEDY_TRAP, 0)
    for t in transfers:
        assert t["amount_fen"] > 0
        net[t["from"]] -= t["amount_fen"]
        net[t["to"]] += t["amount_fen"]
    assert net == {name: points * 50 for name, points in GREEDY_TRAP.items()}


def test_chinese_names_round_trip_unescaped(client):
    response = post(client, {"balances": {"老王": -3, "小李": 3}, "rate_fen": 100})
    assert response.status_code == 200
    assert response.json() == {"transfers": [{"from": "老王", "to": "小李", "amount_fen": 300}], "fewest": True}
    text = response.content.decode("utf-8")
    assert "老王" in text
    assert "\\u" not in text


def test_needs_no_csrf_token():
    response = post(Client(enforce_csrf_checks=True), {"balances": {"a": 1, "b": -1}, "rate_fen": 1})
    assert response.status_code == 200
    assert response.json() == {"transfers": [{"from": "b", "to": "a", "amount_fen": 1}], "fewest": True}


def test_all_zero_balances_need_no_transfers(client):
    response = post(client, {"balances": {"a": 0, "b": 0}, "rate_fen": 1})
    assert response.status_code == 200
    assert response.json() == {"transfers": [], "fewest": True}


SIXTEEN = {f"p{i}": (1 if i % 2 else -1) for i in range(16)}  # an evening's people at most (the setting)
SEVENTEEN = {**SIXTEEN, "p16": 0}


def test_an_evenings_sixteen_people_are_allowed(client):
    response = post(client, {"balances": SIXTEEN, "rate_fen": 1})
    assert response.status_code == 200
    assert len(response.json()["transfers"]) == 8
    assert response.json()["fewest"] is True  # eight exact opposites: paired off, still the fewest


def test_sixteen_people_past_the_exact_search_are_settled_and_say_they_may_not_be_the_fewest(client):
    values = [3**i for i in range(15)]
    balances = {f"p{i}": v for i, v in enumerate([*values, -sum(values)])}
    response = post(client, {"balances": balances, "rate_fen": 1})
    assert response.status_code == 200
    body = response.json()
    assert body["fewest"] is False
    assert len(body["transfers"]) == 15
    net = dict.fromkeys(balances, 0)
    for t in body["transfers"]:
        net[t["from"]] -= t["amount_fen"]
        net[t["to"]] += t["amount_fen"]
    assert net == balances


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"rate_fen": 100}, "balances"),
        ({"balances": {"a": 0}, "rate_fen": 100}, "balances"),
        ({"balances": SEVENTEEN, "rate_fen": 100}, "balances"),
        ({"balances": [["a", 1], ["b", -1]], "rate_fen": 100}, "balances"),
        ({"balances": {"a": 2, "b": -1}, "rate_fen": 100}, "balances"),
        ({"balances": {"a": 1.0, "b": -1}, "rate_fen": 100}, "balances"),
        ({"balances": {"a": 1.5, "b": -1.5}, "rate_fen": 100}, "balances"),
        ({"balances": {"a": True, "b": -1}, "rate_fen": 100}, "balances"),
        ({"balances": {"a": "1", "b": -1}, "rate_fen": 100}, "balances"),
        ({"balances": {"a": None, "b": 0}, "rate_fen": 100}, "balances"),
        ({"balances": {"": 1, "b": -1}, "rate_fen": 100}, "balances"),
        ({"balances": {"   ": 1, "b": -1}, "rate_fen": 100}, "balances"),
        ({"balances": {"x" * 41: 1, "b": -1}, "rate_fen": 100}, "balances"),
        ({"balances": {"a": 1, "b": -1}}, "rate_fen"),
        ({"balances": {"a": 1, "b": -1}, "rate_fen": 0}, "rate_fen"),
        ({"balances": {"a": 1, "b": -1}, "rate_fen": -5}, "rate_fen"),
        ({"balances": {"a": 1, "b": -1}, "rate_fen": "100"}, "rate_fen"),
        ({"balances": {"a": 1, "b": -1}, "rate_fen": 1.5}, "rate_fen"),
        ({"balances": {"a": 1, "b": -1}, "rate_fen": True}, "rate_fen"),
        ({"balances": {"a": 1, "b": -1}, "rate_fen": 1_000_001}, "rate_fen"),
        ({"balances": {"a": 1, "b": -1}, "rate_fen": 100, "currency": "CNY"}, "currency"),
        ([], "body"),
        ("null", "body"),
    ],
)
def test_bad_input_is_a_400_naming_the_field(client, body, field):
    response = post(client, body)
    assert response.status_code == 400
    error = response.json()["error"]
    assert error["hand"] is None
    assert error["field"] == field
    assert error["message"]
    assert error["message_en"]


@pytest.mark.parametrize("body", ["{", "not json", b"\xff\xfe", ""])
def test_malformed_json_is_a_clear_400(client, body):
    response = post(client, body)
    assert response.status_code == 400
    assert "JSON" in response.json()["error"]["message"]


def test_messages_say_what_is_wrong_in_both_languages(client):
    error = post(client, {"balances": {"a": 2, "b": -1}, "rate_fen": 100}).json()["error"]
    assert "合计" in error["message"]
    assert "sum to 0" in error["message_en"]


def test_get_is_not_allowed(client):
    response = client.get(URL)
    assert response.status_code == 405
    assert response.json()["error"]["message"]

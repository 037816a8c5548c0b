"""武义二人 at the table: two tiles, the fast path, pattern chips with reasons, edit/void."""

import json
import re

from scoring.engine import score_game
from scoring.models import Game, Hand
from tests.web.helpers import game_url, record, totals_on_page, version_of


def test_new_game_for_two_asks_two_names(client, db):
    html = client.get("/new?ruleset=wuyi2").content.decode()
    assert 'name="name1"' in html
    assert 'name="name2"' not in html
    client.post(
        "/new",
        {
            "ruleset": "wuyi2",
            "name0": "甲",
            "name1": "乙",
            "first_dealer": "1",
            "preset": "1分",
            "dealer_double": "payer",
            "fan": "qingyise=3",
        },
    )
    game = Game.objects.get()
    assert (game.ruleset, game.players, game.first_dealer) == ("wuyi2", ["甲", "乙"], 1)
    assert game.rules["dealer_double"] == "payer"
    assert game.rules["fan"] == {"qingyise": 3}


def test_the_game_page_shows_two_tiles(client, wuyi2_game):
    html = client.get(game_url(wuyi2_game)).content.decode()
    assert totals_on_page(html) == ["0", "0"]


def test_discard_is_one_tap_and_the_sheet_shows_fan_and_amount(client, wuyi2_game):
    url = game_url(wuyi2_game) + "record"
    html = client.get(url + "?winner=1").content.decode()
    assert "自摸还是放铳" in html
    assert "discarder=0" in html
    response = client.get(url + "?winner=1&discarder=0")
    assert [row[3] for row in response.context["change"]] == [-4, 4]  # 2^0 · 2 放铳 · 2 庄
    response = client.post(url, {"winner": "1", "discarder": "0", "shape": "qidui_baotou", "next_seq": "1"})
    assert [row[3] for row in response.context["change"]] == [-32, 32]  # 2^3 · 2 · 2
    assert "阿芳 3番 · 老王放铳" in response.content.decode()


def test_a_chip_that_cannot_join_is_disabled_with_the_reason(client, wuyi2_game):
    response = client.post(
        game_url(wuyi2_game) + "record", {"winner": "1", "discarder": "0", "shape": "qidui", "next_seq": "1"}
    )
    chips = {c["code"]: c for g in response.context["groups"] for c in g["chips"]}
    assert chips["caishentou"]["disabled"]  # a 财神 pattern only goes with 平胡 or 碰碰胡
    assert chips["caishentou"]["reason"]
    assert "§" not in chips["caishentou"]["reason"]
    assert chips["gangkai"]["disabled"]  # 杠开 is self-drawn only
    assert not chips["qingyise"]["disabled"]
    assert re.search(r'id="pt-caishentou"\s+disabled', response.content.decode())


def test_an_evening_replays_and_exports_to_the_same_totals(client, wuyi2_game):
    record(client, wuyi2_game, {"outcome": "win", "winner": 0, "patterns": ["pinghu"]})  # 自摸: 2 · 2 = 4
    record(
        client, wuyi2_game, {"outcome": "win", "winner": 1, "discarder": 0, "patterns": ["pengpenghu", "qingyise"]}
    )  # 2^3 · 2 · 2 = 32
    record(client, wuyi2_game, {"outcome": "draw"})
    assert Hand.objects.count() == 3
    client.post(
        game_url(wuyi2_game) + "hand/1/edit",
        {"outcome": "win", "winner": "0", "zimo": "on", "shape": "pengpenghu", "revision": "0", "confirm": "1"}
        | {"version": version_of(wuyi2_game)},
    )
    client.post(
        game_url(wuyi2_game) + "hand/3/void", {"version": version_of(wuyi2_game), "reason": "记错了", "revision": "0"}
    )
    exported = json.loads(client.get(game_url(wuyi2_game) + "export.json").content)
    assert exported["ruleset"] == "wuyi2"
    assert len(exported["hands"]) == 2
    assert score_game(exported)["totals"] == [8 - 32, 32 - 8]  # 2^(1+1) · 2 = 8 for the edited 自摸
    html = client.get(game_url(wuyi2_game)).content.decode()
    assert totals_on_page(html) == ["−24", "+24"]

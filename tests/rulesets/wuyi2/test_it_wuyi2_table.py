"""武义二人 at the table: two tiles, the fast path, pattern chips with reasons, edit/void."""

import json
import re

from scoring.engine import score_game
from scoring.models import Game, Hand
from scoring.rulesets.wuyi2.engine import PATTERNS
from tests.factories import add_hand
from tests.helpers import game_url, totals_on_page, version_of


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
            "fan__qingyise": "3",
        },
    )
    game = Game.objects.get()
    assert (game.ruleset, game.players, game.first_dealer) == ("wuyi2", ["甲", "乙"], 1)
    assert game.rules["dealer_double"] == "payer"
    assert game.rules["fan"] == {"qingyise": 3}


def test_the_fan_table_is_one_number_per_pattern_named_in_chinese(client, db):
    """番数表 on the new-game form: a number input per pattern (自摸 too), labelled with its
    Chinese name and holding the standard 番; only the changed ones are stored, as before."""
    response = client.get("/new?ruleset=wuyi2")
    html = response.content.decode()
    for pattern in PATTERNS:
        field = re.search(rf'<input type="number" name="fan__{pattern.code}" value="(\d+)"[^>]*id="([^"]+)"', html)
        assert field, pattern.code
        assert field[1] == str(pattern.fan)
        assert re.search(rf'<label\s+for="{field[2]}"[^>]*>\s*{pattern.zh}\s*<', html), pattern.zh
    assert "qingyise=3" not in html
    form = {"ruleset": "wuyi2", "name0": "甲", "name1": "乙", "first_dealer": "0", "preset": "1分"}
    form.update({f"fan__{p.code}": str(p.fan) for p in PATTERNS})
    client.post("/new", {**form, "fan__qingyise": "5", "fan__zimo": "0", "dealer_double": "both"})
    assert Game.objects.get().rules["fan"] == {"qingyise": 5, "zimo": 0}
    rules = client.get(game_url(Game.objects.get()) + "rules").content.decode()
    assert "清一色 5" in rules
    assert re.search(r'<td>清一色</td><td class="text-end">5</td>', rules)  # the 番 table at this game's 番
    assert "自摸 0" in rules


def test_a_fan_out_of_range_is_refused_on_its_field_and_nothing_is_created(client, db):
    form = {"ruleset": "wuyi2", "name0": "甲", "name1": "乙", "first_dealer": "0", "preset": "1分"}
    response = client.post("/new", {**form, "dealer_double": "both", "fan__qingyise": "21"})
    assert response.status_code == 200
    assert not Game.objects.exists()
    assert response.context["form"].errors["fan__qingyise"]


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
    add_hand(wuyi2_game, {"outcome": "win", "winner": 0, "patterns": ["pinghu"]})  # 自摸: 2 · 2 = 4
    add_hand(
        wuyi2_game, {"outcome": "win", "winner": 1, "discarder": 0, "patterns": ["pengpenghu", "qingyise"]}
    )  # 2^3 · 2 · 2 = 32
    add_hand(wuyi2_game, {"outcome": "draw"})
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

"""A name cannot reorder the numbers beside it: direction and control characters are refused,
and every name is isolated in <bdi> where it sits next to numbers."""

import re

import pytest

from scoring.models import Game, Hand
from tests.factories import add_hand, finish
from tests.helpers import game_url, version_of

RLO = "\u202e"  # RIGHT-TO-LEFT OVERRIDE: 庄7 × 2 = 14 would read 41 = 2 × 7庄
NEW_GAME = {"name0": "老王", "name1": "小李", "name2": "阿华", "name3": "大刘", "first_dealer": "0", "preset": "7/5"}


@pytest.mark.parametrize("bad", ["\u202a", "\u202e", "\u2066", "\u2069", "\u200e", "\u200f", "\x07", "\x1b"])
def test_a_new_game_refuses_names_with_direction_or_control_characters(client, db, bad):
    response = client.post("/new", {**NEW_GAME, "name1": f"小{bad}李"})
    assert response.status_code == 200
    assert "不能包含控制字符或文字方向字符" in response.content.decode()
    assert not Game.objects.exists()


def test_a_void_reason_with_a_direction_character_is_refused(client, game):
    add_hand(game, {"outcome": "draw"})
    response = client.post(
        game_url(game) + "hand/1/void", {"version": version_of(game), "reason": f"记错{RLO}了", "revision": "0"}
    )
    assert response.status_code == 200
    assert "不能包含控制字符或文字方向字符" in response.content.decode()
    assert not Hand.objects.get().voided


def test_names_already_stored_are_isolated_next_to_the_numbers(client, db):
    game = Game.objects.create(players=[f"老{RLO}王", "小李", "阿华", "大刘"])
    add_hand(game, {"outcome": "win", "winner": 0, "win_type": "zimo"})
    html = client.get(game_url(game)).content.decode()
    assert f"<bdi>老{RLO}王</bdi> → " not in html  # the winner receives: payer → 老王
    assert f" → <bdi>老{RLO}王</bdi> <b>" in html  # hand list (scoring/records/render.py)
    assert f"<bdi>老{RLO}王</bdi></span>" in html  # the tile
    # Isolated: in a <bdi>, or between FSI and PDI in an attribute drawn later as text (a bet's data-facts).
    outside_bdi = re.sub(r"<bdi>.*?</bdi>|\u2068[^\u2069]*\u2069", "", html.split("<body", 1)[1])
    assert f"老{RLO}王" not in outside_bdi
    finish(game)
    settle = client.get(game_url(game) + "settle").content.decode()
    assert f" → <bdi>老{RLO}王</bdi> <b>" in settle
    assert f"<td><bdi>老{RLO}王</bdi></td>" in settle

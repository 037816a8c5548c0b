"""The round above the tiles and the hands' numbers are two counts, told apart by their words: the
round says how far the deal has gone round (「东风圈（2/4）」), a hand is 「第N局」."""

import re

from django.conf import settings

from tests.factories import add_hand
from tests.helpers import game_url


def round_label(client, game) -> str:
    html = client.get(game_url(game)).content.decode()
    return re.search(r'<div class="col-12 small text-body-secondary round-label">([^<]*)</div>', html)[1]


def test_the_round_counts_dealers_and_never_says_ju(client, game):
    assert round_label(client, game) == "东风圈（1/4）"
    add_hand(game, {"outcome": "win", "winner": 0, "win_type": "zimo"})  # 老王 keeps the deal
    add_hand(game, {"outcome": "win", "winner": 1, "win_type": "zimo"})  # the deal passes to 小李
    label = round_label(client, game)
    assert label == "东风圈（2/4）"
    assert "局" not in label
    assert "第2局" in client.get(game_url(game)).content.decode()  # the hands keep their own count


def test_two_seats_deal_twice_a_round_in_both_languages(client, wuyi2_game):
    assert round_label(client, wuyi2_game) == "东风圈（1/2）"
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    assert round_label(client, wuyi2_game) == "East round (deal 1 of 2)"

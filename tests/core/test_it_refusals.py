"""Refusals in the table's words: no rule references (§9), each said once, and a refused void
points at the hand it names."""

import re

from scoring.lang import table_words
from scoring.models import Hand
from tests.factories import add_hands
from tests.helpers import form_fields, game_url, version_of

DEALER_ZIMO = {"outcome": "win", "winner": 0, "win_type": "zimo"}


def test_rule_references_never_reach_the_table():
    assert table_words("§4 放铳者应是另一位玩家，不能是胡牌者自己") == "放铳者应是另一位玩家，不能是胡牌者自己"
    assert table_words("holding 2 财神: no discard win (docs/rules/yiwu.md §9)") == "holding 2 财神: no discard win"
    assert table_words("第3局：§2 只能有一种牌型") == "第3局：只能有一种牌型"
    assert table_words("Hand 2: §2-§4 Only one shape") == "Hand 2: Only one shape"
    assert table_words("见规则（§8.2）。") == "见规则。"


def test_a_refused_hand_says_why_exactly_once(client, game):
    data = form_fields({"outcome": "win", "winner": 1, "win_type": "pinghu", "discarder": 1}, game)
    html = client.post(game_url(game) + "record", data).content.decode()
    assert html.count("放铳者不能是胡牌者自己") == 1
    select = re.search(r'<select name="discarder"[^>]*>', html)[0]  # drawn by crispy, only marked
    assert "is-invalid" in select
    assert 'aria-invalid="true"' in select
    assert 'aria-describedby="id_discarder_error"' in select
    assert html.count('id="id_discarder_error"') == 1  # what it describes it with: the message above
    data = form_fields({"outcome": "win", "winner": 1, "win_type": "pinghu", "discarder": 0, "caishen": 2}, game)
    html = client.post(game_url(game) + "record", data).content.decode()
    assert html.count("手里有两个财神一定要自摸") == 1
    assert "§" not in html


def test_a_refused_void_links_to_the_hand_it_names(client, game):
    add_hands(game, [DEALER_ZIMO, {"outcome": "draw", "xiazi_join": [1]}])
    html = client.get(game_url(game) + "hand/1/void").content.decode()
    assert "作废后对不上" in html
    assert "§" not in html
    seq = re.search(r"作废后对不上：第(\d+)局", html)[1]
    assert f'href="{game_url(game)}#hand-{seq}"' in html
    assert f"看第{seq}局" in html


def test_the_list_header_counts_voided_hands_apart(client, game):
    add_hands(game, [DEALER_ZIMO, DEALER_ZIMO])
    assert "共 2 局</h2>" in client.get(game_url(game)).content.decode()
    client.post(game_url(game) + "hand/2/void", {"version": version_of(game), "reason": "x", "revision": "0"})
    assert Hand.objects.get(seq=2).voided
    html = client.get(game_url(game)).content.decode()
    assert "共 1 局（作废 1）" in html
    assert "第2局已作废。" in html  # nothing follows: no 「之后的每一局都已重算」
    assert "之后的每一局都已重算" not in html

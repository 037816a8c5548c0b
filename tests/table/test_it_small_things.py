"""Small things a table relies on: the game's title names who sits now (after 换人 too); the 谁放铳
step after 七对子 labels each name 「放铳」 as 平胡's does; 撤销上一局 is a small control apart from
流局; the settle page's 「金额怎么算」 reads right in English."""

import re

from django.conf import settings

from tests.helpers import game_url, record
from tests.table.test_it_seating_page import seat

ZIMO = {"outcome": "win", "winner": 0, "win_type": "zimo"}


def test_the_title_names_who_sits_now_after_a_seating(client, game):
    html = client.get(game_url(game)).content.decode()
    assert "<title>老王 · 小李 · 阿华 · 大刘 · " in html
    seat(client, game, "老王", "小李", "阿华", "小陈")  # 小陈 takes 大刘's seat
    html = client.get(game_url(game)).content.decode()
    assert "<title>老王 · 小李 · 阿华 · 小陈 · " in html
    heading = re.search(r'<h1 class="visually-hidden">(.*?)</h1>', html)[1]
    assert "小陈" in heading
    assert "大刘" not in heading


def test_after_seven_pairs_the_discarder_step_says_fangchong_under_each_name(client, game):
    step = client.get(game_url(game) + "record?outcome=win&winner=1&win_type=qidui").content.decode()
    assert "谁放铳？" in step
    buttons = re.findall(r'<a class="btn btn-danger btn-lg[^"]*"[^>]*>(.*?)</a>', step, re.S)
    assert len(buttons) == 3
    assert all("<small>放铳</small>" in b for b in buttons)
    pinghu = client.get(game_url(game) + "record?outcome=win&winner=1").content.decode()
    assert pinghu.count("<small>放铳</small>") == 3  # the same words as 平胡's row


def test_undo_is_a_small_control_apart_from_the_outcomes(client, game):
    assert "undo-link" not in client.get(game_url(game)).content.decode()
    record(client, game, ZIMO)
    html = client.get(game_url(game)).content.decode()
    undo = re.search(r'<a class="([^"]*)" href="/g/[^"]+/undo">撤销上一局</a>', html)
    assert "btn-sm" in undo[1]
    assert "btn-outline-secondary" in undo[1]
    assert "w-100" not in undo[1]
    # after 流局 and the other outcomes, and after 换人/换位 and 手动记分: not beside 流局
    assert html.index(">流局<") < html.index("manual-link") < html.index("undo-link")


def test_how_the_amounts_are_worked_out_in_english(client, game):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    html = client.get(game_url(game) + "settle").content.decode()
    assert "How the amounts are worked out" in html
    assert "How amounts are rounded" not in html

"""The pages under the top bar share one head (templates/scoring/_page.html): each keeps its own heading,
its way back, and the page below it."""

import re

import pytest

from tests.factories import add_hand
from tests.helpers import game_url

HEAD = re.compile(
    r'<div class="d-flex justify-content-between align-items-baseline( no-print)?">\s*'
    r'<h1 class="h5[^"]*">(.*?)</h1>\s*<a class="small" href="([^"]+)">(.*?)</a>\s*</div>',
    re.S,
)


def head(html: str) -> tuple[str, str, str, str]:
    return HEAD.search(html).groups("")


@pytest.mark.parametrize(
    ("path", "heading", "back"),
    [
        ("rules", "本局规则", "返回记分"),
        ("settle", "结算", "返回记分"),
        ("share", "邀请", "返回记分"),
        ("record", "记第2局", "取消"),
        ("hand/1/edit", "修改第1局", "取消"),
    ],
)
def test_a_game_page_heads_with_its_heading_and_the_way_back(client, game, path, heading, back):
    add_hand(game, {"outcome": "draw"})
    html = client.get(game_url(game) + path).content.decode()
    assert head(html) == ("", heading, game_url(game), back)


def test_the_analysis_page_heads_with_its_ruleset_and_the_game(client, game):
    no_print, heading, href, back = head(client.get(game_url(game) + "analyse").content.decode())
    assert no_print == ""
    assert heading.startswith("算牌 <small")
    assert (href, back) == (game_url(game), "← 牌局")


def test_the_summary_head_is_left_off_the_print(client, game):
    add_hand(game, {"outcome": "draw"})
    html = client.get(game_url(game) + "summary").content.decode()
    assert head(html) == (" no-print", "战绩", game_url(game), "返回记分")
    assert html.index("战绩") < html.index('<table class="table table-sm">')


def test_the_history_heads_with_a_link_to_the_stats(client, game):
    client.get(game_url(game))
    html = client.get("/history").content.decode()
    assert head(html) == ("", "历史牌局", "/stats", "个人统计")
    assert game_url(game) in html

"""Who floated (飘) is said where the hand is recorded: a name, then 单/双, then the feeders."""

import re

from scoring.models import Hand
from tests.web.helpers import game_url, record


def page(client, game, query: str) -> str:
    return client.get(game_url(game) + "record?" + query).content.decode()


def test_the_win_type_step_asks_whether_someone_else_floated(client, game):
    html = page(client, game, "winner=1&outcome=win")
    assert "有人飘了？" in html
    row = html[html.index("有人飘了？") :]
    names = re.findall(r"piao_player=(\d)", row.split("</div>\n</div>")[0])
    assert sorted(set(names)) == ["0", "2", "3"]  # not the winner: their own 飘 is a win type


def test_a_name_then_a_level_then_the_feeders_as_chips(client, game):
    html = page(client, game, "winner=1&outcome=win&piao_player=0")
    assert "老王</bdi> 飘了" in html
    assert "piao_level=1" in html
    assert "piao_level=2" in html
    assert "feeder-chips" not in html  # the level first
    html = page(client, game, "winner=1&outcome=win&piao_player=0&piao_level=1")
    assert "feeder-chips" in html
    assert "被他吃/碰/明杠了两次以上的人（先喂的在前）" in html
    html = page(client, game, "winner=1&outcome=win&piao_player=0&piao_level=1&feeder1=1")
    assert "小李</bdi> ✓" in html


def test_a_fanpei_needs_no_more_section(client, game):
    html = page(client, game, "winner=1&outcome=win&piao_player=0&piao_level=1&feeder1=1&win_type=zimo")
    assert "确认记录" in html
    assert "小李 自摸 ×2 · 反赔（老王飘，喂家小李胡）" in html
    assert "承包" not in html.split("preview")[1].split("</div>")[0]


def test_a_failed_shuangpiao_on_the_draw_preview(client, game):
    html = page(client, game, "outcome=draw")
    assert "有人飘了？" in html
    html = page(client, game, "outcome=draw&piao_player=3&piao_level=2")
    assert "流局 · 大刘双飘不成" in html
    response = record(client, game, {"outcome": "draw", "piao": {"player": 3, "level": 2}})
    assert response.status_code == 302
    assert Hand.objects.get().entry == {"outcome": "draw", "piao": {"player": 3, "level": 2}}


def test_nobody_floating_leaves_the_level_empty(client, game):
    html = page(client, game, "winner=1&outcome=win&win_type=zimo")
    select = html[html.index('name="piao_level"') :].split("</select>")[0]
    assert re.search(r'<option value=""[^>]*>—</option>', select)  # a choice of nothing
    assert not re.search(r'<option value="1"[^>]*selected', select)
    assert not re.search(r'<option value="2"[^>]*selected', select)

"""Who floated (飘) is said where the hand is recorded: a name, then 单/双, then the feeders."""

import re

from scoring.models import Hand
from tests.helpers import game_url, record


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


def win_type_links(html: str) -> set[str]:
    return set(re.findall(r"win_type=(\w+)", html.split('class="piao-row')[0]))


def test_after_a_danpiao_only_self_drawn_wins_are_offered_and_the_page_says_why(client, game):
    """§9: after someone else's 单飘 nobody may win on a discard; the winner's own float types go too."""
    html = page(client, game, "winner=1&outcome=win&piao_player=0&piao_level=1")
    assert "放铳</small>" not in html
    assert "discarder=" not in html
    offered = win_type_links(html)
    assert "zimo" in offered
    assert not offered & {"pinghu", "qidui", "shisanbukao", "danpiao", "shuangpiao"}
    assert "小李 飘了：" not in html
    assert "单飘后其他人不能放铳胡，必须自摸" in html
    assert 'class="alert alert-danger' not in html  # said as a note, not a refusal


def test_after_a_shuangpiao_only_a_kong_bloom_is_offered(client, game, make_game):
    html = page(client, game, "winner=1&outcome=win&piao_player=0&piao_level=2")
    assert win_type_links(html) == {"gangkai"}
    assert "双飘后其他人只能杠开胡" in html
    lenient = make_game(others_may_caishentou_after_shuangpiao=True)
    assert win_type_links(page(client, lenient, "winner=1&outcome=win&piao_player=0&piao_level=2")) == {
        "gangkai",
        "caishentou",
        "qidui_caishentou",
    }


def test_every_type_offered_after_a_float_is_recorded(client, game):
    """What the step offers is exactly what the rules then accept."""
    for level in (1, 2):
        html = page(client, game, f"winner=1&outcome=win&piao_player=0&piao_level={level}")
        for code in win_type_links(html):
            preview = page(client, game, f"winner=1&outcome=win&piao_player=0&piao_level={level}&win_type={code}")
            assert "确认记录" in preview, code
            assert "alert-danger" not in preview, code


def test_the_winners_own_float_takes_its_feeders_as_chips(client, game):
    """The winner floated (a 单飘 type): the preview offers the feeders as name chips, like a float
    of someone else, not a 「喂家一」 dropdown alone."""
    base = "winner=1&outcome=win&win_type=danpiao&piao_player=1&piao_level=1"
    html = page(client, game, base)
    chips = html[html.index("feeder-chips") :].split("</div>")[0]
    assert re.findall(r"喂家 </span><bdi>([^<]+)</bdi>", chips) == ["老王", "阿华", "大刘"]
    assert "piao_level=2" not in html  # the level is the win type's
    html = page(client, game, base + "&feeder1=3")
    assert "大刘</bdi> ✓" in html
    assert "小李 单飘 ×8 · 承包" in html

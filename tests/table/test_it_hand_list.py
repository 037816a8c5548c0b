"""The game page's hand list: a template (templates/table/_hand_row.html), each row cached, escaped."""

import re

from scoring.models import Game
from scoring.rulesets.yiwu.engine import Rules
from tests.factories import add_hand, finish
from tests.helpers import game_url, version_of

ROW = "table/_hand_row.html"
HOSTILE = "<script>alert(1)</script>\"'&"
REASON = "<img src=x onerror=\"alert('1')\"> & 记错"


def rows_rendered(response) -> int:
    return sum(1 for t in response.templates if t.name == ROW)


def test_each_row_is_rendered_once_then_served_from_the_cache_until_its_result_changes(client, game):
    add_hand(game, {"outcome": "win", "winner": 0, "win_type": "zimo"})
    add_hand(game, {"outcome": "win", "winner": 0, "win_type": "zimo"})
    assert rows_rendered(client.get(game_url(game))) == 2
    assert rows_rendered(client.get(game_url(game))) == 0  # nothing changed: both rows cached
    assert rows_rendered(client.get(game_url(game, view=True))) == 2  # no 修改/作废 there: its own rows
    # Editing hand 1 (老王 → 小李 自摸) rescores hand 2 (the dealer changed): both rows anew.
    client.post(
        game_url(game) + "hand/1/edit",
        {
            "outcome": "win",
            "winner": "1",
            "win_type": "zimo",
            "revision": "0",
            "confirm": "1",
            "version": version_of(game),
        },
    )
    response = client.get(game_url(game))
    assert rows_rendered(response) == 2
    assert "庄: <bdi>小李</bdi>" in response.content.decode()  # hand 2, dealt by 小李 now
    add_hand(game, {"outcome": "draw"})
    assert rows_rendered(client.get(game_url(game))) == 1  # only the new hand


def test_the_english_page_has_its_own_rows(client, game):
    add_hand(game, {"outcome": "win", "winner": 0, "win_type": "zimo"})
    assert "第1局" in client.get(game_url(game)).content.decode()
    client.post("/i18n/setlang/", {"language": "en", "next": "/"})
    html = client.get(game_url(game)).content.decode()
    assert "Hand 1" in html
    assert "第1局" not in html


def test_a_hostile_name_and_void_reason_come_out_escaped_in_the_hand_list(client, db):
    game = Game.objects.create(players=[HOSTILE, "小李", "阿华", "大刘"], rules=Rules().to_dict())
    add_hand(game, {"outcome": "win", "winner": 0, "win_type": "zimo"})
    add_hand(game, {"outcome": "win", "winner": 0, "win_type": "zimo"})
    client.post(game_url(game) + "hand/2/void", {"version": version_of(game), "reason": REASON, "revision": "0"})
    client.post(game_url(game) + "me/0")
    add_hand(game, {"outcome": "draw"})  # entered_by: the hostile name
    html = client.get(game_url(game)).content.decode()
    hands = html[html.index('id="hands"') : html.index('id="poller"')]
    assert "<script>alert" not in hands
    assert "<img" not in hands
    assert "&lt;script&gt;alert(1)&lt;/script&gt;&quot;&#x27;&amp;" in hands  # title, payments, 记于
    assert "&lt;img src=x onerror=&quot;alert(&#x27;1&#x27;)&quot;&gt; &amp; 记错" in hands
    assert len(re.findall(r"&lt;script&gt;", hands)) >= 3
    poll = client.get(game_url(game) + "poll?v=0").content.decode()
    assert "<script>alert" not in poll
    assert "<img" not in poll


def test_a_finished_game_lists_its_hands_without_edit_or_void(client, game):
    add_hand(game, {"outcome": "win", "winner": 0, "win_type": "zimo"})
    assert "hand/1/edit" in client.get(game_url(game)).content.decode()
    finish(game)
    game.refresh_from_db()
    assert game.status == Game.FINISHED
    html = client.get(game_url(game)).content.decode()
    assert "hand/1/edit" not in html
    assert "hand/1/void" not in html
    assert "已结束 · 看结算" in html
    poll = client.get(game_url(game) + "poll?v=0").content.decode()
    assert "已结束 · 看结算" in poll
    assert "hand/1/edit" not in poll
    assert "谁胡了" not in poll

from tests.factories import add_hand
from tests.helpers import game_url


def test_the_summary_names_each_hand_not_win_or_draw(client, game):
    add_hand(game, {"outcome": "win", "winner": 0, "win_type": "zimo"})
    add_hand(game, {"outcome": "draw"})
    html = client.get(game_url(game) + "summary").content.decode()
    assert "老王 自摸 ×2" in html
    assert '<td class="title"><bdi>流局</bdi></td>' in html
    assert "<td>win</td>" not in html
    assert "<td>draw</td>" not in html


def test_export_file_names_carry_the_ruleset_and_the_tables_local_time(client, zhuji_game):
    response = client.get(game_url(zhuji_game) + "export.csv")
    name = response["Content-Disposition"]
    assert name.startswith('attachment; filename="mahjong-zhuji-')
    from django.utils import timezone

    assert f"{timezone.localtime(zhuji_game.created_at):%Y%m%d-%H%M}" in name

"""The toy's 修改 through the steps every ruleset shares: its winner and 「how」 questions, each
marking the stored answer 原来, then the preview and 确认修改 (the toy overrides none of it)."""

from scoring.models import Hand
from scoring.replay import build, stored_replay
from tests.conftest import new_ruleset_game
from tests.helpers import game_url, record, text_of, version_of, was_links
from tests.table.test_it_edit_steps import confirm_fields, link_to


def test_the_toy_edits_through_the_steps(client, db, toy):
    game = new_ruleset_game("toy", ["老王", "小李", "阿华", "大刘"])
    record(client, game, {"outcome": "win", "winner": 0})  # 老王 自摸
    first = client.get(game_url(game) + "hand/1/edit").content.decode()
    assert "谁胡了？" in first
    assert was_links(first) == [link_to(first, "老王")]
    how = client.get(link_to(first, "小李")).content.decode()  # it was 小李's, on 阿华's discard
    assert was_links(how) == [link_to(how, "自摸")]
    sheet = client.get(link_to(how, "阿华")).content.decode()
    assert "确认修改" in sheet
    assert "小李" in text_of(sheet)
    fields = {**confirm_fields(sheet), "version": version_of(game)}
    assert client.post(game_url(game) + "hand/1/edit", fields).status_code == 302
    assert Hand.objects.get().entry == {"outcome": "win", "winner": 1, "discarder": 2}
    game.refresh_from_db()
    assert stored_replay(game, None).totals == build(game).totals == [0, 3, -3, 0]  # base 1 × 3, the discarder alone

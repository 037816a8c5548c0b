"""第N局 counts the hands that stand: a voided hand keeps its place in the list, shown as
「已作废」 with its reason and no number, and every later hand moves up (``Hand.seq`` stays the
hand's id in addresses)."""

import re

from tests.factories import add_hand, void
from tests.helpers import game_url, messages_of, record, version_of

DRAW = {"outcome": "draw"}


def four_hands_second_voided(client, game):
    for _ in range(4):
        add_hand(game, DRAW)
    void(game, 2, "记重了")


def test_the_hand_list_numbers_the_hands_that_stand(client, game):
    four_hands_second_voided(client, game)
    html = client.get(game_url(game)).content.decode()
    rows = re.findall(r'<details class="hand-row[^"]*" id="hand-(\d+)">\s*<summary[^>]*>(.*?)</summary>', html, re.S)
    heads = {seq: re.sub(r"<[^>]+>", " ", summary).split()[0] for seq, summary in rows}
    assert heads == {"4": "第3局", "3": "第2局", "2": "已作废", "1": "第1局"}
    voided = dict(rows)["2"]
    assert "记重了" in voided
    assert "第" not in voided


def test_entry_title_toast_edit_and_void_screens_use_the_standing_number(client, game):
    four_hands_second_voided(client, game)
    assert "记第4局" in client.get(game_url(game) + "record?outcome=draw").content.decode()
    response = record(client, game, DRAW)  # seq 5, the 4th that stands
    assert "已记录第4局。" in messages_of(client.get(response["Location"]))
    assert "修改第3局" in client.get(game_url(game) + "hand/4/edit").content.decode()
    assert "作废第3局？" in client.get(game_url(game) + "hand/4/void").content.decode()
    voided = client.post(
        game_url(game) + "hand/4/void", {"reason": "x", "revision": "0", "version": version_of(game)}, follow=True
    )
    assert "第3局已作废，之后的每一局都已重算。" in messages_of(voided)


def test_summary_and_csv_number_the_hands_that_stand(client, game):
    four_hands_second_voided(client, game)
    summary = client.get(game_url(game) + "summary").content.decode()
    assert re.findall(r"<tr><td>(\d+)</td><td class=\"title\"><bdi>", summary) == ["1", "2", "3"]
    csv = client.get(game_url(game) + "export.csv").content.decode("utf-8-sig").splitlines()[1:]
    assert [line.split(",")[0] for line in csv] == ["1", "", "2", "3"]

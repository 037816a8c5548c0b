"""诸暨 and 武义二人 draw their steps from one frame (entry/_win_or_draw.html): each keeps its own
question and buttons, and a preview refresh still swaps only its own part."""

import pytest

from scoring.rulesets.zhuji import form_side as zhuji_entry
from scoring.rulesets.zhuji.engine.hands import TAI_NAMES
from tests.helpers import game_url

HTMX = {"HX-Request": "true"}


@pytest.fixture(params=["zhuji_game", "wuyi2_game"])
def table(request):
    return request.getfixturevalue(request.param)


def test_the_how_step_asks_the_rulesets_question_with_its_own_buttons(client, zhuji_game, wuyi2_game):
    zhuji = client.get(game_url(zhuji_game) + "record?outcome=win&winner=1").content.decode()
    wuyi2 = client.get(game_url(wuyi2_game) + "record?outcome=win&winner=1").content.decode()
    assert "自摸，还是谁放冲" in zhuji
    assert zhuji.count("<small>放冲</small>") == 3
    assert 'class="col-4"' in zhuji
    assert "自摸还是放铳" in wuyi2
    assert wuyi2.count("<small>放铳</small>") == 1
    assert 'class="col-6"><a class="btn btn-danger btn-lg w-100 py-3"' in wuyi2


def test_the_how_step_links_back_to_the_winner_and_to_the_analysis(client, table):
    html = client.get(game_url(table) + "record?outcome=win&winner=1").content.decode()
    assert "← 改胡牌者" in html
    assert "点牌看胡什么" in html
    assert 'id="hand-form"' not in html


def test_the_sheet_sits_in_the_form_above_the_dealer_correction(client, table):
    html = client.get(game_url(table) + "record?outcome=win&winner=1&zimo=on").content.decode()
    form = html[html.index('id="hand-form"') :]
    assert form.index('name="shape"') < form.index("更多：更正庄家") < form.index("更新预览")


def test_a_refresh_swaps_the_preview_part_and_never_the_correction(client, zhuji_game, wuyi2_game):
    for game, swapped in ((zhuji_game, 'id="zhuji-head"'), (wuyi2_game, 'id="sheet"')):
        data = {"outcome": "win", "winner": "1", "zimo": "on", "next_seq": "1", "streak_fix": "2"}
        html = client.post(game_url(game) + "record", data, headers=HTMX).content.decode()
        assert html.lstrip().startswith(f"<div {swapped}>")
        assert 'id="preview-panel"' in html
        assert "更多：更正庄家" not in html
        assert "<html" not in html


def test_the_zhuji_sheet_names_its_chips_from_the_engines_table():
    """One source of the 台 items' names: the engine's (scoring/rulesets/zhuji/engine/hands.py)."""
    for table in (zhuji_entry.DRAGONS, zhuji_entry.SHAPES, zhuji_entry.FLAGS, zhuji_entry.SPECIALS):
        for code, zh, en in table:
            assert (zh, en) == TAI_NAMES[code]
    for code, zh, en in zhuji_entry.WINDS:  # a wind chip is the seat wind alone: 东 / East
        assert TAI_NAMES[code][0].startswith(zh)
        assert TAI_NAMES[code][1].startswith(en)

"""杭州 at the table, through the Django client: the new-game form and its house rules, the one-tap
平和, the chips with their reasons, 承包 by name with its cost, the 老庄 on the pages, edit, void,
the rules page and a backup restored."""

import json
import re

from scoring.engine import score_game
from scoring.models import Game, Hand
from scoring.rulesets.hangzhou.engine import PATTERNS, RULE_INFO
from tests.conftest import new_ruleset_game
from tests.factories import add_hand
from tests.helpers import (
    dealer_tile,
    edit_sheet,
    element,
    form_fields,
    game_url,
    panel_note,
    preview_of,
    sheet_tap,
    text_of,
    totals_on_page,
    version_of,
)

NAMES = ["老王", "阿明", "小李", "阿芳"]
NEW = {"ruleset": "hangzhou", **{f"name{s}": n for s, n in enumerate(NAMES)}, "first_dealer": "0", "preset": "1分"}


def hangzhou_game() -> Game:
    return new_ruleset_game("hangzhou", NAMES)


def test_the_new_game_form_asks_every_house_rule_on_one_line_each(client, db):
    html = client.get("/new?ruleset=hangzhou").content.decode()
    for name in ("fan_cap", "laozhuang_on_draw", "next_dealer", "caipiao_stack"):
        assert f'name="{name}"' in html, name
    for n, factor in ((1, 2), (2, 4), (3, 8)):
        assert re.search(rf'<input type="number" name="laozhuang__{n}" value="{factor}"', html)
    for pattern in PATTERNS:
        assert re.search(rf'<input type="number" name="fan__{pattern.code}" value="{pattern.fan}"', html)
    for info in RULE_INFO.values():
        assert info.zh in html
        assert "\n" not in info.zh_help


def test_a_game_keeps_the_house_rules_typed_in(client, db):
    form = {**NEW, "fan_cap": "", "next_dealer": "next_seat", "laozhuang__1": "2", "laozhuang__2": "2"}
    form |= {"laozhuang__3": "3", "fan__qidui": "1", "caipiao_stack": "on"}
    assert client.post("/new", form).status_code == 302
    game = Game.objects.get()
    assert game.ruleset == "hangzhou"
    assert game.rules == {
        "base": 1,
        "fan_cap": None,
        "laozhuang": [2, 2, 3],
        "laozhuang_on_draw": False,  # an unticked box
        "next_dealer": "next_seat",
        "caipiao_stack": True,
        "fan": {"qidui": 1},
    }
    rules = text_of(client.get(game_url(game) + "rules").content.decode())
    assert "老庄倍数: 一老庄 2，二老庄 2，三老庄 3" in rules
    assert "番数表: 七对子 1" in rules


def test_a_factor_out_of_range_is_refused_on_its_field_and_nothing_is_created(client, db):
    response = client.post("/new", {**NEW, "fan_cap": "4", "laozhuang__3": "65"})
    assert response.status_code == 200
    assert not Game.objects.exists()
    assert response.context["form"].errors["laozhuang__3"]


def test_a_pinghu_is_one_tap_and_a_confirm(client, db):
    game = hangzhou_game()
    page = client.get(game_url(game)).content.decode()
    tap = re.search(r'href="([^"]*record\?[^"]*winner=1[^"]*)"', page)[1].replace("&amp;", "&")
    sheet = client.get(tap).content.decode()
    title, nets = preview_of(sheet)
    assert (title, nets) == ("阿明 自摸 0番", {"老王": "−2", "阿明": "+4", "小李": "−1", "阿芳": "−1"})
    assert panel_note(sheet) == ("", "", True)
    assert "老王 → 阿明 2 = 2^0 番（平和）× 2 庄·一老庄" in text_of(sheet)
    assert "庄: 老王 · 一老庄" in sheet
    data = {**form_fields({"outcome": "win", "winner": 1}, game), "confirm": "1", "next_seq": "1"}
    assert client.post(game_url(game) + "record", {**data, "version": version_of(game)}).status_code == 302
    assert Hand.objects.get().entry == {"outcome": "win", "winner": 1}
    assert totals_on_page(client.get(game_url(game)).content.decode()) == ["−2", "+4", "−1", "−1"]
    assert "庄·一老庄" in dealer_tile(client, game)
    assert "阿明" in dealer_tile(client, game)  # the winner deals next


def chips(sheet: str) -> dict[str, str]:
    """Each greyed chip's note by the chip's id: the ones scoring would refuse."""
    off = {}
    for box in re.findall(r'<input [^>]*class="btn-check"[^>]*>', sheet):
        if " disabled" in box:
            note = re.search(r'aria-describedby="([^"]+)"', box)[1]
            off[re.search(r'id="([^"]+)"', box)[1]] = text_of(element(sheet, f'<div class="chip-note" id="{note}"'))
    return off


def test_a_chip_that_cannot_join_is_greyed_with_the_reason(client, db):
    game = hangzhou_game()
    sheet = sheet_tap(client, game, {"outcome": "win", "winner": 2, "patterns": ["shifeng"]})
    off = chips(sheet)
    assert set(off) == {"pt-baotou", "pt-caipiao1", "pt-caipiao2", "pt-caipiao3", "pt-gangkai", "pt-qidui"} | {
        "pt-haohua_qidui",
        "pt-shifeng_bai",
        "cb-upper",
    }
    assert "十风是单独的一种胡法" in off["pt-baotou"]
    assert off["pt-caipiao2"].startswith("财飘：")
    assert "没有吃牌" in off["cb-upper"]
    assert all("§" not in note for note in off.values())
    assert preview_of(sheet)[0] == "小李 自摸 3番"
    sheet = sheet_tap(client, game, {"outcome": "win", "winner": 2, "patterns": ["no_caishen"], "caipiao": 0})
    assert "要手里有财神" in chips(sheet)["pt-baotou"]
    sheet = sheet_tap(client, game, {"outcome": "win", "winner": 2, "chengbao": [2]})
    assert "没有吃牌" in chips(sheet)["pt-qidui"]


def test_chengbao_names_the_winners_left_and_right_with_what_each_would_pay(client, db):
    game = hangzhou_game()
    add_hand(game, {"outcome": "win", "winner": 0})  # 老王 deals on at 二老庄
    sheet = sheet_tap(client, game, {"outcome": "win", "winner": 1, "patterns": ["baotou"]})
    liable = text_of(element(sheet, '<div class="sheet-row" role="group" aria-label="承包"'))
    assert liable == "老王 包 阿明吃了他三次 一家付 12 小李 包 他吃了阿明三次 一家付双倍 24"  # 2 · (4 + 1 + 1)
    sheet = sheet_tap(client, game, {"outcome": "win", "winner": 1, "patterns": ["baotou"], "chengbao": [1, 2]})
    title, nets = preview_of(sheet)
    assert (title, nets) == (
        "阿明 自摸 1番 · 老王、小李承包",
        {"老王": "−12", "阿明": "+36", "小李": "−24", "阿芳": "0"},
    )
    assert "包三家（胡家吃了上家三次），庄·二老庄 ×4" in sheet


def test_the_dealers_laozhuang_shows_where_a_streak_would(client, db):
    game = hangzhou_game()
    for _ in range(3):
        add_hand(game, {"outcome": "win", "winner": 0})
    assert "庄·三老庄" in dealer_tile(client, game)
    page = client.get(game_url(game)).content.decode()
    assert "庄: 老王 · 二老庄" in text_of(element(page, '<details class="hand-row border-bottom" id="hand-2"'))
    sheet = client.get(game_url(game) + "record?outcome=win&winner=2").content.decode()
    assert "庄 老王 三老庄 ×8" in text_of(sheet)
    add_hand(game, {"outcome": "draw"})
    add_hand(game, {"outcome": "win", "winner": 2, "caipiao": 2})
    assert "小李" in dealer_tile(client, game)
    assert "庄·一老庄" in dealer_tile(client, game)


def test_an_evening_edits_voids_and_exports_to_the_same_totals(client, db):
    game = hangzhou_game()
    add_hand(game, {"outcome": "win", "winner": 0})
    add_hand(game, {"outcome": "win", "winner": 0, "patterns": ["haohua_qidui"]})  # 16 × 4 from each
    add_hand(game, {"outcome": "draw"})
    edit = edit_sheet(client, game_url(game) + "hand/2/edit").content.decode()
    assert re.search(r'id="pt-haohua_qidui"[^>]* checked', edit)
    fixed = {"outcome": "win", "winner": 0, "patterns": ["qidui", "baotou"], "chengbao": [0]}
    confirmed = {**form_fields(fixed, game), "revision": "0", "version": version_of(game), "confirm": "1"}
    assert client.post(game_url(game) + "hand/2/edit", confirmed).status_code == 200  # refused: 七对 has no chows
    del fixed["chengbao"]
    confirmed = {**form_fields(fixed, game), "revision": "0", "version": version_of(game), "confirm": "1"}
    assert client.post(game_url(game) + "hand/2/edit", confirmed).status_code == 302
    voiding = {"version": version_of(game), "reason": "记错了", "revision": "0"}
    assert client.post(game_url(game) + "hand/3/void", voiding).status_code == 302
    exported = json.loads(client.get(game_url(game) + "export.json").content)
    assert exported["ruleset"] == "hangzhou"
    assert [h["entry"] if "entry" in h else h for h in exported["hands"]][:2] == [
        {"outcome": "win", "winner": 0},
        {"outcome": "win", "winner": 0, "patterns": ["baotou", "qidui"]},
    ]
    totals = score_game(exported)["totals"]
    assert totals == [6 + 3 * 32, -2 - 32, -2 - 32, -2 - 32]  # 2^3 × 4 (二老庄) from each
    assert [int(t.replace("−", "-")) for t in totals_on_page(client.get(game_url(game)).content.decode())] == totals
    response = client.post("/import", {"text": client.get(game_url(game) + "export.json").content.decode()})
    assert response.status_code == 302
    copy = Game.objects.exclude(pk=game.pk).get()
    assert totals_on_page(client.get(game_url(copy)).content.decode()) == totals_on_page(
        client.get(game_url(game)).content.decode()
    )


def test_the_rules_page_shows_the_fan_and_the_factors_at_this_table(client, db):
    game = hangzhou_game()
    game.rules = {**game.rules, "laozhuang": [2, 3, 5], "fan": {"shifeng": 2}}
    game.save()
    page = client.get(game_url(game) + "rules").content.decode()
    assert "杭州麻将" in page
    assert re.search(r"<td>十风</td><td class=\"text-end\">2</td>", page)
    assert re.search(r"<td>三老庄</td><td class=\"text-end\">×5</td>", page)

"""武义二人's whole evening (the one tests/browser/evenings/wuyi2.py began with), sheet by
sheet through the Django client: what each sheet previews (its title and the winner's net), which
chips it greys and why, the links that carry the chips, the stored hands, and the game page's
totals against score_game. The browser test keeps what needs a phone: the taps themselves."""

import re

from scoring.engine import score_game
from scoring.models import Hand
from tests.conftest import new_ruleset_game
from tests.helpers import (
    after_of,
    dealer_tile,
    edit_sheet,
    element,
    form_fields,
    game_url,
    link,
    panel_note,
    preview_of,
    record,
    sheet_tap,
    text_of,
    totals_on_page,
    version_of,
)

NAMES = ["老王", "小李"]  # seats 0 and 1; 老王 deals first; 庄家翻倍 both (every payment ×2)


def win(winner: int, patterns: list[str], discarder: int | None = None) -> dict:
    entry = {"outcome": "win", "winner": winner, "patterns": patterns}
    if discarder is not None:
        entry["discarder"] = discarder
    return entry


def previews(html: str, title: str, winner: str, net: str) -> None:
    """The sheet previews ``title`` with ``net`` for the winner, and offers 确认."""
    shown, nets = preview_of(html)
    assert (shown, nets[winner]) == (title, net)
    assert panel_note(html) == ("", "", True)


def checked(sheet: str, code: str) -> bool:
    return " checked" in re.search(rf'<input [^>]*id="pt-{code}"[^>]*>', sheet)[0]


def greyed(sheet: str, code: str) -> str:
    """What a chip that cannot join says: its input is disabled and described by its note, its
    label is greyed; the note under its group, which never shows a rule's §."""
    box = re.search(rf'<input [^>]*id="pt-{code}"[^>]*>', sheet)[0]
    assert re.search(rf' disabled aria-describedby="why-{code}"', box), box
    assert " checked" not in box
    assert "chip-off" in re.search(rf'<label class="([^"]*)" for="pt-{code}"', sheet)[1].split()
    note = text_of(element(sheet, f'<div class="chip-note" id="why-{code}"'))
    assert "§" not in note
    return note


def test_a_wuyi2_evening_sheet_by_sheet(client, db):
    game = new_ruleset_game("wuyi2", NAMES)
    record_url = game_url(game) + "record"
    expected = []
    assert len(totals_on_page(client.get(game_url(game)).content.decode())) == 2

    # 1. the dealer 老王 自摸, 平胡 (the shape already chosen): 2^1 ×2 (庄) = 4. 地胡 needs a
    #    discarder and 人胡 is the non-dealer's: both greyed
    assert "老王 胡了 — 自摸还是放铳？" in client.get(record_url + "?outcome=win&winner=0").content.decode()
    sheet = client.get(record_url + "?outcome=win&winner=0&zimo=on").content.decode()
    assert checked(sheet, "pinghu")
    previews(sheet, "老王 自摸 1番", "老王", "+4")
    assert "需要庄家放铳" in greyed(sheet, "dihu")
    assert "人胡只有闲家能胡" in greyed(sheet, "renhu")
    expected.append(win(0, ["pinghu"]))
    record(client, game, expected[-1])

    # 2. 小李 on 老王's discard: 碰碰胡 + 清一色 = 3番 → 8 ×2 (放铳) ×2 (庄) = 32; 杠开 and 海底
    #    are self-drawn only
    sheet = client.get(record_url + "?outcome=win&winner=1&discarder=0").content.decode()
    assert "小李 · 放铳 ×2" in sheet
    assert "杠上开花只能自摸" in greyed(sheet, "gangkai")
    assert "海底捞月只能自摸" in greyed(sheet, "haidi")
    sheet = sheet_tap(client, game, win(1, ["pengpenghu", "qingyise"], discarder=0))
    previews(sheet, "小李 3番 · 老王放铳", "小李", "+32")
    assert after_of(sheet)["小李"] == "+28"  # 小李 −4 → +28
    expected.append(win(1, ["pengpenghu", "qingyise"], discarder=0))
    record(client, game, expected[-1])

    # 3. 小李 deals. 老王's question leads back to 谁胡了; 小李 on 老王's discard with 财神头, then
    #    「改」 to 自摸 carries the chip: 财神头 + 杠开 = 2 + 1 + 1 (自摸) = 4番 → 16 ×2 = 32. With
    #    财神头 the 清一色 without 财神 and the shapes other than 平胡/碰碰胡 are greyed
    assert "小李" in dealer_tile(client, game)
    how = client.get(record_url + "?outcome=win&winner=0").content.decode()
    assert "谁胡了？" in client.get(link(how, "←改胡牌者")).content.decode()
    how = client.get(record_url + "?outcome=win&winner=1").content.decode()
    sheet = client.get(link(how, "老王放铳")).content.decode()
    assert "小李 · 放铳 ×2" in sheet
    sheet = sheet_tap(client, game, win(1, ["pinghu", "caishentou"], discarder=0))
    assert checked(sheet, "caishentou")
    how = client.get(link(sheet, "改")).content.decode()
    sheet = client.get(link(how, "自摸")).content.decode()
    assert "小李 · 自摸 +1番" in sheet
    assert checked(sheet, "caishentou")
    sheet = sheet_tap(client, game, win(1, ["pinghu", "caishentou", "gangkai"]))
    previews(sheet, "小李 自摸 4番", "小李", "+32")
    assert "财神头有财神，清一色应选" in greyed(sheet, "qingyise")
    assert "财神头只能与平胡或碰碰胡同时算" in greyed(sheet, "qidui")
    assert "财神只能算一种" in greyed(sheet, "baotou")
    expected.append(win(1, ["pinghu", "caishentou", "gangkai"]))
    record(client, game, expected[-1])

    # 4. 老王 on the dealer 小李's first discard: 七对子爆头 + 清一色带财神 + 地胡 = 3 + 1 + 1 = 5番
    #    → 32 ×2 ×2 = 128; the 清一色 without 财神 cannot go with 爆头
    assert "连1" in dealer_tile(client, game)
    sheet = sheet_tap(client, game, win(0, ["qidui_baotou"], discarder=1))
    assert "七对子爆头有财神" in greyed(sheet, "qingyise")
    sheet = sheet_tap(client, game, win(0, ["qidui_baotou", "qingyise_cai", "dihu"], discarder=1))
    previews(sheet, "老王 5番 · 小李放铳", "老王", "+128")
    expected.append(win(0, ["qidui_baotou", "qingyise_cai", "dihu"], discarder=1))
    record(client, game, expected[-1])

    # 5. a draw
    draw = client.get(record_url + "?outcome=draw").content.decode()
    assert "流局" in element(draw, '<div id="preview-panel"')
    expected.append({"outcome": "draw"})
    record(client, game, expected[-1])

    # 6. 老王 deals: 自摸 七风 + 海底 + 天胡 = 1 + 1 + 1 + 1 = 4番 → 32; no 清一色 with 七风
    sheet = sheet_tap(client, game, win(0, ["qifeng"]))
    assert "清一色不能与七风同时算" in greyed(sheet, "qingyise_cai")
    previews(sheet_tap(client, game, win(0, ["qifeng", "tianhu", "haidi"])), "老王 自摸 4番", "老王", "+32")
    expected.append(win(0, ["qifeng", "tianhu", "haidi"]))
    record(client, game, expected[-1])

    # 7. 小李 自摸 全求人 (counts as 平胡 when self-drawn) + 人胡 = 0 + 1 + 1 = 2番 → 8
    sheet = sheet_tap(client, game, win(1, ["quanqiuren"]))
    assert "三财一刻只能与平胡或碰碰胡同时算" in greyed(sheet, "sancai")
    previews(sheet_tap(client, game, win(1, ["quanqiuren", "renhu"])), "小李 自摸 2番", "小李", "+8")
    expected.append(win(1, ["quanqiuren", "renhu"]))
    record(client, game, expected[-1])

    # 8. 老王 on the dealer 小李's discard: 碰碰胡 + 爆头 = 2番 → 4 ×2 ×2 = 16
    sheet = sheet_tap(client, game, win(0, ["pengpenghu", "baotou"], discarder=1))
    previews(sheet, "老王 2番 · 小李放铳", "老王", "+16")
    expected.append(win(0, ["pengpenghu", "baotou"], discarder=1))
    record(client, game, expected[-1])

    # 9. 老王 deals: 自摸 十三不靠 = 0 + 1 = 1番 → 4
    previews(sheet_tap(client, game, win(0, ["shisanbukao"])), "老王 自摸 1番", "老王", "+4")
    expected.append(win(0, ["shisanbukao"]))
    record(client, game, expected[-1])

    # edit hand 2: it was 清一色 with a 财神 (1番, not 2): 2番 → 16. The other 清一色 is greyed
    # until the first is taken off
    edit = edit_sheet(client, game_url(game) + "hand/2/edit").content.decode()
    assert "修改第2局" in edit
    assert checked(edit, "qingyise")
    assert "清一色只能算一种" in greyed(edit, "qingyise_cai")
    sheet = sheet_tap(client, game, win(1, ["pengpenghu"], discarder=0), "hand/2/edit", revision="0")
    assert not re.search(r'id="pt-qingyise_cai"[^>]* disabled', sheet)
    fixed = win(1, ["pengpenghu", "qingyise_cai"], discarder=0)
    previews(sheet_tap(client, game, fixed, "hand/2/edit", revision="0"), "小李 2番 · 老王放铳", "小李", "+16")
    confirmed = {**form_fields(fixed, game), "revision": "0", "version": version_of(game), "confirm": "1"}
    assert client.post(game_url(game) + "hand/2/edit", confirmed).status_code == 302
    expected[1] = fixed

    # void hand 1 (老王 deals on either way)
    assert "作废第1局？" in client.get(game_url(game) + "hand/1/void").content.decode()
    voiding = {"version": version_of(game), "reason": "记错了", "revision": "0"}
    assert client.post(game_url(game) + "hand/1/void", voiding).status_code == 302
    del expected[0]

    stored = [h.entry for h in Hand.objects.filter(game=game, voided_at__isnull=True).order_by("seq")]
    assert stored == expected
    game.refresh_from_db()
    result = score_game({"ruleset": "wuyi2", "rules": game.rules, "first_dealer": game.first_dealer, "hands": stored})
    assert sum(result["totals"]) == 0
    page = client.get(game_url(game)).content.decode()
    assert [int(t.replace("\u2212", "-")) for t in totals_on_page(page)] == result["totals"]
    assert "voided" in re.search(r'<details class="([^"]*)" id="hand-1"', page)[1].split()

    rules = client.get(game_url(game) + "rules").content.decode()
    assert "武义二人麻将" in element(rules, '<main class="container-sm py-2" id="main"')
    terms = [re.sub(r"<[^>]+>", "", dt) for dt in re.findall(r"<dt>(.*?)</dt>", rules, re.S)]
    assert [t for t in terms if t.startswith("番数表")] == ["番数表: 按默认"]  # the default table, not a raw 「{}」

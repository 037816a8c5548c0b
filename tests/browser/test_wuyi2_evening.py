"""武义二人 on a phone: create the game, record an evening with the pattern chips (refused chips
greyed with their reason), fix two hands, check the totals."""

import re

import pytest
from playwright.sync_api import expect

from scoring.engine import score_game
from scoring.models import Game, Hand
from tests.browser.helpers import confirm, form_ready, screen_totals

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NAMES = ["老王", "小李"]  # seats 0 and 1; 老王 deals first; 庄家翻倍 both (every payment ×2)


def link(page, name) -> None:
    page.get_by_role("link", name=name, exact=isinstance(name, str)).first.click()


def chip(page, code: str) -> None:
    """Tap a chip (the LABEL of a hidden input) and wait for the sheet to come back with it:
    the whole sheet is replaced on each tap, greying what can no longer join."""
    box = page.locator(f"#pt-{code}")
    was = box.is_checked()
    page.locator(f"label[for=pt-{code}]").click()
    if was:
        expect(page.locator(f"#pt-{code}")).not_to_be_checked()
    else:
        expect(page.locator(f"#pt-{code}")).to_be_checked()


def expect_refused_chip(page, code: str, reason: str) -> None:
    """A greyed chip: its input is disabled, a tap does not check it, its reason is shown under
    the group (and named by aria-describedby)."""
    box = page.locator(f"#pt-{code}")
    expect(box).to_be_disabled()
    expect(box).to_have_attribute("aria-describedby", f"why-{code}")
    label = page.locator(f"label[for=pt-{code}]")
    expect(label).to_have_class(re.compile("chip-off"))
    label.click(force=True)  # Playwright would otherwise wait for the control to be enabled
    expect(box).not_to_be_checked()
    note = page.locator(f"#why-{code}")
    expect(note).to_be_visible()
    expect(note).to_contain_text(reason)
    assert "§" not in note.inner_text()


def expect_preview(page, title: str, winner: str, net: str) -> None:
    panel = page.locator("#preview-panel")
    expect(panel.locator(".preview .fw-semibold").first).to_have_text(title)
    cell = panel.locator(".preview .col").filter(has=page.locator(".small", has_text=re.compile(f"^{winner}$")))
    expect(cell.locator(".fs-4")).to_have_text(net)


def win(winner: int, patterns: list[str], discarder: int | None = None) -> dict:
    entry = {"outcome": "win", "winner": winner, "patterns": patterns}
    if discarder is not None:
        entry["discarder"] = discarder
    return entry


def test_a_wuyi2_evening_on_a_phone(live_server, phone, shot):
    page = phone
    expected = []

    page.goto(live_server.url + "/new")
    page.locator(".rulesets").get_by_role("link", name="武义二人麻将").click()
    expect(page.locator(".rulesets [aria-current=true]")).to_have_text("武义二人麻将")
    expect(page.locator("#id_name2")).to_have_count(0)  # two names only
    for seat, name in enumerate(NAMES):
        page.fill(f"#id_name{seat}", name)
    shot(page, "wuyi2-new-game")
    page.get_by_role("button", name="开始").click()
    expect(page.get_by_text("记一局：谁胡了？")).to_be_visible()
    expect(page.locator(".total[data-seat]")).to_have_count(2)
    game = Game.objects.get()
    assert game.ruleset == "wuyi2"

    # 1. the dealer 老王 自摸, 平胡 (the shape already chosen): 2^1 ×2 (庄) = 4. 地胡 needs a
    #    discarder and 人胡 is the non-dealer's: both greyed
    link(page, "老王")
    expect(page.get_by_text("老王 胡了 — 自摸还是放铳？")).to_be_visible()
    link(page, "自摸")
    form_ready(page)
    expect(page.locator("#pt-pinghu")).to_be_checked()
    expect_preview(page, "老王 自摸 1番", "老王", "+4")
    expect_refused_chip(page, "dihu", "需要庄家放铳")
    expect_refused_chip(page, "renhu", "人胡只有闲家能胡")
    confirm(page)
    expected.append(win(0, ["pinghu"]))

    # 2. 小李 on 老王's discard: 碰碰胡 + 清一色 = 3番 → 8 ×2 (放铳) ×2 (庄) = 32; 杠开 and 海底
    #    are self-drawn only
    link(page, "小李")
    link(page, re.compile(r"^老王\s*放铳"))
    form_ready(page)
    expect(page.locator("#sheet")).to_contain_text("小李 · 放铳 ×2")
    expect_refused_chip(page, "gangkai", "杠上开花只能自摸")
    expect_refused_chip(page, "haidi", "海底捞月只能自摸")
    chip(page, "pengpenghu")
    chip(page, "qingyise")
    expect_preview(page, "小李 3番 · 老王放铳", "小李", "+32")
    expect(page.locator("#preview-panel .change")).to_contain_text("+28")  # 小李 −4 → +28
    confirm(page)
    expected.append(win(1, ["pengpenghu", "qingyise"], discarder=0))

    # 3. 小李 deals. A wrong winner and a wrong 放铳 are taken back; then 小李 自摸: 财神头 + 杠开
    #    = 2 + 1 + 1 (自摸) = 4番 → 16 ×2 = 32. With 财神头 the 清一色 without 财神 and the
    #    shapes other than 平胡/碰碰胡 are greyed
    expect(page.locator(".tile-dealer")).to_contain_text("小李")
    link(page, "老王")
    link(page, "← 改胡牌者")
    expect(page.get_by_text("谁胡了？", exact=True)).to_be_visible()
    link(page, "小李")
    link(page, re.compile(r"^老王\s*放铳"))
    form_ready(page)
    chip(page, "caishentou")
    link(page, "改")  # it was 自摸: the chip tapped so far comes along
    link(page, "自摸")
    form_ready(page)
    expect(page.locator("#sheet")).to_contain_text("小李 · 自摸 +1番")
    expect(page.locator("#pt-caishentou")).to_be_checked()
    chip(page, "gangkai")
    expect_preview(page, "小李 自摸 4番", "小李", "+32")
    expect_refused_chip(page, "qingyise", "财神头有财神，清一色应选")
    expect_refused_chip(page, "qidui", "财神头只能与平胡或碰碰胡同时算")
    expect_refused_chip(page, "baotou", "财神只能算一种")
    page.locator("#why-qingyise").scroll_into_view_if_needed()
    shot(page, "wuyi2-sheet-disabled")
    confirm(page)
    expected.append(win(1, ["pinghu", "caishentou", "gangkai"]))

    # 4. 老王 on the dealer 小李's first discard: 七对子爆头 + 清一色带财神 + 地胡 = 3 + 1 + 1 = 5番
    #    → 32 ×2 ×2 = 128; the 清一色 without 财神 cannot go with 爆头
    expect(page.locator(".tile-dealer")).to_contain_text("连1")
    link(page, "老王")
    link(page, re.compile(r"^小李\s*放铳"))
    form_ready(page)
    chip(page, "qidui_baotou")
    expect_refused_chip(page, "qingyise", "七对子爆头有财神")
    chip(page, "qingyise_cai")
    chip(page, "dihu")
    expect_preview(page, "老王 5番 · 小李放铳", "老王", "+128")
    shot(page, "wuyi2-preview")
    confirm(page)
    expected.append(win(0, ["qidui_baotou", "qingyise_cai", "dihu"], discarder=1))

    # 5. a draw
    link(page, "流局")
    expect(page.locator("#preview-panel")).to_contain_text("流局")
    confirm(page)
    expected.append({"outcome": "draw"})

    # 6. 老王 deals: 自摸 七风 + 海底 + 天胡 = 1 + 1 + 1 + 1 = 4番 → 32; no 清一色 with 七风
    link(page, "老王")
    link(page, "自摸")
    form_ready(page)
    chip(page, "qifeng")
    expect_refused_chip(page, "qingyise_cai", "清一色不能与七风同时算")
    chip(page, "haidi")
    chip(page, "tianhu")
    expect_preview(page, "老王 自摸 4番", "老王", "+32")
    confirm(page)
    expected.append(win(0, ["qifeng", "tianhu", "haidi"]))

    # 7. 小李 自摸 全求人 (counts as 平胡 when self-drawn) + 人胡 = 0 + 1 + 1 = 2番 → 8
    link(page, "小李")
    link(page, "自摸")
    form_ready(page)
    chip(page, "quanqiuren")
    expect_refused_chip(page, "sancai", "三财一刻只能与平胡或碰碰胡同时算")
    chip(page, "renhu")
    expect_preview(page, "小李 自摸 2番", "小李", "+8")
    confirm(page)
    expected.append(win(1, ["quanqiuren", "renhu"]))

    # 8. 老王 on the dealer 小李's discard: 碰碰胡 + 爆头 = 2番 → 4 ×2 ×2 = 16
    link(page, "老王")
    link(page, re.compile(r"^小李\s*放铳"))
    form_ready(page)
    chip(page, "pengpenghu")
    chip(page, "baotou")
    expect_preview(page, "老王 2番 · 小李放铳", "老王", "+16")
    confirm(page)
    expected.append(win(0, ["pengpenghu", "baotou"], discarder=1))

    # 9. 老王 deals: 自摸 十三不靠 = 0 + 1 = 1番 → 4
    link(page, "老王")
    link(page, "自摸")
    form_ready(page)
    chip(page, "shisanbukao")
    expect_preview(page, "老王 自摸 1番", "老王", "+4")
    confirm(page)
    expected.append(win(0, ["shisanbukao"]))

    # edit hand 2: it was 清一色 with a 财神 (1番, not 2): 2番 → 16. The other 清一色 is greyed
    # until the first is taken off
    page.locator("#hand-2 summary").click()
    page.locator("#hand-2").get_by_role("link", name="修改").click()
    expect(page.get_by_text("修改第2局")).to_be_visible()
    form_ready(page)
    expect(page.locator("#pt-qingyise")).to_be_checked()
    expect_refused_chip(page, "qingyise_cai", "清一色只能算一种")
    chip(page, "qingyise")
    chip(page, "qingyise_cai")
    expect_preview(page, "小李 2番 · 老王放铳", "小李", "+16")
    confirm(page)
    expected[1] = win(1, ["pengpenghu", "qingyise_cai"], discarder=0)

    # void hand 1 (老王 deals on either way)
    page.locator("#hand-1 summary").click()
    page.locator("#hand-1").get_by_role("link", name="作废").click()
    expect(page.get_by_text("作废第1局？")).to_be_visible()
    page.get_by_role("button", name="确认作废").click()
    expect(page.locator(".alert-success")).to_be_visible()
    expect(page.locator("#hand-1")).to_have_class(re.compile("voided"))
    del expected[0]

    game.refresh_from_db()
    stored = [h.entry for h in Hand.objects.filter(game=game, voided_at__isnull=True).order_by("seq")]
    assert stored == expected
    result = score_game({"ruleset": "wuyi2", "rules": game.rules, "first_dealer": game.first_dealer, "hands": stored})
    assert screen_totals(page) == result["totals"]
    assert sum(result["totals"]) == 0
    page.locator("#hand-4 summary").click()
    shot(page, "wuyi2-game-page")

    page.get_by_role("link", name="规则").click()  # the void's toast lets the tap through
    expect(page.locator("main")).to_contain_text("武义二人麻将")
    fan_rule = page.locator("dt").filter(has_text="番数表")
    expect(fan_rule).to_have_text("番数表: 按默认")  # the default table, not a raw 「{}」
    shot(page, "wuyi2-rules")

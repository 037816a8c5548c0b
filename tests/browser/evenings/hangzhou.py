"""杭州麻将's evening on a phone (390×844, tests/browser/test_evenings.py): a whole evening of 12 hands tapped in, as a 杭州 table plays it.
Only self-drawn wins, so a 平和 is the winner's tap and 确认; 爆头, a 财飘 ×2, a 豪华七对, 十风 with
无财神, two 承包 (the winner's 上家, then the winner's 下家), the dealer climbing to 三老庄 through
a draw and losing it, a 换人, then the settle-up and the picture. Each page it passes fits the
phone's width; the stored hands and the totals are checked against score_game.

The amounts (base 1, the rulebook's defaults: ×2/×4/×8 by 老庄, 4 番 at most), 老王 dealing first:
   1  阿明 平和                       老王 (庄) −2, 小李 −1, 阿芳 −1 → 阿明 +4; 阿明 deals
   2  阿明 (庄, 一老庄) 爆头 1番       each −4 → +12
   3  阿明 (二老庄) 财飘 ×2 = 3番      each −32 → +96
   4  流局                            阿明 三老庄 now
   5  小李 豪华七对 4番               阿明 (三老庄) −128, 老王 −16, 阿芳 −16 → +160; 小李 deals
   6  阿芳 杠开 1番, 承包: 阿芳 chowed three times from 小李 (her 上家, the dealer): 小李 alone
      pays T = 2 + 2 + 4 = 8; 阿芳 deals
      换人: 阿明 goes home, 大张 sits in 南; 阿芳 keeps the deal at 一老庄
   7  阿芳 (庄) 十风 + 无财神 3 + 1 = 4番   each −32 → +96
   8  大张 七对子 2番                  阿芳 (二老庄) −16, 老王 −4, 小李 −4 → +24; 大张 deals
   9  老王 爆头 + 杠开 2番              大张 (庄) −8, 小李 −4, 阿芳 −4 → +16; 老王 deals
  10  老王 (庄) 无财神 1番              each −4 → +12
  11  小李 财飘 ×1 + 杠开 = 3番, 承包: 阿芳 (小李's 下家) chowed three times from 小李: she alone
      pays 2 · T = 2 · (32 + 8 + 8) = 96; 小李 deals
  12  阿芳 平和                       小李 (庄) −2, 老王 −1, 大张 −1 → +4
"""

import base64
import re
import struct

from playwright.sync_api import expect

from scoring.engine import score_game
from scoring.models import Game, Hand
from tests.browser.conftest import SCREENSHOTS
from tests.browser.helpers import confirm, form_ready, number, screen_totals

NAMES = ["老王", "阿明", "小李", "阿芳"]  # 东南西北; 老王 deals first
# Each person over the seats they sat in (阿明 sits out after hand 6, 大张 sits in for him).
PEOPLE = {"老王": -2 - 4 - 32 - 16 - 32 - 4 + 16 + 12 - 1, "阿明": 4 + 12 + 96 - 128}
PEOPLE |= {
    "小李": -1 - 4 - 32 + 160 - 8 - 32 - 4 - 4 - 4 + 96 - 2,
    "阿芳": -1 - 4 - 32 - 16 + 8 + 96 - 16 - 4 - 4 - 96 + 4,
}
PEOPLE |= {"大张": -32 + 24 - 8 - 4 - 1}


def fits(page) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= 390, page.url


def winner(page, name: str) -> None:
    """The game page's record button for ``name``: the sheet and its preview, at once."""
    page.locator("section.record").get_by_role("link", name=name, exact=True).click()
    form_ready(page)
    expect(page.locator("#sheet")).to_contain_text(f"{name} · 自摸")


def chip(page, chip_id: str) -> None:
    """Tap a chip (the LABEL of a hidden input) and wait for the sheet to come back with it:
    the whole sheet is replaced on each tap, greying what can no longer join."""
    page.locator(f"label[for={chip_id}]").click()
    expect(page.locator(f"#{chip_id}")).to_be_checked()


def expect_refused(page, chip_id: str, note_id: str, reason: str) -> None:
    """A greyed chip: disabled, a tap does nothing, its reason under the group."""
    box = page.locator(f"#{chip_id}")
    expect(box).to_be_disabled()
    expect(box).to_have_attribute("aria-describedby", note_id)
    page.locator(f"label[for={chip_id}]").click(force=True)
    expect(box).not_to_be_checked()
    note = page.locator(f"#{note_id}")
    expect(note).to_contain_text(reason)
    assert "§" not in note.inner_text()


def expect_preview(page, title: str, nets: dict[str, str]) -> None:
    panel = page.locator("#preview-panel")
    expect(panel.locator(".preview .fw-semibold").first).to_have_text(title)
    for name, net in nets.items():
        cell = panel.locator(".preview .col").filter(has=page.locator(".small", has_text=re.compile(f"^{name}$")))
        expect(cell.locator(".fs-4")).to_have_text(net)


def dealer_badge(page) -> str:
    return page.locator(".tile-dealer .badge.text-bg-danger").inner_text()


def evening(page, live_server, shot, look):
    expected: list[dict] = []

    page.goto(live_server.url + "/new")
    page.locator(".rulesets").get_by_role("link", name="杭州麻将").click()
    expect(page.locator(".rulesets [aria-current=true]")).to_have_text("杭州麻将")
    for seat, name in enumerate(NAMES):
        page.fill(f"#id_name{seat}", name)
    page.locator("details summary", has_text="约定").click()
    expect(page.locator("#id_laozhuang__3")).to_have_value("8")
    fits(page)
    shot(page, "hangzhou-new-game")
    page.get_by_role("button", name="开始").click()
    expect(page.get_by_text("记一局：谁胡了？")).to_be_visible()
    game = Game.objects.get()
    assert game.ruleset == "hangzhou"
    assert dealer_badge(page) == "庄·一老庄"

    # 1. 阿明 平和: the winner's tap, then 确认
    winner(page, "阿明")
    expect_preview(page, "阿明 自摸 0番", {"老王": "−2", "阿明": "+4", "小李": "−1", "阿芳": "−1"})
    expect(page.locator("#preview-panel .why")).to_contain_text("2^0 番（平和）× 2 庄·一老庄")
    confirm(page)
    expected.append({"outcome": "win", "winner": 1})
    assert dealer_badge(page) == "庄·一老庄"
    expect(page.locator(".tile-dealer")).to_contain_text("阿明")  # the winner deals next

    # 2. 阿明 deals and wins 爆头: 2 from each, × 2
    winner(page, "阿明")
    chip(page, "pt-baotou")
    expect_preview(page, "阿明 自摸 1番", {"阿明": "+12"})
    confirm(page)
    expected.append({"outcome": "win", "winner": 1, "patterns": ["baotou"]})
    assert dealer_badge(page) == "庄·二老庄"

    # 3. 阿明 at 二老庄, 财飘 ×2: 爆头 1 + 财飘 2 = 3番 → 8 × 4 from each. With 财飘 chosen, 无财神
    #    and the 十风 are greyed
    winner(page, "阿明")
    chip(page, "pt-caipiao2")
    expect_refused(page, "pt-no_caishen", "why-no_caishen", "要手里有财神")
    expect_refused(page, "pt-shifeng", "why-shifeng", "单独的一种胡法")
    expect_preview(page, "阿明 自摸 3番", {"阿明": "+96", "老王": "−32"})
    expect(page.locator("#preview-panel .why")).to_contain_text("2^3 番（爆头1 + 财飘1×2）× 4 庄·二老庄")
    fits(page)
    look("hangzhou-sheet-caipiao")
    shot(page, "hangzhou-sheet-caipiao")
    confirm(page)
    expected.append({"outcome": "win", "winner": 1, "caipiao": 2})

    # 4. a draw: 阿明 deals again, 三老庄
    page.locator("section.record").get_by_role("link", name="流局").click()
    expect(page.locator("#preview-panel")).to_contain_text("流局")
    look("hangzhou-draw")
    confirm(page)
    expected.append({"outcome": "draw"})
    assert dealer_badge(page) == "庄·三老庄"
    fits(page)
    look("hangzhou-game")
    shot(page, "hangzhou-game-sanlaozhuang")

    # 5. 小李 豪华七对 (4番, B = 16): the 三老庄 dealer pays 16 × 8 = 128, and loses the deal;
    #    杠开 cannot go with seven pairs
    winner(page, "小李")
    chip(page, "pt-haohua_qidui")
    expect_refused(page, "pt-gangkai", "why-gangkai", "没有杠")
    expect_refused(page, "pt-qidui", "why-qidui", "只能算一个")
    expect_preview(page, "小李 自摸 4番", {"阿明": "−128", "老王": "−16", "阿芳": "−16", "小李": "+160"})
    confirm(page)
    expected.append({"outcome": "win", "winner": 2, "patterns": ["haohua_qidui"]})
    expect(page.locator(".tile-dealer")).to_contain_text("小李")
    assert dealer_badge(page) == "庄·一老庄"

    # 6. 阿芳 杠开, having chowed three times from 小李 (her 上家): 承包 names both sides with what
    #    each would pay; 小李 alone pays T = 2 + 2 + 4 = 8
    winner(page, "阿芳")
    chip(page, "pt-gangkai")
    liable = page.locator(".sheet-row[aria-label=承包]")
    expect(liable.locator("label[for=cb-upper]")).to_contain_text("小李包")
    expect(liable.locator("label[for=cb-upper]")).to_contain_text("阿芳吃了他三次")
    expect(liable.locator("label[for=cb-upper]")).to_contain_text("一家付 8")
    expect(liable.locator("label[for=cb-lower]")).to_contain_text("老王包")
    expect(liable.locator("label[for=cb-lower]")).to_contain_text("一家付双倍 16")
    chip(page, "cb-upper")
    expect_preview(page, "阿芳 自摸 1番 · 小李承包", {"小李": "−8", "老王": "0", "阿明": "0", "阿芳": "+8"})
    expect(page.locator("#preview-panel .why")).to_contain_text("包三家（胡家吃了上家三次）")
    fits(page)
    look("hangzhou-sheet-chengbao")
    shot(page, "hangzhou-preview-chengbao")
    confirm(page)
    expected.append({"outcome": "win", "winner": 3, "patterns": ["gangkai"], "chengbao": [3]})

    # 换人: 阿明 goes home, 大张 sits in 南; 阿芳 keeps the deal, at 一老庄
    page.locator(".seating-link").click()
    expect(page.locator(".seating-menu").get_by_role("link", name=re.compile("^换人"))).to_be_visible()
    look("seating-menu")
    page.locator(".seating-menu").get_by_role("link", name=re.compile("^换人")).click()
    page.get_by_role("link", name="南 阿明").click()
    page.fill("#id_name", "大张")
    page.get_by_role("button", name="坐进来").click()
    expect(page.locator(".seating-preview")).to_contain_text("轮空（不在桌上）: 阿明")
    expect(page.locator(".seating-preview .new-dealer")).to_contain_text("阿芳 坐庄 · 一老庄")
    fits(page)
    look("seating-preview")
    page.get_by_role("button", name="确认换人/换位").click()
    expect(page.locator(".alert-success")).to_contain_text("已换人/换位。")
    expect(page.locator(".tile-dealer")).to_contain_text("阿芳")

    # 7. 阿芳 deals: 十风 with 无财神, 3 + 1 = 4番 → 16 × 2 from each
    winner(page, "阿芳")
    chip(page, "pt-shifeng")
    chip(page, "pt-no_caishen")
    expect_refused(page, "cb-upper", "why-cb-upper", "没有吃牌")
    expect_preview(page, "阿芳 自摸 4番", {"阿芳": "+96", "大张": "−32"})
    look("hangzhou-sheet-shifeng")
    confirm(page)
    expected.append({"outcome": "win", "winner": 3, "patterns": ["shifeng", "no_caishen"]})
    assert dealer_badge(page) == "庄·二老庄"

    # 8. 大张 七对子: 4 from each, the 二老庄 dealer 16
    winner(page, "大张")
    chip(page, "pt-qidui")
    expect_preview(page, "大张 自摸 2番", {"阿芳": "−16", "老王": "−4", "小李": "−4", "大张": "+24"})
    confirm(page)
    expected.append({"outcome": "win", "winner": 1, "patterns": ["qidui"]})

    # 9. 老王 爆头 + 杠开 = 2番: 4 each, the dealer 大张 8
    winner(page, "老王")
    chip(page, "pt-baotou")
    chip(page, "pt-gangkai")
    expect_preview(page, "老王 自摸 2番", {"大张": "−8", "老王": "+16"})
    confirm(page)
    expected.append({"outcome": "win", "winner": 0, "patterns": ["baotou", "gangkai"]})

    # 10. 老王 deals: 无财神 1番 → 2 × 2 from each
    winner(page, "老王")
    chip(page, "pt-no_caishen")
    expect_refused(page, "pt-baotou", "why-baotou", "要手里有财神")
    expect_preview(page, "老王 自摸 1番", {"老王": "+12"})
    confirm(page)
    expected.append({"outcome": "win", "winner": 0, "patterns": ["no_caishen"]})

    # 11. 小李 财飘 ×1 + 杠开 = 3番; 阿芳 (his 下家) chowed three times from him: she pays 2 · T = 96
    winner(page, "小李")
    chip(page, "pt-caipiao1")
    chip(page, "pt-gangkai")
    expect(page.locator("label[for=cb-lower]")).to_contain_text("一家付双倍 96")
    chip(page, "cb-lower")
    expect_preview(page, "小李 自摸 3番 · 阿芳承包", {"阿芳": "−96", "老王": "0", "小李": "+96"})
    look("hangzhou-sheet-chengbao-lower")
    confirm(page)
    expected.append({"outcome": "win", "winner": 2, "patterns": ["gangkai"], "caipiao": 1, "chengbao": [3]})

    # 12. 阿芳 平和
    winner(page, "阿芳")
    expect_preview(page, "阿芳 自摸 0番", {"小李": "−2", "阿芳": "+4"})
    confirm(page)
    expected.append({"outcome": "win", "winner": 3})

    stored = [h.entry for h in Hand.objects.filter(game=game).order_by("seq") if h.entry["outcome"] != "seating"]
    assert stored == expected
    assert len(stored) == 12
    everything = [h.entry for h in Hand.objects.filter(game=game).order_by("seq")]
    result = score_game({"ruleset": "hangzhou", "players": NAMES, "hands": everything})
    assert {p["name"]: p["total"] for p in result["people"]} == PEOPLE
    assert screen_totals(page) == [PEOPLE[name] for name in ("老王", "大张", "小李", "阿芳")]  # who sits now
    expect(page.locator("#tiles .sitting-out")).to_contain_text("阿明")
    page.locator("#hand-3 summary").click()
    expect(page.locator("#hand-3")).to_contain_text("庄: 阿明 · 二老庄")
    fits(page)
    shot(page, "hangzhou-game-page")

    # Settle by person (阿明 sitting out included), then the picture of the evening
    page.locator(".links").get_by_role("link", name="结算").click()
    expect(page.locator("label[for=rate1]")).to_be_visible()
    look("settle", taps=True)
    page.locator("label[for=rate1]").click()
    page.get_by_role("button", name="预览").click()
    expect(page.locator("#settle-preview .balances tbody tr")).to_have_count(5)
    page.get_by_role("button", name="结束并结算").click()
    expect(page.locator(".transfers")).to_be_visible()
    look("settled", taps=True)
    rows = [row.split("\t") for row in page.locator(".balances tbody tr").all_inner_texts()]
    assert {name: number(points) for name, points, _yuan in rows} == PEOPLE
    assert sum(number(yuan) for *_rest, yuan in rows) == 0
    fits(page)
    shot(page, "hangzhou-settle")
    page.get_by_role("link", name="生成图片").click()
    expect(page.get_by_text("长按图片保存或发送")).to_be_visible()
    picture = page.locator("img[data-picture]")
    expect(picture).to_have_attribute("data-png", "1")
    look("picture")
    png = base64.b64decode(picture.get_attribute("src").split(",", 1)[1])
    width, height = struct.unpack(">II", png[16:24])  # the PNG's IHDR
    assert width == 1080
    assert height > 1200
    SCREENSHOTS.mkdir(exist_ok=True)
    (SCREENSHOTS / "picture-hangzhou.png").write_bytes(png)

    page.goto(f"{live_server.url}/g/{game.edit_token}/rules")
    expect(page.locator("main")).to_contain_text("杭州麻将")
    expect(page.locator("main")).to_contain_text("三老庄")
    fits(page)
    look("hangzhou-rules")
    shot(page, "hangzhou-rules")

"""诸暨 on a phone: create the game, record an evening on the 台 sheet, fix two hands, check totals."""

import re
from fractions import Fraction

import pytest
from playwright.sync_api import expect

from scoring.engine import score_game
from scoring.models import Game, Hand
from tests.browser.helpers import confirm, form_ready, screen_totals

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NAMES = ["老王", "小李", "阿华", "大刘"]  # seats 0-3; 老王 deals first


class Taps:
    """Every tap the test makes goes through here, so a hand's taps can be counted."""

    def __init__(self, page):
        self.page, self.count = page, 0

    def link(self, name) -> None:
        self.count += 1
        self.page.get_by_role("link", name=name, exact=isinstance(name, str)).first.click()

    def chip(self, input_id: str) -> None:
        """A chip is the LABEL of a hidden btn-check input."""
        self.count += 1
        self.page.locator(f"label[for={input_id}]").click()

    def step(self, delta: int) -> None:
        self.count += 1
        self.page.locator(f"[data-step-for=id_extra][data-step='{delta}']").click()

    def winner(self, name: str) -> None:
        """On the game page (or the 谁胡了 step): the winner's big red button."""
        self.link(name)

    def discarder(self, name: str) -> None:
        self.link(re.compile(f"^{name}\\s*放冲"))


def expect_preview(page, title: str, winner: str, net: str) -> None:
    """Waits for the htmx preview to show ``title`` (e.g. 「阿华 6台 · 老王放冲」) and ``net`` for the winner."""
    panel = page.locator("#preview-panel")
    expect(panel.locator(".preview .fw-semibold").first).to_have_text(title)
    cell = panel.locator(".preview .col").filter(has=page.locator(".small", has_text=re.compile(f"^{winner}$")))
    expect(cell.locator(".fs-4")).to_have_text(net)


def expect_refused(page, words: str) -> None:
    panel = page.locator("#preview-panel")
    expect(panel.locator(".alert-danger")).to_contain_text(words)
    expect(panel.get_by_role("button", name=re.compile("^确认"))).to_have_count(0)


def expect_requirement(page, words: str) -> None:
    """A sheet not done yet says what it needs, plainly (red is for a refused confirm)."""
    panel = page.locator("#preview-panel")
    expect(panel.locator(".requirement")).to_contain_text(words)
    expect(panel.locator(".alert-danger")).to_have_count(0)
    expect(panel.get_by_role("button", name=re.compile("^确认"))).to_have_count(0)


def test_a_zhuji_evening_on_a_phone(live_server, phone, shot):
    page, tap = phone, Taps(phone)
    expected = []

    # the ruleset first, then the names
    page.goto(live_server.url + "/new")
    page.locator(".rulesets").get_by_role("link", name="诸暨麻将").click()
    expect(page.locator(".rulesets [aria-current=true]")).to_have_text("诸暨麻将")
    expect(page.locator("#id_tai_cap")).to_be_attached()
    for seat, name in enumerate(NAMES):
        page.fill(f"#id_name{seat}", name)
    shot(page, "zhuji-new-game")
    page.get_by_role("button", name="开始").click()
    expect(page.get_by_text("记一局：谁胡了？")).to_be_visible()
    game = Game.objects.get()
    assert game.ruleset == "zhuji"

    # 1. 小李 自摸, 1台 平胡: winner, 自摸, 平胡 — three taps, then 确认
    tap.count = 0
    tap.winner("小李")
    tap.link("自摸")
    form_ready(page)
    expect_requirement(page, "至少要1台")  # nothing on the sheet yet
    tap.chip("sh-pinghu")
    expect_preview(page, "小李 自摸 1台", "小李", "+6")
    first_hand_taps = tap.count
    assert first_hand_taps == 3
    confirm(page)
    assert tap.count + 1 <= 4 + 1  # ≤ 4 taps and the confirm
    expected.append({"outcome": "win", "winner": 1, "tai": {"shape": "pinghu"}})

    # 2. 小李 deals. A wrong winner and a wrong 自摸 are taken back; then 阿华 on 老王's discard,
    #    中 发, her own wind 南, 对对胡, 混一色, and 1 其他台 by + + −
    expect(page.locator(".tile-dealer")).to_contain_text("小李")
    tap.winner("大刘")
    expect(page.get_by_text("大刘 胡了 — 自摸，还是谁放冲？")).to_be_visible()
    tap.link("← 改胡牌者")
    expect(page.get_by_text("谁胡了？", exact=True)).to_be_visible()
    tap.winner("阿华")
    tap.link("自摸")
    form_ready(page)
    expect(page.locator("#hand-form")).to_contain_text("阿华 · 自摸")
    tap.chip("dr-zhong")
    tap.chip("dr-fa")
    expect_preview(page, "阿华 自摸 2台", "阿华", "+12")
    tap.link("改")  # it was 老王's discard: the chips tapped so far come along
    expect(page.get_by_text("阿华 胡了 — 自摸，还是谁放冲？")).to_be_visible()
    tap.discarder("老王")
    form_ready(page)
    expect(page.locator("#hand-form")).to_contain_text("阿华 · 老王放冲")
    expect(page.locator("#dr-zhong")).to_be_checked()
    expect(page.locator("#dr-fa")).to_be_checked()
    expect_preview(page, "阿华 2台 · 老王放冲", "阿华", "+8")
    own = page.locator("label[for=wd-nan]")
    expect(own).to_have_class(re.compile("own-wind"))
    expect(own).to_contain_text("阿华 · 自己")
    for chip in ("wd-nan", "sh-duiduihu", "fl-hunyise"):
        tap.chip(chip)
    expect_preview(page, "阿华 5台 · 老王放冲", "阿华", "+64")
    tap.step(1)
    tap.step(1)
    expect_preview(page, "阿华 7台 · 老王放冲", "阿华", "+256")
    tap.step(-1)
    expect(page.locator("#id_extra")).to_have_value("1")
    expect_preview(page, "阿华 6台 · 老王放冲", "阿华", "+128")  # 老王 64, 小李 and 大刘 32 each
    expect(page.locator("#preview-panel .change")).to_contain_text("+126")  # 阿华 −2 → +126
    for chip in ("dr-zhong", "dr-fa", "wd-nan", "sh-duiduihu", "fl-hunyise"):
        expect(page.locator(f"#{chip}")).to_be_checked()
    expect(page.locator("main")).not_to_contain_text("{#")  # no template comment leaks onto the page
    shot(page, "zhuji-sheet")
    confirm(page)
    expected.append(
        {
            "outcome": "win",
            "winner": 2,
            "discarder": 0,
            "tai": {
                "dragon_pungs": ["zhong", "fa"],
                "wind_pungs": ["nan"],
                "shape": "duiduihu",
                "hunyise": True,
                "extra": 1,
            },
        }
    )

    # 3. 阿华 deals. 大刘 on 小李's discard, 无财 at 0台 (北 is 小李's wind: 0台 for 大刘): halves
    tap.winner("大刘")
    tap.discarder("小李")
    form_ready(page)
    tap.chip("wd-bei")
    expect_requirement(page, "至少要1台")
    tap.chip("fl-no_caishen")
    expect_preview(page, "大刘 0台 · 小李放冲", "大刘", "+2")
    expect(page.locator("#preview-panel .why")).to_contain_text("0.5")
    shot(page, "zhuji-preview-halves")
    confirm(page)
    expected.append({"outcome": "win", "winner": 3, "discarder": 1, "tai": {"wind_pungs": ["bei"], "no_caishen": True}})

    # 4. 大刘 deals (东 is worth 2 to the dealer). 杠开 自摸 with 东, 白 and 西 (小李's wind, 0台);
    #    平胡 with pungs is refused, then 其他
    tap.winner("大刘")
    tap.link("自摸")
    form_ready(page)
    for chip in ("wd-dong", "dr-bai", "wd-xi", "fl-gangkai", "sh-pinghu"):
        tap.chip(chip)
    expect_refused(page, "平胡四副都是顺子")
    tap.chip("sh-mixed")
    expect_preview(page, "大刘 自摸 3台", "大刘", "+24")
    confirm(page)
    expected.append(
        {
            "outcome": "win",
            "winner": 3,
            "tai": {"dragon_pungs": ["bai"], "wind_pungs": ["dong", "xi"], "gangkai": True},
        }
    )

    # 5. 老王 robs 大刘's kong: 平胡 + 抢杠 = 2台
    expect(page.locator(".tile-dealer")).to_contain_text("连1")
    tap.winner("老王")
    tap.discarder("大刘")
    form_ready(page)
    tap.chip("sh-pinghu")
    tap.chip("fl-qianggang")
    expect_preview(page, "老王 2台 · 大刘放冲", "老王", "+8")
    confirm(page)
    expected.append({"outcome": "win", "winner": 0, "discarder": 3, "tai": {"shape": "pinghu", "qianggang": True}})

    # 6. 老王 deals: 天胡 (全字 first, then 天胡): a flat 8台
    tap.winner("老王")
    tap.link("自摸")
    form_ready(page)
    tap.chip("sp-quanzi")
    expect_preview(page, "老王 自摸 8台", "老王", "+768")
    tap.chip("sp-tianhu")
    expect(page.locator("#sp-tianhu")).to_be_checked()
    expect(page.locator("#sp-quanzi")).not_to_be_checked()
    expect_preview(page, "老王 自摸 8台", "老王", "+768")
    confirm(page)
    expected.append({"outcome": "win", "winner": 0, "tai": {"special": "tianhu"}})

    # 7. 小李 地胡 on the dealer 老王's first discard; 全字 then — clears the special first
    tap.winner("小李")
    tap.discarder("老王")
    form_ready(page)
    tap.chip("sp-quanzi")
    expect_preview(page, "小李 8台 · 老王放冲", "小李", "+512")
    tap.chip("sp-none")
    expect_requirement(page, "至少要1台")
    tap.chip("sp-dihu")
    expect_preview(page, "小李 8台 · 老王放冲", "小李", "+512")
    confirm(page)
    expected.append({"outcome": "win", "winner": 1, "discarder": 0, "tai": {"special": "dihu"}})

    # 8. a draw
    tap.link("流局")
    expect(page.locator("#preview-panel")).to_contain_text("流局")
    confirm(page)
    expected.append({"outcome": "draw"})

    # 9. 阿华 自摸 全字
    tap.winner("阿华")
    tap.link("自摸")
    form_ready(page)
    tap.chip("sp-quanzi")
    expect_preview(page, "阿华 自摸 8台", "阿华", "+768")
    confirm(page)
    expected.append({"outcome": "win", "winner": 2, "tai": {"special": "quanzi"}})

    # edit hand 2: no 混一色 and no 其他台 after all (4台)
    page.locator("#hand-2 summary").click()
    page.locator("#hand-2").get_by_role("link", name="修改").click()
    expect(page.get_by_text("修改第2局")).to_be_visible()
    form_ready(page)
    expect(page.locator("#fl-hunyise")).to_be_checked()
    expect(page.locator("#id_extra")).to_have_value("1")
    tap.step(-1)
    tap.chip("fl-hunyise")
    expect_preview(page, "阿华 4台 · 老王放冲", "阿华", "+32")
    confirm(page)
    del expected[1]["tai"]["hunyise"], expected[1]["tai"]["extra"]

    # void hand 4 (大刘's 杠开 自摸; he deals on either way)
    page.locator("#hand-4 summary").click()
    page.locator("#hand-4").get_by_role("link", name="作废").click()
    expect(page.get_by_text("作废第4局？")).to_be_visible()
    page.get_by_role("button", name="确认作废").click()
    expect(page.locator(".alert-success")).to_be_visible()
    expect(page.locator("#hand-4")).to_have_class(re.compile("voided"))
    voided = expected.pop(3)
    assert voided["tai"].get("gangkai")

    # the stored hands are the ones tapped in, and the screen agrees with score_game
    game.refresh_from_db()
    stored = [h.entry for h in Hand.objects.filter(game=game, voided_at__isnull=True).order_by("seq")]
    assert stored == expected
    result = score_game({"ruleset": "zhuji", "rules": game.rules, "first_dealer": game.first_dealer, "hands": stored})
    totals = [Fraction(str(t)) for t in result["totals"]]
    assert screen_totals(page) == totals
    assert sum(totals) == 0
    assert any(t.denominator == 2 for t in totals)  # hand 3's halves
    half = page.locator(".total[data-seat='0']").inner_text()
    assert re.fullmatch(r"[+\u2212]\d+\.5", half), half
    page.locator("#hand-3 summary").click()
    shot(page, "zhuji-game-page")

    page.get_by_role("link", name="规则").click()  # the void's toast lets the tap through
    expect(page.locator("main")).to_contain_text("诸暨麻将")
    shot(page, "zhuji-rules")

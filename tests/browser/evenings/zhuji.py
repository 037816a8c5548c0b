"""诸暨's evening on a phone (tests/browser/test_evenings.py): create the game, tap in an evening on the 台 sheet, fix two hands, check totals.

Each kind of tap once: the winner and 自摸/放冲 links, a wrong winner taken back, chips (labels of
hidden inputs) refreshing the preview by htmx, 「改」 keeping the chips, the stepper's + and −,
one special at a time, a requirement and a refusal said in the panel, edit and void from the hand
list. The amounts of every sheet of a longer evening, its refusals, stored hands and half-point
totals are checked without a browser in tests/rulesets/zhuji/test_it_zhuji_evening.py."""

import re
from fractions import Fraction

from playwright.sync_api import expect

from scoring.engine import get_ruleset, score_game
from scoring.models import Game, Hand
from tests.browser.evenings import void
from tests.browser.helpers import confirm, form_ready, screen_totals

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


def evening(page, live_server, shot, look):
    tap = Taps(page)
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
    # the form's defaults: the rules of tests/rulesets/zhuji/test_it_zhuji_evening.py's game, whose evening
    # checks each sheet's amounts
    assert game.rules == get_ruleset("zhuji").rules_class().to_dict()

    # 1. 小李 自摸, 1台 平胡: winner, 自摸, 平胡 — three taps, then 确认
    tap.count = 0
    tap.winner("小李")
    tap.link("自摸")
    form_ready(page)
    expect_requirement(page, "至少要1台")  # nothing on the sheet yet
    tap.chip("sh-pinghu")
    expect_preview(page, "小李 自摸 1台", "小李", "+6")
    look("zhuji-sheet", taps=True)
    first_hand_taps = tap.count
    assert first_hand_taps == 3
    confirm(page)
    assert tap.count + 1 <= 4 + 1  # ≤ 4 taps and the confirm
    expected.append({"outcome": "win", "winner": 1, "tai": {"shape": "pinghu"}})

    # 2. 小李 deals. A wrong winner is taken back; 阿华 自摸 中 发, then 「改」 to 老王's discard (the
    #    chips come along), 混一色, and 1 其他台 by the stepper's +
    expect(page.locator(".tile-dealer")).to_contain_text("小李")
    tap.winner("大刘")
    expect(page.get_by_text("大刘 胡了 — 自摸，还是谁放冲？")).to_be_visible()
    look("zhuji-how", axe=False, taps=True)
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
    tap.chip("fl-hunyise")
    expect_preview(page, "阿华 3台 · 老王放冲", "阿华", "+16")
    tap.step(1)
    expect(page.locator("#id_extra")).to_have_value("1")
    expect_preview(page, "阿华 4台 · 老王放冲", "阿华", "+32")
    for chip in ("dr-zhong", "dr-fa", "fl-hunyise"):  # only the head is swapped: the chips stay as tapped
        expect(page.locator(f"#{chip}")).to_be_checked()
    shot(page, "zhuji-sheet")
    confirm(page)
    expected.append(
        {
            "outcome": "win",
            "winner": 2,
            "discarder": 0,
            "tai": {"dragon_pungs": ["zhong", "fa"], "hunyise": True, "extra": 1},
        }
    )

    # 3. 阿华 deals and 自摸 with 白: 平胡 with a pung is refused in the panel, 其他 is not
    tap.winner("阿华")
    tap.link("自摸")
    form_ready(page)
    tap.chip("dr-bai")
    tap.chip("sh-pinghu")
    expect_refused(page, "平胡四副都是顺子")
    tap.chip("sh-mixed")
    expect_preview(page, "阿华 自摸 1台", "阿华", "+6")
    confirm(page)
    expected.append({"outcome": "win", "winner": 2, "tai": {"dragon_pungs": ["bai"]}})

    # 4. 阿华 deals on: 全字, then 天胡 in its place (one special at a time), then — (none) leaves
    #    the sheet needing its 1台 again, and 天胡 once more: a flat 8台
    expect(page.locator(".tile-dealer")).to_contain_text("连1")
    tap.winner("阿华")
    tap.link("自摸")
    form_ready(page)
    tap.chip("sp-quanzi")
    expect_preview(page, "阿华 自摸 8台", "阿华", "+768")
    tap.chip("sp-tianhu")
    expect(page.locator("#sp-tianhu")).to_be_checked()
    expect(page.locator("#sp-quanzi")).not_to_be_checked()
    tap.chip("sp-none")
    expect(page.locator("#sp-tianhu")).not_to_be_checked()
    expect_requirement(page, "至少要1台")
    tap.chip("sp-tianhu")
    expect_preview(page, "阿华 自摸 8台", "阿华", "+768")
    confirm(page)
    expected.append({"outcome": "win", "winner": 2, "tai": {"special": "tianhu"}})

    # edit hand 2: no 混一色 and no 其他台 after all (2台): the stepper's −
    page.locator("#hand-2 summary").click()
    page.locator("#hand-2").get_by_role("link", name="修改").click()
    expect(page.get_by_text("修改第2局")).to_be_visible()
    page.locator("a:has(.was-mark)").click()  # the record flow's questions: each 原来 answer
    expect(page.locator(".question")).to_contain_text("胡了 —")
    page.locator("a:has(.was-mark)").click()
    form_ready(page)
    expect(page.locator("#fl-hunyise")).to_be_checked()
    expect(page.locator("#id_extra")).to_have_value("1")
    tap.step(-1)
    expect(page.locator("#id_extra")).to_have_value("0")
    expect_preview(page, "阿华 3台 · 老王放冲", "阿华", "+16")
    tap.chip("fl-hunyise")
    expect_preview(page, "阿华 2台 · 老王放冲", "阿华", "+8")
    confirm(page)
    del expected[1]["tai"]["hunyise"], expected[1]["tai"]["extra"]

    # void hand 3 (阿华's 白 自摸; she deals on either way)
    void(page, 3)
    del expected[2]

    # the stored hands are the ones tapped in, and the screen agrees with score_game
    game.refresh_from_db()
    stored = [h.entry for h in Hand.objects.filter(game=game, voided_at__isnull=True).order_by("seq")]
    assert stored == expected
    result = score_game({"ruleset": "zhuji", "rules": game.rules, "first_dealer": game.first_dealer, "hands": stored})
    assert screen_totals(page) == [Fraction(str(t)) for t in result["totals"]]
    page.locator("#hand-2 summary").click()
    shot(page, "zhuji-game-page")

    page.get_by_role("link", name="规则").click()  # the void's toast lets the tap through
    expect(page.locator("main")).to_contain_text("诸暨麻将")
    shot(page, "zhuji-rules")

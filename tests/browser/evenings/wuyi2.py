"""武义二人's evening on a phone (tests/browser/test_evenings.py): create the game, tap in an evening with the pattern chips (refused chips
greyed with their reason), fix two hands, check the totals.

Each kind of tap once: chips (labels of hidden inputs) bringing the sheet back by htmx with what
can no longer join greyed, a tap on a greyed chip doing nothing, 「改」 keeping the chips, a draw,
edit (un-greying a chip) and void from the hand list. Every sheet of a longer evening, each greyed
chip's reason, the stored hands and the totals are checked without a browser in
tests/rulesets/wuyi2/test_it_wuyi2_evening.py."""

import re

from playwright.sync_api import expect

from scoring.engine import get_ruleset, score_game
from scoring.models import Game, Hand
from tests.browser.evenings import void
from tests.browser.helpers import confirm, form_ready, screen_totals

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


def evening(page, live_server, shot, look):
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
    # the form's defaults: the rules of tests/rulesets/wuyi2/test_it_wuyi2_evening.py's game, whose evening
    # checks each sheet's amounts and greyed chips
    assert game.rules == get_ruleset("wuyi2").rules_class().to_dict()

    # 1. the dealer 老王 自摸, 平胡 (the shape already chosen): 2 taps. 地胡 needs a discarder:
    #    greyed, a tap on it does nothing
    link(page, "老王")
    expect(page.get_by_text("老王 胡了 — 自摸还是放铳？")).to_be_visible()
    look("wuyi2-how", axe=False, taps=True)
    link(page, "自摸")
    form_ready(page)
    expect(page.locator("#pt-pinghu")).to_be_checked()
    expect_preview(page, "老王 自摸 1番", "老王", "+4")
    look("wuyi2-sheet", taps=True)
    expect_refused_chip(page, "dihu", "需要庄家放铳")
    confirm(page)
    expected.append(win(0, ["pinghu"]))

    # 2. 小李 on 老王's discard: 碰碰胡 + 清一色 = 3番 → 8 ×2 (放铳) ×2 (庄) = 32
    link(page, "小李")
    link(page, re.compile(r"^老王\s*放铳"))
    form_ready(page)
    chip(page, "pengpenghu")
    chip(page, "qingyise")
    expect_preview(page, "小李 3番 · 老王放铳", "小李", "+32")
    confirm(page)
    expected.append(win(1, ["pengpenghu", "qingyise"], discarder=0))

    # 3. 小李 deals, on 老王's discard with 财神头; 「改」 to 自摸 (the chip comes along), then 杠开:
    #    2 + 1 + 1 (自摸) = 4番 → 16 ×2 = 32. The sheet comes back with the 清一色 without 财神 greyed
    link(page, "小李")
    link(page, re.compile(r"^老王\s*放铳"))
    form_ready(page)
    chip(page, "caishentou")
    link(page, "改")
    link(page, "自摸")
    form_ready(page)
    expect(page.locator("#sheet")).to_contain_text("小李 · 自摸 +1番")
    expect(page.locator("#pt-caishentou")).to_be_checked()
    chip(page, "gangkai")
    expect_preview(page, "小李 自摸 4番", "小李", "+32")
    expect_refused_chip(page, "qingyise", "财神头有财神，清一色应选")
    page.locator("#why-qingyise").scroll_into_view_if_needed()
    shot(page, "wuyi2-sheet-disabled")
    confirm(page)
    expected.append(win(1, ["pinghu", "caishentou", "gangkai"]))

    # 4. a draw
    link(page, "流局")
    expect(page.locator("#preview-panel")).to_contain_text("流局")
    confirm(page)
    expected.append({"outcome": "draw"})

    # edit hand 2: it was 清一色 with a 财神 (1番, not 2): 2番 → 16. The other 清一色 is greyed
    # until the first is taken off
    page.locator("#hand-2 summary").click()
    page.locator("#hand-2").get_by_role("link", name="修改").click()
    expect(page.get_by_text("修改第2局")).to_be_visible()
    page.locator("a:has(.was-mark)").click()  # the record flow's questions: each 原来 answer
    expect(page.locator(".question")).to_contain_text("胡了 —")
    page.locator("a:has(.was-mark)").click()
    form_ready(page)
    expect(page.locator("#pt-qingyise")).to_be_checked()
    expect_refused_chip(page, "qingyise_cai", "清一色只能算一种")
    chip(page, "qingyise")
    chip(page, "qingyise_cai")
    expect_preview(page, "小李 2番 · 老王放铳", "小李", "+16")
    shot(page, "wuyi2-preview")
    confirm(page)
    expected[1] = win(1, ["pengpenghu", "qingyise_cai"], discarder=0)

    # void hand 1 (老王 deals on either way)
    void(page, 1)
    del expected[0]

    game.refresh_from_db()
    stored = [h.entry for h in Hand.objects.filter(game=game, voided_at__isnull=True).order_by("seq")]
    assert stored == expected
    result = score_game({"ruleset": "wuyi2", "rules": game.rules, "first_dealer": game.first_dealer, "hands": stored})
    assert screen_totals(page) == result["totals"]
    page.locator("#hand-3 summary").click()
    shot(page, "wuyi2-game-page")

    page.get_by_role("link", name="规则").click()  # the void's toast lets the tap through
    expect(page.locator("main")).to_contain_text("武义二人麻将")
    shot(page, "wuyi2-rules")

"""Doubled text with long names, which the whole evening's people (two characters each) cannot
show: six people over two seat changes, 诸葛大力, 欧阳小明, Christopher, 上官婉儿, 司马相如, with
three-digit totals, on a 390×844 phone at its normal text size and at 200 %, and on a 320 px
phone at 200 %: the hand rows name their people beside whole amounts; the entry form's selects show
whole names; settle's totals stay whole; the chart's legend overlaps nothing; no money or name is
cut. The same checks on the evening's own states (win types, 算牌's badges, the void screen, …)
ride the whole evening (tests/browser/test_whole_evening.py, tests/browser/tours.py ``large``).
And what no 义乌 evening in Chinese reaches: the message toast covers neither the round nor the
offline banner; 诸暨's 天胡 is greyed for a 闲 before the tap; in English a button keeps the space
after a name, and axe finds no nested control on the void screen."""

import json
import re

import pytest
from playwright.sync_api import expect

from scoring.records.exports import import_game
from tests.browser.helpers import confirm
from tests.browser.test_accessibility import AXE, violations
from tests.browser.tours import (
    CLIPPED,
    LARGE,
    LAY,
    LETTER_LINES,
    NARROW,
    NUMBERS_BROKEN,
    ROWS,
    SELECTS_CUT,
    SIDEWAYS,
    legend_overlaps,
)
from tests.helpers import game_url

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
PHONE = {"width": 390, "height": 844}
FIRST = ["诸葛大力", "欧阳小明", "Christopher", "阿华"]
# Six people over two seat changes (Christopher goes, 上官婉儿 sits in; then everyone moves and
# 司马相如 takes 欧阳小明's place), three-digit totals; the last hand had a 买子 placed before it.
EVENING = {
    "ruleset": "yiwu",
    "players": FIRST,
    "first_dealer": 0,
    "hands": [
        {"outcome": "win", "winner": 0, "win_type": "zimo"},
        {"outcome": "win", "winner": 0, "win_type": "zimo"},
        {"outcome": "win", "winner": 0, "win_type": "qidui_zimo"},
        {"outcome": "win", "winner": 1, "win_type": "pinghu", "discarder": 2},
        {"outcome": "seating", "players": ["诸葛大力", "欧阳小明", "上官婉儿", "阿华"]},
        {"outcome": "win", "winner": 2, "win_type": "zimo"},
        {"outcome": "seating", "players": ["阿华", "上官婉儿", "司马相如", "诸葛大力"]},
        {"outcome": "win", "winner": 3, "win_type": "pinghu", "discarder": 0},
        {"outcome": "draw", "maizi": [0, 0, 1, 0]},
    ],
}
SIZES = {"normal": "", "large": LARGE}


@pytest.fixture
def evening(db):
    return import_game(EVENING)


def phone_at(browser, live_server, size: str, language: str = "zh-hans"):
    context = browser.new_context(viewport=PHONE, locale="zh-CN", bypass_csp=True)
    context.add_cookies([{"name": "django_language", "value": language, "url": live_server.url}])
    context.set_default_timeout(10_000)
    return context, context.new_page()


def look(page, size: str, *checks: str) -> list[str]:
    """The page at ``size``: what the large-text tour finds, sideways scrolling, and ``checks``;
    at 200 %, on a 320 px phone too (nothing cut, nothing sideways)."""
    if SIZES[size]:
        page.evaluate(LAY, SIZES[size])
    page.evaluate("document.querySelectorAll('details.more').forEach(d => d.open = true)")
    found = page.evaluate(CLIPPED) + page.evaluate(NUMBERS_BROKEN) + page.evaluate(LETTER_LINES)
    found += page.evaluate(SIDEWAYS)
    for check in checks:
        found += page.evaluate(check)
    if SIZES[size]:
        page.set_viewport_size(NARROW)
        found += [f"320 px: {problem}" for problem in page.evaluate(CLIPPED) + page.evaluate(SIDEWAYS)]
        page.set_viewport_size(PHONE)
    return found


def test_long_names_in_doubled_text_are_whole_at_390_and_320_px(live_server, browser, evening, shot):
    """Each page at each size (SIZES): the larger text is laid on the page as it stands."""
    context, page = phone_at(browser, live_server, "normal")
    base = f"{live_server.url}{game_url(evening)}"
    problems, rows = {}, {}
    for name, url, checks in [
        ("game", base, ()),
        ("preview", base + "record?winner=0&win_type=pinghu&discarder=2", (SELECTS_CUT,)),
        ("edit", base + "hand/8/edit", (SELECTS_CUT,)),
        ("settle", base + "settle?rate=100&custom_yuan=&fee_yuan=40&fee_mode=equal&fee_payee=0", ()),
        ("summary", base + "summary", (legend_overlaps(6),)),
        ("void", base + "hand/9/void", ()),
        ("stats", live_server.url + "/stats", ()),
        ("home", live_server.url + "/", ()),
    ]:
        page.goto(url)
        for size in SIZES:
            if found := look(page, size, *checks):
                problems[f"{name}-{size}"] = found
            shot(page, f"large-text-places-{name}-{size}")
            if name == "game":
                rows[size] = {row["id"]: row for row in page.evaluate(ROWS)}
        if name == "stats":  # this phone opened the game: 个人统计 has its six people
            assert page.locator(".stats-player").count() == 6
    assert problems == {}, json.dumps(problems, ensure_ascii=False, indent=1)
    for size in SIZES:
        # Folded rows after two seat changes: who played, by name, in the evening's order of people.
        assert rows[size]["hand-1"]["names"] == FIRST
        assert rows[size]["hand-6"]["names"] == ["诸葛大力", "欧阳小明", "阿华", "上官婉儿"]
        assert rows[size]["hand-8"]["names"] == ["诸葛大力", "阿华", "上官婉儿", "司马相如"]
        assert rows[size]["hand-7"]["names"] == []  # a seating
        assert all(row["seen"] for row in rows[size].values()), rows[size]
    context.close()


@pytest.mark.parametrize("size", list(SIZES))
def test_the_toast_covers_neither_the_round_nor_the_offline_banner(live_server, browser, evening, shot, size):
    context, page = phone_at(browser, live_server, size)
    page.goto(f"{live_server.url}{game_url(evening)}")
    if SIZES[size]:
        page.evaluate(LAY, SIZES[size])
    page.get_by_role("link", name="阿华", exact=True).click()  # seat 0 wins
    page.get_by_role("link", name=re.compile("^自摸")).click()
    confirm(page)  # 「已记录第8局。」
    context.set_offline(True)  # the Wi-Fi drops: 「离线」 above the tiles
    expect(page.locator("#offline-banner")).to_be_visible()
    toast = page.locator("#flash .alert").bounding_box()
    shot(page, f"large-text-places-toast-{size}")
    for what in ("#offline-banner", ".round-label"):
        other = page.locator(what).bounding_box()
        apart = toast["y"] >= other["y"] + other["height"] or other["y"] >= toast["y"] + toast["height"]
        assert apart, (what, toast, other)
    assert toast["y"] + toast["height"] <= PHONE["height"]  # in sight, at the foot of the screen
    context.close()


def test_zhujis_tianhu_is_greyed_for_a_non_dealer_before_the_tap(live_server, browser, shot):
    game = import_game({"ruleset": "zhuji", "players": ["阿强", "阿芳", "老周", "小陈"], "hands": []})
    context, page = phone_at(browser, live_server, "normal")
    page.goto(f"{live_server.url}{game_url(game)}record?winner=1&zimo=on")  # 阿芳 自摸; 阿强 deals
    for size in SIZES:  # the larger text laid on the page as it stands
        assert look(page, size) == []
        expect(page.locator("#sp-tianhu")).to_be_disabled()
        expect(page.locator("label[for=sp-tianhu]")).to_have_class(re.compile("chip-off"))
        expect(page.locator("#why-tianhu")).to_have_text("天胡：天胡只有庄家才能胡")
        expect(page.locator("#sp-tianhu")).to_have_attribute("aria-describedby", "why-tianhu")
        page.locator("label[for=sp-tianhu]").click(force=True)  # a tap on the greyed chip chooses nothing
        expect(page.locator("#sp-tianhu")).not_to_be_checked()
        shot(page, f"large-text-places-zhuji-sheet-{size}")
    context.close()


def test_an_english_button_keeps_the_space_after_a_name(live_server, browser, evening):
    context, page = phone_at(browser, live_server, "normal", language="en")
    page.goto(f"{live_server.url}{game_url(evening)}")
    gaps = page.evaluate("""() => [...document.querySelectorAll(".maizi-offers button")].map(button => {
      const name = button.querySelector("bdi"), range = document.createRange();
      range.setStartAfter(name);
      range.setEndAfter(button.lastChild);
      const words = [...range.getClientRects()].find(r => r.width > 0);
      return [button.textContent.trim(), words.left - name.getBoundingClientRect().right];
    })""")
    assert gaps[0][0].startswith("阿华 Buy-in")
    assert all(gap >= 3 for _text, gap in gaps), gaps
    context.close()


@pytest.mark.parametrize("language", ["zh-hans", "en"])
def test_the_void_screens_keep_bets_toggle_is_one_control(live_server, browser, evening, language):
    context, page = phone_at(browser, live_server, "normal", language)
    context.add_init_script(path=str(AXE))
    nested = "axe.run(document, {runOnly: ['nested-interactive']}).then(r => [r.violations.length, r.passes.flatMap(p => p.nodes.map(n => n.target.join(' ')))])"
    for query in ("", "?keep_bets=0"):
        page.goto(f"{live_server.url}{game_url(evening)}hand/9/void{query}")
        toggle = page.get_by_role("checkbox")
        expect(toggle).to_have_count(1)
        expect(toggle).to_have_attribute("aria-checked", "false" if query else "true")
        assert violations(page) == []
        found, passed = page.evaluate(nested)
        assert found == 0
        assert any("keep-bets" in target for target in passed), passed  # the rule looked at the toggle itself
    page.get_by_role("checkbox").press("Space")  # a checkbox answers the space bar: ticked again
    expect(page.get_by_role("checkbox")).to_have_attribute("aria-checked", "true")
    context.close()

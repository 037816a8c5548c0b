"""The places doubled text used to cut, on a 390×844 phone at its normal text size and at 200 %
(test_large_text.py walks the pages at 320 px), each page also for words one character a line: the hand rows name their people beside whole
amounts after two seat changes; the entry form's selects show whole names; the win types keep
their words on a line; settle's totals stay whole; the chart's legend overlaps nothing; 算牌's
count badges hold their digit; the message toast covers neither the round nor the offline banner;
诸暨's 天胡 is greyed for a 闲 before the tap. In English a button keeps the space after a name.
And axe finds no nested control on the void screen, in either language."""

import json
import re

import pytest
from playwright.sync_api import expect

from scoring.records.exports import import_game
from tests.browser.helpers import confirm
from tests.browser.test_accessibility import AXE, violations
from tests.browser.test_large_text import CLIPPED, LARGE
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

# A select whose chosen option is wider than the room its arrow leaves (「诸葛大」, 「·」).
SELECTS_CUT = """() => {
  const out = [], ctx = document.createElement("canvas").getContext("2d");
  for (const s of document.querySelectorAll("select")) {
    if (!s.checkVisibility()) continue;
    const style = getComputedStyle(s);
    ctx.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
    const text = (s.selectedOptions[0] || {textContent: ""}).textContent.trim();
    const room = s.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
    if (ctx.measureText(text).width > room + 1) out.push(`select ${s.name} cuts ${text}`);
  }
  return out;
}"""

# An amount broken over lines (「+1 / 8」): an inline box of it in more than one piece.
NUMBERS_BROKEN = """() => {
  const out = [];
  for (const el of document.querySelectorAll(".balances td.text-end span, .nets .net b, .change td span, .preview-net .fs-4")) {
    if (!el.checkVisibility()) continue;
    const range = document.createRange();
    range.selectNodeContents(el);
    const tops = new Set([...range.getClientRects()].map(r => Math.round(r.top)));
    if (tops.size > 1) out.push(`broken over ${tops.size} lines: ${el.textContent.trim()}`);
  }
  return out;
}"""

# A button whose words go down one character a line (fewer than two a line on average): the win types.
LETTER_LINES = """() => {
  const out = [];
  for (const button of document.querySelectorAll(".btn")) {
    if (!button.checkVisibility()) continue;
    const walker = document.createTreeWalker(button, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const chars = node.textContent.replace(/\\s/g, "").length;
      if (chars < 3) continue;
      const range = document.createRange();
      range.selectNodeContents(node);
      const lines = new Set([...range.getClientRects()].map(r => Math.round(r.top))).size;
      if (lines > 1 && chars / lines < 2) out.push(`${node.textContent.trim()}: ${lines} lines`);
    }
  }
  return out;
}"""

# The chart's legend: each entry inside the chart, clear of every other entry and every mark.
LEGEND_OVERLAPS = """() => {
  const out = [], svg = document.querySelector("svg.chart");
  if (!svg) return ["no chart"];
  const box = svg.getBoundingClientRect();
  const texts = [...svg.querySelectorAll("text[font-size='11']")];
  const boxes = texts.map(t => t.getBoundingClientRect());
  const top = Math.min(...boxes.map(b => b.top)) - 4;
  const marks = [...svg.querySelectorAll("circle, rect, polygon")].map(m => m.getBoundingClientRect()).filter(r => r.top >= top);
  const meet = (a, b) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
  boxes.forEach((b, i) => {
    const name = texts[i].textContent;
    if (b.left < box.left - 0.5 || b.right > box.right + 0.5) out.push(`outside the chart: ${name}`);
    boxes.forEach((c, j) => { if (j > i && meet(b, c)) out.push(`${name} overlaps ${texts[j].textContent}`); });
    if (marks.some(m => meet(b, m))) out.push(`${name} overlaps a mark`);
  });
  if (texts.length < 6) out.push(`${texts.length} legend entries`);
  return out;
}"""

# 算牌's count badges: tall enough for their digit, in sight, and drawn over the next key.
BADGES_CUT = """() => {
  const out = [];
  for (const badge of document.querySelectorAll(".key-n")) {
    const r = badge.getBoundingClientRect(), size = parseFloat(getComputedStyle(badge).fontSize);
    if (r.height < size * 1.2) out.push(`badge ${r.height.toFixed(1)} px tall for ${size} px text`);
    if (r.right > document.documentElement.clientWidth || r.top < 0) out.push("badge off the screen");
    badge.scrollIntoView({block: "center", behavior: "instant"});
    const s = badge.getBoundingClientRect();
    for (const [x, y] of [[s.left + s.width / 2, s.top + s.height / 2], [s.right - 2, s.top + s.height / 2]]) {
      const hit = document.elementFromPoint(x, y);
      if (hit !== badge) out.push(`badge under ${hit ? hit.outerHTML.slice(0, 60) : "nothing"}`);
    }
  }
  window.scrollTo({top: 0, behavior: "instant"});
  return out;
}"""

# Every hand row: each of the people who played it by name, each amount whole, nothing past the edge.
ROWS = """() => [...document.querySelectorAll("details.hand-row")].map(row => {
  const nets = [...row.querySelectorAll(".net")];
  const edge = document.documentElement.clientWidth;
  return {
    id: row.id,
    names: nets.map(n => n.querySelector("bdi").textContent),
    seen: nets.every(n => n.querySelector("bdi").getBoundingClientRect().width > 0 && n.getBoundingClientRect().right <= edge),
  };
})"""


@pytest.fixture
def evening(db):
    return import_game(EVENING)


def phone_at(browser, live_server, size: str, language: str = "zh-hans"):
    context = browser.new_context(viewport=PHONE, locale="zh-CN", bypass_csp=True)
    context.add_cookies([{"name": "django_language", "value": language, "url": live_server.url}])
    context.set_default_timeout(10_000)
    return context, context.new_page()


def look(page, size: str, *checks: str) -> list[str]:
    """The page at ``size``: what the large-text test finds, sideways scrolling, and ``checks``."""
    if SIZES[size]:
        page.add_style_tag(content=SIZES[size])
    page.evaluate("document.querySelectorAll('details.more').forEach(d => d.open = true)")
    wide = page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
    found = page.evaluate(CLIPPED) + page.evaluate(NUMBERS_BROKEN) + page.evaluate(LETTER_LINES)
    found += [f"scrolls sideways by {wide} px"] if wide > 0 else []
    for check in checks:
        found += page.evaluate(check)
    return found


def test_the_places_doubled_text_cut_are_whole_at_390_px(live_server, browser, evening, shot):
    """Each page at each size (SIZES): the larger text is laid on the page as it stands."""
    context, page = phone_at(browser, live_server, "normal")
    base = f"{live_server.url}{game_url(evening)}"
    problems, rows = {}, {}
    for name, path, checks in [
        ("game", "", ()),
        ("win-types", "record?winner=1", ()),
        ("preview", "record?winner=0&win_type=pinghu&discarder=2", (SELECTS_CUT,)),
        ("edit", "hand/8/edit", (SELECTS_CUT,)),
        ("settle", "settle?rate=100&custom_yuan=&fee_yuan=40&fee_mode=equal&fee_payee=0", ()),
        ("summary", "summary", (LEGEND_OVERLAPS,)),
        ("analyse", "analyse?flip=5m&tiles=1m,2m,3m,4p,5p,6p,7s,8s,9s,E,E,E,C", (BADGES_CUT,)),
        ("void", "hand/9/void", ()),
    ]:
        page.goto(base + path)
        for size in SIZES:
            if found := look(page, size, *checks):
                problems[f"{name}-{size}"] = found
            shot(page, f"large-text-places-{name}-{size}")
            if name == "game":
                rows[size] = {row["id"]: row for row in page.evaluate(ROWS)}
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
        page.add_style_tag(content=SIZES[size])
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

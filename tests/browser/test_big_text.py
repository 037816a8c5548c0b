"""大字 (长辈模式, docs/manual.md) on a 390 px phone with WeChat's 1.4× text on top: every main page
whole (nothing wider than the screen, no money or name cut), every control at least 60×60 px,
every coloured amount with its + or − (or its 应收/要付), axe's contrast audit clean; and a poll
never moves what a finger is on or what holds the focus."""

import json

import pytest
from playwright.sync_api import expect

from scoring import services
from scoring.models import Game, Group
from tests.browser.conftest import PHONE
from tests.browser.test_accessibility import AXE, violations
from tests.browser.test_large_text import CLIPPED
from tests.browser.test_tap_targets import audit
from tests.factories import seeded_game
from tests.helpers import SETTLE_HANDS

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# 大字's 125 % with WeChat's 关怀模式 (about 1.4×) on the root: what rem, and so the page, is sized by.
WECHAT = """() => {
  const wechat = new CSSStyleSheet();  // built in script: the page's CSP refuses a <style> tag
  wechat.replaceSync('html.big { font-size: calc(125% * 1.4) !important; }');
  document.adoptedStyleSheets = [...document.adoptedStyleSheets, wechat];
}"""

# Anything that shows wider than the screen (inside a box that scrolls sideways on purpose, it may).
WIDE = """() => {
  const out = [];
  const width = document.documentElement.clientWidth;
  for (const el of document.querySelectorAll('body *')) {
    if (!el.checkVisibility() || el.closest('.visually-hidden, .table-responsive, [hidden]')) continue;
    const r = el.getBoundingClientRect();
    if (r.width && (r.left < -1 || r.right > width + 1)) out.push(`${el.tagName.toLowerCase()}.${el.className} "${el.textContent.trim().slice(0, 20)}" ${Math.round(r.left)}–${Math.round(r.right)}`);
  }
  const scroll = document.documentElement.scrollWidth - width;
  if (scroll > 0) out.push(`scrolls sideways by ${scroll} px`);
  return out;
}"""

# A gain or a loss is said by its sign (or by 应收/要付, is owed/owes), never by its colour alone.
UNSIGNED = """() => {
  const out = [];
  for (const el of document.querySelectorAll('.gain, .loss')) {
    if (!el.checkVisibility()) continue;
    const text = el.textContent.trim();
    const sign = el.matches('.gain') ? /^\\+|应收|is owed/ : /^[\u2212-]|要付|owes/;
    if (!sign.test(text)) out.push(`${el.className}: ${text}`);
  }
  return out;
}"""

# Two controls laid over each other (a word pushed onto its neighbour).
OVERLAPS = """() => {
  const boxes = [...document.querySelectorAll('main a[href], main button, main .btn, main input:not([type=hidden]):not(.btn-check), main select, main summary, nav a[href], nav button')]
    .filter(el => el.checkVisibility() && !el.closest('[hidden]'))
    .map(el => [el, el.getBoundingClientRect()]);
  const out = [];
  for (let i = 0; i < boxes.length; i++) for (let j = i + 1; j < boxes.length; j++) {
    const [a, p] = boxes[i], [b, q] = boxes[j];
    if (a.contains(b) || b.contains(a)) continue;
    const w = Math.min(p.right, q.right) - Math.max(p.left, q.left), h = Math.min(p.bottom, q.bottom) - Math.max(p.top, q.top);
    if (w > 1 && h > 1) out.push(`"${a.textContent.trim().slice(0, 15)}" over "${b.textContent.trim().slice(0, 15)}"`);
  }
  return out;
}"""


# A short label's word (「7/5」, 「13/11」, 「大字」) broken over lines: squeezed, not wrapped between words.
BROKEN = """() => {
  const out = [];
  for (const el of document.querySelectorAll('.btn, .chip, a[href], summary')) {
    const text = el.textContent.trim();
    if (!el.checkVisibility() || !text || text.length > 5) continue;
    const walk = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    while (walk.nextNode()) {  // each word on its own (a name over 「放铳」 is two lines by design)
      const range = document.createRange();
      range.selectNodeContents(walk.currentNode);
      const lines = new Set([...range.getClientRects()].filter(r => r.width).map(r => Math.round(r.top)));
      if (lines.size > 1) out.push(`broken over ${lines.size} lines: ${text}`);
    }
  }
  return out;
}"""


def big_phone(browser, live_server):
    """A 390×844 phone that turned 大字 on with its switch (a tap in the top bar), axe in its pages."""
    context = browser.new_context(viewport=PHONE, locale="zh-CN")
    context.add_init_script(path=str(AXE))
    context.set_default_timeout(10_000)
    page = context.new_page()
    page.goto(live_server.url + "/")
    page.locator(".big-switch").click()
    expect(page.locator("html.big")).to_have_count(1)
    expect(page.locator(".big-switch")).to_have_attribute("aria-pressed", "true")
    return page


def finished_group() -> tuple[Group, Game]:
    group = services.create_group(name="周五老地方", roster=["老王", "小李", "阿华", "大刘"])
    game = Game.objects.create(players=group.roster, rules=seeded_game(1).rules, group=group)
    for seq, entry in enumerate(SETTLE_HANDS, start=1):
        services.record_hand(game=game, entry=entry, fix=None, next_seq=seq, form_token="", entered_by="")
    services.finish_game(game=game, rate_fen=100, fee_fen=0, fee_mode="equal", fee_payee=0)
    return group, game


def test_every_main_page_in_big_text_is_whole_with_60_px_controls_and_signed_amounts(live_server, browser, shot):
    game = seeded_game(8)
    group, settled = finished_group()
    page = big_phone(browser, live_server)
    url = f"{live_server.url}/g/{game.edit_token}/"
    page.goto(url)
    page.locator("form[action$='/me/0'] button").click()  # 我是 老王
    pages = {
        "home": "/",
        "new-game": "/new",
        "game": url,
        "winner-step": url + "record",
        "how-step": url + "record?outcome=win&winner=1",
        "discarder-step": url + "record?outcome=win&winner=1&win_type=pinghu",
        "preview": url + "record?outcome=win&winner=1&win_type=pinghu&discarder=0",
        "settle": url + "settle",
        "settle-preview": url + "settle?rate=100&custom_yuan=&fee_yuan=40&fee_mode=equal&fee_payee=0",
        "settled": f"/g/{settled.edit_token}/settle",
        "group": f"/group/{group.edit_token}/",
        "history": "/history",
        "stats": "/stats",
        "summary": url + "summary",
        "analyse": url + "analyse?winner=0&flip=5m&tiles=1m,2m,3m,4p,5p,6p,7s,8s,9s,E,E,E,C",
        "rules": url + "rules",
        "rules-doc": "/rules/zhuji",
    }
    found = {}
    for name, address in pages.items():
        found.update(
            problems_of(page, name, address if address.startswith("http") else live_server.url + address, shot)
        )
    page.context.add_cookies([{"name": "django_language", "value": "en", "url": live_server.url}])
    for name in ("home", "game", "preview", "settle-preview", "group"):  # longer words, green gains
        address = pages[name]
        found.update(
            problems_of(page, f"en-{name}", address if address.startswith("http") else live_server.url + address, shot)
        )
    assert found == {}, json.dumps(found, ensure_ascii=False, indent=1)


def problems_of(page, name: str, address: str, shot) -> dict[str, list[str]]:
    page.goto(address)
    assert page.locator("html.big").count() == 1, name
    page.evaluate(WECHAT)
    problems = audit(page, name, least=60)  # opens every fold first
    problems += page.evaluate(WIDE) + page.evaluate(CLIPPED) + page.evaluate(UNSIGNED)
    problems += page.evaluate(OVERLAPS) + page.evaluate(BROKEN)
    problems += violations(page)
    shot(page, f"big-{name}")
    return {name: problems} if problems else {}


def box(locator) -> tuple[float, float, float, float]:
    r = locator.bounding_box()
    return (r["x"], r["y"], r["width"], r["height"])


def another_phone_records(game: Game) -> None:
    """A 流局 from another phone at the table: the next poll brings a longer hand list."""
    seq = game.hands.count() + 1
    services.record_hand(game=game, entry={"outcome": "draw"}, fix=None, next_seq=seq, form_token="", entered_by="")


def forced_poll(page) -> None:
    """The poller asks now and its answer has been swapped in, or held (the page's next frames drawn)."""
    with page.expect_response(lambda r: "/poll" in r.url and r.status == 200):
        page.evaluate("htmx.trigger('#poller', 'poll-now')")
    page.evaluate(
        "() => new Promise(done => setTimeout(() => requestAnimationFrame(() => requestAnimationFrame(done)), 100))"
    )


def test_a_poll_never_moves_what_a_finger_is_on_or_what_holds_the_focus(live_server, phone):
    game = seeded_game(3)
    page = phone
    page.goto(f"{live_server.url}/g/{game.edit_token}/")
    count = page.locator(".hands-count")
    below = page.get_by_text("我是（记录时署名）：")  # under the hand list: a new row pushes it down
    page.mouse.click(5, 5)  # a tap elsewhere, long enough ago, moves nothing by itself
    page.wait_for_timeout(1600)
    before = box(below)
    another_phone_records(game)
    forced_poll(page)  # no finger, no focus: the new hand shows at once, and what is under it moves
    expect(count).to_contain_text("共 4 局")
    assert box(below)[1] > before[1]

    before = box(below)
    x, y, width, height = before
    page.mouse.move(x + width / 2, y + height / 2)
    page.mouse.down()  # a finger on it
    another_phone_records(game)
    forced_poll(page)
    assert box(below) == before
    expect(count).to_contain_text("共 4 局")
    page.wait_for_timeout(1000)
    forced_poll(page)  # every 3 s the poller asks again; still held while the finger is down
    assert box(below) == before
    page.mouse.up()
    expect(count).to_contain_text("共 5 局", timeout=6_000)  # asked again once the finger has been gone 1.5 s

    winner = page.locator(".record a.btn").first  # in the part a poll swaps (#status)
    winner.focus()
    page.keyboard.press("Shift+Tab")
    page.keyboard.press("Tab")  # the keyboard's focus, drawn as a ring
    assert page.evaluate("document.activeElement.matches('.record a.btn:focus-visible')")
    page.wait_for_timeout(1600)
    before = box(winner)
    handle = winner.element_handle()
    another_phone_records(game)
    forced_poll(page)
    assert handle.evaluate("el => el.isConnected && el === document.activeElement")
    assert box(winner) == before
    expect(count).to_contain_text("共 5 局")
    page.evaluate("document.activeElement.blur()")  # the focus leaves: the poll's parts come in
    expect(count).to_contain_text("共 6 局", timeout=6_000)

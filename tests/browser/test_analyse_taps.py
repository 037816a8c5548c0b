"""算牌 keeps the tiles on the phone (static/js/analyse.js): 14 keys tapped at 8 a second on weak
4G are all kept, the server is asked only for the 13- and 14-tile hands, the answer shown is the
one the server gives for the address (a refresh keeps the tiles), an answer for older tiles is
never shown, and without JavaScript each key is still a link."""

from contextlib import suppress
from urllib.parse import parse_qs, urlsplit

import pytest
from playwright.sync_api import Error, expect

from scoring.engine import score_game

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

HAND = ["1m", "2m", "3m", "4m", "5m", "6m", "7m", "8m", "9m", "1s", "1s", "1s", "E", "E"]


# What the taps change, element by element: the strip, the keys (link or not, hidden name, count),
# 撤销/清空, the links that carry the tiles, the 「14 张满了」 line.
DRAWN = """() => Array.from(document.querySelectorAll(
  '#sanpai .strip *, #sanpai .keyboard *, #sanpai [data-op], #sanpai .context a, #sanpai .winners a, #sanpai .full-hint'
)).map((el) => [el.tagName, el.className, el.getAttribute('href'), el.getAttribute('aria-disabled'),
  el.getAttribute('data-n'), el.children.length ? '' : el.textContent].join('|'))"""


WEAK_4G = {"offline": False, "latency": 150, "downloadThroughput": 1.6e6 / 8, "uploadThroughput": 750e3 / 8}


def key(page, code: str):
    return page.locator(f".keyboard a[data-key='{code}']")


def tiles_of(url: str) -> list[str]:
    return [t for t in parse_qs(urlsplit(url).query).get("tiles", [""])[0].split(",") if t]


def test_fourteen_taps_at_eight_a_second_on_weak_4g_are_all_kept_and_answered_once(live_server, phone, make_game):
    game = make_game()
    page = phone
    page.goto(f"{live_server.url}/g/{game.edit_token}/analyse?winner=1")
    key(page, "5p").click()  # the flip: a link, as before
    expect(page.locator("#sanpai[hx-history='false']")).to_be_attached()  # analyse.js has started
    asked = []
    page.on("request", lambda request: "/analyse" in request.url and asked.append(request))

    cdp = page.context.new_cdp_session(page)  # a weak 4G link, as Chromium's DevTools throttle it
    cdp.send("Network.enable")
    cdp.send("Network.emulateNetworkConditions", WEAK_4G)
    for code in HAND:  # 8 taps a second: the answers of the first come back while the last are tapped
        key(page, code).click()
        page.wait_for_timeout(125)

    expect(page.locator(".strip .stile")).to_have_count(14)
    pinghu = score_game({"hands": [{"outcome": "win", "winner": 1, "win_type": "pinghu", "discarder": 0}]})
    expect(page.locator("#answer")).to_contain_text(f"谁放铳都是 小李+{pinghu['totals'][1]}")
    assert tiles_of(page.url) == HAND
    assert 1 <= len(asked) <= 2  # the 13 tiles (150 ms after the 13th) and the 14
    assert all(len(tiles_of(r.url)) >= 13 and r.headers.get("hx-target") == "answer" for r in asked)
    assert tiles_of(asked[-1].url) == HAND
    cdp.send(
        "Network.emulateNetworkConditions", {**WEAK_4G, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1}
    )
    shown = page.locator("#answer").inner_text()
    use = page.get_by_role("link", name="老王放铳").get_attribute("href")
    drawn = page.evaluate(DRAWN)

    page.reload()  # the server's own page for the address: the same tiles, answer and links
    expect(page.locator(".strip .stile")).to_have_count(14)
    assert page.locator("#answer").inner_text() == shown
    assert page.get_by_role("link", name="老王放铳").get_attribute("href") == use
    assert page.evaluate(DRAWN) == drawn  # what the script drew is what the server draws
    expect(page.locator("#sanpai[hx-history='false']")).to_be_attached()
    page.locator(".strip a[data-key='strip-1']").click()  # 一万 out: 13 tiles, every key a link again
    expect(page.locator("#answer")).to_contain_text("听")
    drawn = page.evaluate(DRAWN)
    assert sum(line.startswith("A|key") for line in drawn) == 34
    page.reload()
    assert page.evaluate(DRAWN) == drawn
    page.go_back()  # the taps replaced the address: back is the page before the tiles
    expect(page.get_by_text("先点翻出的那张牌")).to_be_visible()


def test_an_answer_for_older_tiles_is_never_shown(live_server, phone, make_game):
    """The answer for 13 tiles held by the network until the 14th tile's answer is in."""
    game = make_game()
    page = phone
    page.goto(f"{live_server.url}/g/{game.edit_token}/analyse?flip=5p&winner=1&tiles=" + ",".join(HAND[:12]))
    expect(page.locator("#sanpai[hx-history='false']")).to_be_attached()
    held = []
    page.route(lambda url: len(tiles_of(url)) == 13, lambda route: held.append(route))
    with page.expect_request(lambda request: len(tiles_of(request.url)) == 13):  # 150 ms after the 13th tile
        key(page, "E").click()
        expect(page.locator(".strip .stile")).to_have_count(13)
        expect(page.locator("#answer")).to_contain_text("正在算")  # the 12-tile words are gone at once
    key(page, "E").click()
    expect(page.locator("#answer")).to_contain_text("胡了！")
    assert held
    with suppress(Error):  # too late: htmx has aborted it (were it answered, the page would drop it)
        held[0].fulfill(status=200, body='<div id="answer"><div>STALE</div></div>', content_type="text/html")
    page.evaluate("() => new Promise((done) => setTimeout(done, 100))")  # time for a late swap, were there one
    expect(page.locator("#answer")).to_contain_text("胡了！")
    expect(page.locator("#answer")).not_to_contain_text("STALE")


def test_without_javascript_each_key_is_a_link(live_server, browser, make_game):
    game = make_game()
    context = browser.new_context(viewport={"width": 390, "height": 844}, locale="zh-CN", java_script_enabled=False)
    page = context.new_page()
    page.goto(f"{live_server.url}/g/{game.edit_token}/analyse?flip=5p")
    for n, code in enumerate(HAND[:3], start=1):
        key(page, code).click()
        expect(page.locator(".strip .stile")).to_have_count(n)
        assert tiles_of(page.url) == HAND[:n]
    expect(page.locator("#answer")).to_contain_text("还差10张")
    page.get_by_role("link", name="撤销").click()
    expect(page.locator(".strip .stile")).to_have_count(2)
    context.close()

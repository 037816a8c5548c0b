"""Every tap lands on a whole page (390×844): each link and button of the game page, the entry
steps, settle and the summary leads to a page with its top bar and a way back, and so does the
back gesture. 「更新预览」 of a 手动记分 hand keeps the page whole, and its 确认 records once.
The whole evening (tests/browser/test_whole_evening.py) reloads, taps a boosted link and goes back
at its own moments (tests/browser/tours.py ``whole``); this walk taps every kind of link and button
once, the writes among them (买子 and 下子 on each seat, 我是, 结束并结算…), which would change or end the evening.

The walk is in Chinese: htmx's choice of a whole page or a part, its history restore and the back
gesture are the same code in every language. That every page it reaches is whole in English too
(top bar, a way back, asked for as a tap, a reload and the back gesture ask) is
tests/core/test_it_whole_pages.py's test_every_tap_and_every_back_of_the_walk_lands_on_a_whole_page_in_english."""

import re

import pytest
from django.conf import settings
from django.test import Client
from playwright.sync_api import expect

from scoring.models import Game, Hand
from tests.browser.conftest import PHONE
from tests.browser.helpers import form_ready
from tests.helpers import WALKED_PAGES, game_url, walked_game

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
# Counts the swaps htmx finished: a tap has landed when one more is counted (or a new document).
COUNT_SWAPS = "document.addEventListener('htmx:afterSettle', () => setTimeout(() => { window.swaps = (window.swaps || 0) + 1; }));"
# Every link and button a person can tap, one of each kind: a link to the same view (each step
# of the record flow is one kind: the view answers a navigation the same way whatever it asks),
# a button of the same form (each 买子 button is one). The language switch
# and the downloads (CSV, JSON) are left out: they leave the page on purpose.
TARGETS = """() => {
  const kinds = new Map();
  document.querySelectorAll('main a[href], main button, nav a[href]').forEach((el, index) => {
    if (el.closest('[hx-boost="false"]') || el.type === 'button' || el.disabled) return;
    if (!el.checkVisibility()) return;
    let key;
    if (el.tagName === 'A') {
      const url = new URL(el.href);
      if (url.origin !== location.origin || /export/.test(url.pathname)) return;
      key = 'GET ' + url.pathname.replace(/\\/\\d+/g, '/N');
    } else {
      const form = el.form;
      if (!form) return;
      key = form.method + ' ' + new URL(form.action).pathname.replace(/\\/\\d+/g, '/N') + ' ' + el.name;
    }
    if (!kinds.has(key)) kinds.set(key, index);
  });
  return [...kinds.entries()];
}"""
TAPPABLE = "main a[href], main button, nav a[href]"
OPEN_ALL = "document.querySelectorAll('details').forEach((d) => { d.open = true; })"


def new_game() -> Game:
    return walked_game(Client())


WHOLE = """(game) => [
  document.querySelectorAll('nav.topbar .navbar-brand').length === 1 && !!document.querySelector('footer'),
  location.pathname === game || !location.pathname.startsWith(game) || !!document.querySelector(`main a[href="${game}"]`),
]"""


def assert_whole(page, game: Game, what: str) -> None:
    """The top bar with its way home and, on a page of the game other than the game page, a link
    back to the game page."""
    assert page.evaluate(WHOLE, game_url(game)) == [True, True], what


def tap(page, index: int) -> None:
    """Tap the ``index``-th tappable element and wait for where it leads: a new document, or
    htmx's swap settled."""
    page.evaluate("window.swaps = 0; window.before = 1")
    page.locator(TAPPABLE).nth(index).click()
    page.wait_for_function("() => (!window.before || window.swaps > 0) && !document.querySelector('.htmx-request')")
    page.wait_for_timeout(300)  # a tap held for its preload (static/js/steps.js) lands after a poll's swap
    page.wait_for_function("() => !document.querySelector('.htmx-request')")


def back(page, game: Game, what: str, *, asks_server: bool) -> None:
    """The back gesture. htmx restores the page from its own copy; without one (``asks_server``:
    after a while, or opened in another tab) it asks the server (a history restore request)."""
    page.evaluate(
        "(forget) => { document.querySelector('#main').dataset.left = 1; if (forget) sessionStorage.removeItem('htmx-history-cache'); }",
        asks_server,
    )
    page.go_back()
    page.wait_for_function(
        "() => !document.querySelector('#main[data-left]') && !document.querySelector('.htmx-request')"
    )
    assert_whole(page, game, f"back from {what}")
    page.evaluate(OPEN_ALL)


def walk(page, base: str, game: Game, landed: dict) -> int:
    """Tap every kind of link and button on every page (a link's kind once in all). The back
    gesture returns to the page, the first time on each page from the server (a page with a part
    of its own is brought back so once, a link or not); a write that stays at its address opens
    the page again. ``landed[(path, kind)]()`` checks more of where that tap led (and is taken out
    of ``landed``: a check left there was never reached)."""
    seen, taps = set(), 0
    for path, has_part in WALKED_PAGES:
        url = base + game_url(game) + path
        page.goto(url)
        page.evaluate(OPEN_ALL)
        restored = False
        for key, index in page.evaluate(TARGETS):
            if key in seen:
                continue
            what = f"{path or 'game'} → {key}"
            tap(page, index)
            assert_whole(page, game, what)
            if check := landed.pop((path, key), None):
                check()
            taps += 1
            if key.startswith("GET"):
                seen.add(key)
            if page.url != url:
                back(page, game, what, asks_server=not restored)
                restored = True
            elif not key.startswith("GET"):
                page.goto(url)
                page.evaluate(OPEN_ALL)
        if has_part and not restored:  # home, then back: brought back from the server
            page.goto(url)
            tap(page, page.locator(TAPPABLE).evaluate_all("(els) => els.findIndex((e) => e.matches('.navbar-brand'))"))
            back(page, game, f"home from {path}", asks_server=True)
    return taps


def test_every_tap_and_every_back_lands_on_a_whole_page(live_server, browser, shot):
    game = new_game()
    context = browser.new_context(viewport=PHONE, reduced_motion="reduce")
    context.add_cookies([{"name": settings.LANGUAGE_COOKIE_NAME, "value": "zh-hans", "url": live_server.url}])
    context.set_default_timeout(10_000)
    context.add_init_script(COUNT_SWAPS)
    page = context.new_page()
    # the kind as TARGETS writes it (digits after a slash are N, even at the start of the token)
    landed = {("", "GET " + re.sub(r"/\d+", "/N", game_url(game) + "settle")): lambda: settle_screen(page, shot)}
    taps = walk(page, live_server.url, game, landed)
    assert page.locator("html").get_attribute("lang") == "zh-hans"
    context.close()
    assert landed == {}
    assert taps > 20  # every kind once: the game page alone has 14


def settle_screen(page, shot) -> None:
    """结算 tapped on the game page of an open game: the whole settle screen, its form on screen."""
    expect(page.get_by_role("heading", name="结算")).to_be_visible()
    expect(page.locator("#settle-form")).to_be_visible()
    expect(page.get_by_role("link", name="返回记分")).to_be_visible()
    shot(page, "settle-from-the-game-page")


def test_update_preview_of_a_manual_hand_keeps_the_page_whole_and_confirm_records_once(live_server, phone, shot):
    """A win's 更新预览, reloaded, and its 确认 is the whole evening's hand 6
    (tests/browser/test_whole_evening.py); a 手动记分 hand, which no evening records, is here."""
    game = new_game()
    phone.goto(live_server.url + game_url(game) + "record?outcome=manual")
    form_ready(phone)
    for seat, amount in enumerate(["-10", "6", "4", "0"]):
        phone.fill(f"#id_n{seat}", amount)
    phone.fill("#id_note", "罚分")
    phone.get_by_role("button", name="更新预览").click()
    expect(phone.locator("nav.topbar")).to_have_count(1)
    expect(phone.get_by_role("link", name="取消")).to_be_visible()
    expect(phone.get_by_role("button", name="确认记录")).to_be_visible()
    assert "record?" in phone.url  # the address holds the answers: a reload shows them again
    # htmx pushes the new address as the swap settles: reload that one, not the form's first
    expect(phone).to_have_url(re.compile(r"n0=-10.*note="))
    phone.reload()
    form_ready(phone)
    expect(phone.get_by_role("link", name="取消")).to_be_visible()
    shot(phone, "update-preview-reloaded-manual")
    phone.get_by_role("button", name="确认记录").click()
    expect(phone.locator(".alert-success")).to_contain_text("已记录第3局")
    assert Hand.objects.filter(game=game).count() == 3
    assert re.search(r"/g/[^/]+/$", phone.url)

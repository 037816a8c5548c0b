"""Long names (up to 20 characters) never make a page scroll sideways at 390 px."""

import pytest
from django.test import Client
from playwright.sync_api import expect

from scoring.models import Game
from scoring.rulesets.yiwu.engine import Rules
from tests.helpers import game_url, record

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
NAMES = ["欧阳娜娜娜娜", "Christopher", "诸葛孔明先生", "Maximilian-Alexander"]  # the last: 20 characters
PAGES = {
    "game": "",
    "winner": "record",
    "win-type": "record?outcome=win&winner=3",
    "discarder": "record?outcome=win&winner=3&win_type=pinghu",
    "preview": "record?outcome=win&winner=3&win_type=pinghu&discarder=2",
    "void": "hand/1/void",
    "settle": "settle",
    "summary": "summary",
}


def wide(page) -> int:
    return page.evaluate("document.documentElement.scrollWidth")


def test_long_names_never_scroll_any_page_sideways(live_server, phone, shot):
    game = Game.objects.create(players=NAMES, rules=Rules().to_dict())
    client = Client()
    record(client, game, {"outcome": "win", "winner": 3, "win_type": "zimo"})
    record(client, game, {"outcome": "win", "winner": 1, "win_type": "pinghu", "discarder": 2})
    url = live_server.url + game_url(game)
    phone.goto(url)  # remembers the game on this phone: 历史 and 统计 list it
    widths = {}
    for label, path in PAGES.items():
        phone.goto(url + path)
        phone.evaluate("document.querySelectorAll('details').forEach(d => d.open = true)")
        widths[label] = wide(phone)
        shot(phone, f"long-names-{label}")
    for label, path in {"history": "/history", "stats": "/stats"}.items():
        phone.goto(live_server.url + path)
        widths[label] = wide(phone)
        shot(phone, f"long-names-{label}")
    assert {k: w for k, w in widths.items() if w > 390} == {}


def test_english_keeps_the_dealer_tile_name_on_one_line_and_translates_the_list(live_server, browser, shot):
    game = Game.objects.create(players=["老王", "小李", "阿华", "大刘"], rules=Rules().to_dict())
    client = Client()
    for _ in range(17):
        record(client, game, {"outcome": "win", "winner": 0, "win_type": "zimo"})  # 老王 deals on, 连17
    context = browser.new_context(viewport={"width": 390, "height": 844}, locale="en-US")
    page = context.new_page()
    page.goto(live_server.url + "/")
    page.get_by_role("button", name="English").click()
    page.goto(live_server.url + game_url(game))
    name = page.locator(".tile-dealer .name bdi")
    expect(name).to_have_text("老王")
    box = name.bounding_box()
    line = name.evaluate("(n) => parseFloat(getComputedStyle(n).lineHeight) || 20")
    assert box["height"] <= line * 1.3  # one line
    holder = page.locator(".tile-dealer .name")
    assert holder.evaluate("(h) => h.scrollWidth <= h.clientWidth")  # shown whole, not cut to …
    assert box["width"] >= 2 * 14  # two characters wide, not squeezed out by the 庄 badge
    assert wide(page) <= 390
    assert "更早的" not in page.locator("#hands").inner_text()
    shot(page, "long-names-english-dealer")
    context.close()

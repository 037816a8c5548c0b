"""大字 (长辈模式, docs/manual.md): a poll never moves what a finger is on or what holds the focus.

Every main page in 大字 under WeChat's 1.4× text (whole at 390 px, 60×60 px controls, signed
amounts, nothing overlapped or squeezed, axe clean) is toured where the whole evening stands on it,
in Chinese and in English (tests/browser/test_whole_evening.py, tests/browser/tours.py ``big``).
A finger held on the screen through a forced poll stays here: the evening's phones never hold one."""

import pytest
from playwright.sync_api import expect

from scoring import services
from scoring.models import Game
from tests.factories import seeded_game

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


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

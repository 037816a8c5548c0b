"""By keyboard alone: after each step focus is on the new question (a screen reader reads it), and
the 算牌 keyboard is one Tab stop whose arrow keys move between keys, with focus kept on the key
after each tile is added."""

import re

import pytest
from playwright.sync_api import expect

from tests.factories import seeded_game

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

FOCUSED_KEY = "document.activeElement.getAttribute('data-key')"


def test_each_step_moves_focus_to_its_question(live_server, phone):
    game = seeded_game(2)
    phone.goto(f"{live_server.url}/g/{game.edit_token}/")
    phone.locator(".record a.btn-danger").first.focus()
    phone.keyboard.press("Enter")
    expect(phone.locator(".question")).to_contain_text("胡了 — 怎么胡？")
    expect(phone.locator(".question")).to_be_focused()
    phone.get_by_role("link", name=re.compile("^自摸")).first.focus()
    phone.keyboard.press("Enter")
    expect(phone.get_by_role("button", name="确认记录")).to_be_visible()
    phone.wait_for_function("document.activeElement.tagName !== 'BODY'")  # after htmx settles the swap
    assert phone.evaluate("document.activeElement.textContent").startswith("记第")


def test_the_tile_keyboard_is_one_tab_stop_moved_by_arrows_and_keeps_focus(live_server, phone):
    game = seeded_game(1)
    phone.goto(f"{live_server.url}/g/{game.edit_token}/analyse?flip=5m&tiles=1m,9m")
    assert phone.locator(".keyboard a[tabindex='0']").count() == 1
    assert phone.locator(".strip a[tabindex='0']").count() == 1
    phone.locator(".keyboard a[tabindex='0']").focus()
    assert phone.evaluate(FOCUSED_KEY) == "1m"
    phone.keyboard.press("ArrowRight")
    assert phone.evaluate(FOCUSED_KEY) == "2m"
    phone.keyboard.press("ArrowDown")
    assert phone.evaluate(FOCUSED_KEY) == "2p"
    for n in (3, 4):
        phone.keyboard.press("Enter")
        expect(phone.locator(".strip a")).to_have_count(n)
        expect(phone.locator("a[data-key='2p']")).to_be_focused()
    expect(phone.locator("a[data-key='2p']")).to_have_accessible_name("2筒，已有 2 张")
    phone.keyboard.press("Shift+Tab")  # back past the keyboard in one step, to the hand's last stop
    assert phone.evaluate("document.activeElement.closest('.keyboard')") is None

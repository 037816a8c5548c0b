"""The end of the evening on a phone, and polling that rests while the phone is in a pocket."""

import re

import pytest
from playwright.sync_api import expect

from scoring.models import Transfer
from tests.factories import seeded_game

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_finish_settle_and_tick_off_a_payment(live_server, phone, shot):
    game = seeded_game(12)
    page = phone
    page.goto(f"{live_server.url}/g/{game.edit_token}/settle")
    page.locator("label[for=rate1]").click()  # 1 点 = 0.5 元
    page.fill("#id_fee_yuan", "20")
    page.get_by_role("button", name="预览").click()
    expect(page.locator("#settle-preview")).to_contain_text("结束并结算")
    shot(page, "settle-preview")
    page.get_by_role("button", name="结束并结算").click()
    expect(page.locator(".transfers")).to_be_visible()
    count = Transfer.objects.count()
    assert page.locator(".transfers li").count() == count
    page.locator(".transfers li").first.get_by_role("button", name="标为已付").click()
    expect(page.locator(".transfers li").first).to_contain_text("已付 ✓")
    assert Transfer.objects.filter(paid_at__isnull=False).count() == 1
    shot(page, "settle-done")


def is_poll(request) -> bool:
    return re.search(r"/poll\?v=\d+", request.url) is not None


def test_polling_rests_while_the_tab_is_hidden_and_catches_up_when_shown(live_server, phone):
    """The page's own clock is faked (htmx polls with setTimeout), so its 3 s ticks pass at once."""
    game = seeded_game(3)
    polls: list[str] = []
    phone.on("request", lambda request: polls.append(request.url) if "/poll" in request.url else None)
    phone.clock.install()
    phone.goto(f"{live_server.url}/g/{game.view_token}/")
    phone.clock.pause_at(
        phone.evaluate("Date.now()") / 1000 + 1
    )  # seconds; from here the page's time moves only when told
    with phone.expect_request(is_poll):
        phone.clock.run_for(3_500)
    assert polls, "the page polls while it is visible"
    phone.evaluate("Object.defineProperty(document, 'hidden', {value: true, configurable: true})")
    phone.wait_for_timeout(300)  # a poll already on its way is let through
    polls.clear()
    phone.clock.run_for(6_500)
    phone.wait_for_timeout(300)  # a request started by those ticks would have been seen by now
    assert polls == []  # two ticks passed: no request while hidden
    with phone.expect_request(is_poll):  # the page's clock is paused: only the visibility change can send it
        phone.evaluate(
            "Object.defineProperty(document, 'hidden', {value: false, configurable: true});"
            "document.dispatchEvent(new Event('visibilitychange'))"
        )
    assert any(re.search(r"/poll\?v=\d+", url) for url in polls)  # at once, not at the next tick

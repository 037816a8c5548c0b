"""Four phones, one table: a hand entered on one phone appears on another without a reload."""

import re
import time

import pytest
from playwright.sync_api import expect

from scoring.models import Game
from scoring.rulesets.yiwu.engine import Rules

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
POLL_SECONDS = 3  # hx-trigger="every 3s" in templates/table/game.html


def test_a_hand_recorded_on_one_phone_shows_on_the_other_within_5_seconds(live_server, browser, shot):
    game = Game.objects.create(players=["老王", "小李", "阿华", "大刘"], rules=Rules().to_dict())
    phones = [browser.new_context(viewport={"width": 390, "height": 844}, locale="zh-CN") for _ in range(2)]
    first, second = (context.new_page() for context in phones)
    second.clock.install()  # the second phone's polling timer runs on a clock the test moves
    first.goto(f"{live_server.url}/g/{game.edit_token}/")
    second.goto(f"{live_server.url}/g/{game.view_token}/")
    expect(second.locator(".tile .total").first).to_have_text("0")
    second.clock.pause_at(second.evaluate("Date.now()") / 1000 + 1)  # seconds
    second.evaluate("window.stillTheSamePage = 42")

    first.get_by_role("link", name="小李", exact=True).click()
    first.get_by_role("link", name=re.compile("^自摸")).click()
    first.get_by_role("button", name="确认记录").click()
    expect(first.locator(".alert-success")).to_be_visible()
    recorded = time.monotonic()

    second.clock.run_for(POLL_SECONDS * 1000)  # one polling interval of the second phone's time, at once
    expect(second.locator("#hands")).to_contain_text("小李 自摸 ×2", timeout=5_000)
    seen_after = POLL_SECONDS + (time.monotonic() - recorded)  # the skipped interval counts in full
    assert seen_after < 5
    assert second.locator(".tile .total").all_inner_texts() == ["−14", "+34", "−10", "−10"]
    assert second.evaluate("window.stillTheSamePage") == 42  # updated in place, never reloaded
    # Another phone's hand takes no focus the person had put nowhere (no ring round 「共 1 局」,
    # no screen reader sent there at every hand).
    second.clock.run_for(500)  # htmx settles the swap on the phone's own (paused) clock
    expect(second.locator("#tiles")).not_to_have_class(re.compile("htmx-settling"))
    assert second.evaluate("document.activeElement === document.body")
    shot(second, "second-phone-after-update")
    for context in phones:
        context.close()

"""No signal at the table: once the service worker holds the page (templates/pwa/sw.js), a reload
offline shows the game page as last seen, saying so, and a page never seen shows the offline
page with a link to it, not the browser's own error page."""

import re

import pytest
from playwright.sync_api import expect

from scoring.models import Game
from scoring.rulesets.yiwu.engine import Rules
from tests.browser.conftest import PHONE
from tests.helpers import game_url

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

CONTROLLED = """async () => {
  await navigator.serviceWorker.ready;
  if (!navigator.serviceWorker.controller) {
    await new Promise((resolve) => navigator.serviceWorker.addEventListener("controllerchange", resolve, {once: true}));
  }
  return navigator.serviceWorker.controller.scriptURL;
}"""


def test_a_game_page_opens_offline_as_last_seen_and_an_unseen_one_gives_the_offline_page(browser, live_server, shot):
    seen, unseen = (
        Game.objects.create(players=names, rules=Rules().to_dict())
        for names in (["老王", "小李", "阿华", "大刘"], ["甲", "乙", "丙", "丁"])
    )
    context = browser.new_context(viewport=PHONE, locale="zh-CN", service_workers="allow")
    context.set_default_timeout(10_000)
    page = context.new_page()
    page.goto(f"{live_server.url}{game_url(seen)}")
    assert page.evaluate(CONTROLLED) == f"{live_server.url}/sw.js"
    expect(page.locator(".kept-copy")).to_have_count(0)  # the network answered: the live page

    context.set_offline(True)
    page.reload()
    expect(page.locator(".tile")).to_have_count(4)
    expect(page.locator(".tile").first).to_contain_text("老王")
    expect(page.locator(".kept-copy")).to_contain_text(re.compile(r"^信号弱或离线：这是本机 \d\d:\d\d 存下的页面"))
    shot(page, "offline-game-as-last-seen")

    page.goto(f"{live_server.url}{game_url(unseen)}")
    expect(page.locator("h1")).to_contain_text("离线")
    kept = page.locator("[data-kept] a")
    expect(kept).to_have_count(1)
    expect(kept).to_have_attribute("href", game_url(seen))
    expect(page.get_by_text("这台手机还没有存下牌局页面")).to_be_hidden()
    shot(page, "offline-page")
    kept.click()
    expect(page).to_have_url(f"{live_server.url}{game_url(seen)}")
    expect(page.locator(".tile").first).to_contain_text("老王")
    expect(page.locator(".kept-copy")).to_be_visible()  # htmx's boosted link got the kept copy too
    context.close()

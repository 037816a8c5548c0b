"""A hand entered from the record flow's links with no network (static/js/offline.js with the
bundle of steps, static/js/steps.js): the questions show from the bundle, the link to the preview
shows the offline confirm screen with the hand's title, 记下 keeps it as a 待同步 row on the game
page, and once the network is back it is recorded once, with its amounts. Once with the service
worker (the game page reloaded offline from its cache, the bundle too), once without it."""

import re

import pytest
from playwright.sync_api import expect

from scoring.models import Game, Hand
from scoring.rulesets.yiwu.engine import Rules
from tests.browser.conftest import PHONE
from tests.browser.test_installed_app import CONTROLLED
from tests.helpers import game_url

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
READY = "(v) => document.documentElement.dataset.stepsReady === v"
BUNDLE_KEPT = """async () => {
  for (let i = 0; i < 200; i++) {
    const keys = await (await caches.open("pages-1")).keys();
    if (keys.some((key) => new URL(key.url).pathname.endsWith("/steps"))) return true;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return false;
}"""


def new_game() -> Game:
    return Game.objects.create(players=["老王", "小李", "阿华", "大刘"], rules=Rules().to_dict())


def keep_from_the_screen(page, facts: str) -> None:
    """The offline confirm screen says the hand and no amounts; 记下 keeps it, the game page shows its row."""
    screen = page.locator(".offline-confirm-screen")
    expect(screen.locator("[data-offline-facts]")).to_have_text(facts)
    expect(screen).to_contain_text("联网后计算")
    expect(screen.locator(".question")).to_be_focused()
    screen.get_by_role("button", name="确认记录").click()
    row = page.locator("#hands .pending-row")
    expect(row.locator(".title")).to_have_text(facts)
    expect(row.locator(".later")).to_have_text("联网后计算")
    expect(page.locator("#hands .no-hands")).to_be_hidden()  # 「还没有记录」 is no longer said
    expect(page.locator("#offline-banner")).to_have_text("离线 · 1 局待同步")


def test_offline_reload_then_winner_zimo_keeps_the_hand_and_it_is_recorded_once(browser, live_server, shot):
    game = new_game()
    url = f"{live_server.url}{game_url(game)}"
    context = browser.new_context(viewport=PHONE, locale="zh-CN", service_workers="allow")
    context.set_default_timeout(10_000)
    page = context.new_page()
    page.goto(url)
    assert page.evaluate(CONTROLLED) == f"{live_server.url}/sw.js"
    assert page.evaluate(BUNDLE_KEPT)  # fetched again through the worker once it took over

    context.set_offline(True)
    page.reload()  # the worker's copy of the page, and of its bundle
    expect(page.locator(".kept-copy")).to_be_visible()
    page.wait_for_function(READY, arg=str(game.version))
    page.locator("section.record a[href*='winner=0&']").click()
    expect(page.locator(".question")).to_contain_text("老王 胡了 — 怎么胡？")
    page.locator("a[href$='win_type=zimo']").first.click()
    expect(page.locator(".offline-confirm-screen")).to_be_visible()
    shot(page, "offline-confirm-from-a-link")
    keep_from_the_screen(page, "老王 自摸 ×2")
    assert re.search(r"/g/[^/]+/$", page.url)
    shot(page, "offline-pending-row-from-a-link")
    assert Hand.objects.filter(game=game).count() == 0

    context.set_offline(False)
    expect(page.locator("#hands details.hand-row")).to_have_count(1)  # the poll the sync asked for landed
    expect(page.locator("#flash")).to_have_text("存在这台手机上的一局已记上，是第1局。")  # and left what was said
    expect(page.locator("#hands .pending-row")).to_have_count(0)
    other = browser.new_context(viewport=PHONE, locale="zh-CN").new_page()
    other.goto(url)
    row = other.locator("#hands .hand-row")
    expect(row).to_have_count(1)
    expect(row.locator(".title")).to_have_text("老王 自摸 ×2")
    expect(other.locator(".tile").first).to_contain_text("+")  # the dealer's 自摸, paid by three
    hand = Hand.objects.get(game=game)
    assert hand.entry["winner"] == 0
    assert hand.entry["win_type"] == "zimo"
    other.context.close()
    context.close()


def test_offline_winner_pinghu_discarder_keeps_the_hand_and_cancel_goes_back(live_server, phone):
    game = new_game()
    phone.goto(f"{live_server.url}{game_url(game)}")
    phone.wait_for_function(READY, arg=str(game.version))
    phone.context.set_offline(True)
    phone.locator("section.record a[href*='winner=1&']").click()
    expect(phone.locator(".question")).to_contain_text("小李 胡了")
    phone.locator("a[href$='win_type=pinghu&discarder=2']").click()
    expect(phone.locator(".offline-confirm-screen [data-offline-facts]")).to_have_text("小李 平胡 ×1 · 阿华放铳")
    phone.get_by_role("button", name="取消").click()  # back to the question, as it was
    expect(phone.locator(".offline-confirm-screen")).to_have_count(0)
    expect(phone.locator(".question")).to_contain_text("小李 胡了")
    phone.locator("a[href$='win_type=pinghu&discarder=2']").click()
    keep_from_the_screen(phone, "小李 平胡 ×1 · 阿华放铳")

    phone.context.set_offline(False)
    expect(phone.locator("#hands details.hand-row")).to_have_count(1)  # the poll the sync asked for landed
    expect(phone.locator("#flash")).to_have_text("存在这台手机上的一局已记上，是第1局。")  # and left what was said
    hand = Hand.objects.get(game=game)
    assert (hand.entry["winner"], hand.entry["discarder"], hand.entry["win_type"]) == (1, 2, "pinghu")


def test_offline_a_zhuji_sheet_that_needs_a_tai_says_so(live_server, phone):
    from tests.conftest import new_ruleset_game

    game = new_ruleset_game("zhuji", ["老王", "小李", "阿华", "大刘"])
    phone.goto(f"{live_server.url}{game_url(game)}")
    phone.wait_for_function(READY, arg=str(game.version))
    phone.context.set_offline(True)
    phone.locator("section.record a[href*='winner=2&']").click()
    phone.get_by_role("link", name="自摸").click()  # 0 台 is no hand: the sheet is the server's
    expect(phone.locator("#flash")).to_have_text("离线：这一局需要联网才能填完")
    expect(phone.locator(".offline-confirm-screen")).to_have_count(0)

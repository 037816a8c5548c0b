"""The game page at the table (390×844): open explanations survive a poll, other phones learn the
game ended, hand rows look tappable, a message floats and goes, #hand-N unfolds its row."""

import re

import pytest
from django.test import Client
from playwright.sync_api import expect

from scoring import services
from scoring.models import Game
from scoring.rulesets.yiwu.engine import Rules
from tests.helpers import game_url, record

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
PHONE = {"width": 390, "height": 844}
POLL_MS = 3_000
DEALER_ZIMO = {"outcome": "win", "winner": 0, "win_type": "zimo"}


def two_phones(browser, live_server, game):
    """The first phone records; the second watches with a clock the test moves."""
    contexts = [browser.new_context(viewport=PHONE, locale="zh-CN") for _ in range(2)]
    first, second = (c.new_page() for c in contexts)
    second.clock.install()
    first.goto(f"{live_server.url}{game_url(game)}")
    second.goto(f"{live_server.url}{game_url(game)}")
    second.clock.pause_at(second.evaluate("Date.now()") / 1000 + 1)  # in seconds
    return contexts, first, second


def new_game() -> Game:
    return Game.objects.create(players=["老王", "小李", "阿华", "大刘"], rules=Rules().to_dict())


def test_an_open_explanation_stays_open_when_another_phones_hand_arrives(live_server, browser, shot):
    game = new_game()
    client = Client()
    record(client, game, DEALER_ZIMO)
    record(client, game, {"outcome": "draw"})
    contexts, first, second = two_phones(browser, live_server, game)
    second.locator("#hand-1 summary").click()
    expect(second.locator("#hand-1")).to_have_attribute("open", "")
    second.evaluate("window.stillTheSamePage = 1")

    first.get_by_role("link", name="小李", exact=True).click()
    first.get_by_role("link", name=re.compile("^自摸")).click()
    first.get_by_role("button", name="确认记录").click()
    expect(first.locator(".alert-success")).to_be_visible()

    second.clock.run_for(POLL_MS)
    expect(second.locator("#hand-3")).to_be_attached()  # the new hand arrived by the poll
    assert second.evaluate("window.stillTheSamePage") == 1
    expect(second.locator("#hand-1")).to_have_attribute("open", "")  # still unfolded
    expect(second.locator("#hand-1 .why")).to_be_visible()
    assert second.locator("#hand-2").get_attribute("open") is None  # closed rows stay closed
    shot(second, "game-open-row-after-poll")
    for c in contexts:
        c.close()


def test_other_phones_learn_the_game_ended(live_server, browser, shot):
    game = new_game()
    record(Client(), game, DEALER_ZIMO)
    contexts, _first, second = two_phones(browser, live_server, game)
    expect(second.get_by_role("link", name="老王", exact=True)).to_be_visible()
    expect(second.locator("#hand-1 a", has_text="修改")).to_be_attached()
    expect(second.locator("#bets").get_by_role("button", name=re.compile("买子"))).to_have_count(4)

    services.finish_game(game=Game.objects.get(pk=game.pk), rate_fen=100, fee_fen=0, fee_mode="equal", fee_payee=0)
    second.clock.run_for(POLL_MS)
    expect(second.get_by_role("link", name="已结束 · 看结算")).to_be_visible()
    expect(second.locator(".record")).to_have_count(0)  # no 谁胡了 buttons
    expect(second.locator("#hand-1 a", has_text="修改")).to_have_count(0)
    expect(second.locator("#hand-1 a", has_text="作废")).to_have_count(0)
    expect(second.locator("#bets button")).to_have_count(0)  # no 买子 to be refused
    shot(second, "game-finished-by-poll")
    for c in contexts:
        c.close()


def test_hand_rows_look_and_feel_tappable(live_server, phone, shot):
    game = new_game()
    record(Client(), game, DEALER_ZIMO)
    phone.goto(f"{live_server.url}{game_url(game)}")
    summary = phone.locator("#hand-1 summary")
    assert summary.bounding_box()["height"] >= 44
    chevron = "(s) => getComputedStyle(s, '::after')"
    assert summary.evaluate(f"{chevron}.content") == '"›" / ""'  # drawn, not read aloud
    closed = summary.evaluate(f"{chevron}.transform")
    summary.click()
    phone.wait_for_timeout(250)  # the turn's transition
    assert summary.evaluate(f"{chevron}.transform") != closed  # the chevron turns when open
    shot(phone, "game-row-open")


def test_a_message_floats_over_the_page_and_goes_when_newer_hands_arrive(live_server, browser, shot):
    game = new_game()
    record(Client(), game, DEALER_ZIMO)
    context = browser.new_context(viewport=PHONE, locale="zh-CN")
    page = context.new_page()
    page.clock.install()  # runs in real time until paused (htmx swaps on timers)
    page.goto(f"{live_server.url}{game_url(game)}")
    tiles_top = page.locator("#tiles").bounding_box()["y"]
    # This phone records a hand itself: its page comes back with 「已记录第2局。」
    page.get_by_role("link", name="小李", exact=True).click()
    page.get_by_role("link", name=re.compile("^自摸")).click()
    page.get_by_role("button", name="确认记录").click()
    flash = page.locator("#flash .alert-success")
    expect(flash).to_have_text("已记录第2局。")
    page.clock.pause_at(
        page.evaluate("Date.now()") / 1000 + 1
    )  # seconds (a number in ms would jump years); 1 s ahead, never in the past
    assert page.locator("#tiles").bounding_box()["y"] == tiles_top  # it does not push the page down
    assert flash.evaluate("(a) => getComputedStyle(a.parentElement).position") == "fixed"
    shot(page, "game-flash-toast")
    for name in ("邀请", "规则"):  # the top bar's links stay in reach under the toast
        link = page.locator("nav.topbar").get_by_role("link", name=name)
        box = link.bounding_box()
        centre = "([x, y]) => document.elementFromPoint(x, y).closest('a')?.textContent"
        assert page.evaluate(centre, [box["x"] + box["width"] / 2, box["y"] + box["height"] / 2]) == name

    record(Client(), game, {"outcome": "draw"})  # another phone's hand
    expect(flash).to_be_visible()  # still there before the poll
    page.clock.run_for(POLL_MS)
    expect(page.locator("#hand-3")).to_be_attached()
    expect(page.locator("#flash .alert")).to_have_count(0)  # old news: gone with the poll
    context.close()


def test_a_refused_void_leads_to_the_hand_it_names_unfolded(live_server, phone, shot):
    game = new_game()
    client = Client()
    record(client, game, DEALER_ZIMO)
    record(client, game, {"outcome": "draw", "xiazi_join": [1]})
    phone.goto(f"{live_server.url}{game_url(game)}hand/1/void")
    expect(phone.locator(".alert-danger")).to_contain_text("作废后对不上")
    assert "§" not in phone.locator("main").inner_text()
    shot(phone, "void-blocked")
    link = phone.locator("a.blocked-hand")
    seq = re.search(r"#hand-(\d+)$", link.get_attribute("href"))[1]
    link.click()
    expect(phone.locator(f"#hand-{seq}")).to_have_attribute("open", "")
    expect(phone.locator(f"#hand-{seq} .why")).to_be_in_viewport()
    shot(phone, "game-named-row-open")

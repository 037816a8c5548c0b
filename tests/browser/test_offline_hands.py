"""Hands entered with no network (Playwright's offline mode): kept on the phone, shown as 待同步,
sent once the network is back, each exactly once (static/js/offline.js)."""

import re

import pytest
from django.test import Client
from playwright.sync_api import expect

from scoring.models import Game, Hand
from scoring.rulesets.yiwu.engine import Rules
from tests.browser.helpers import form_ready
from tests.helpers import game_url, record

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
PHONE = {"width": 390, "height": 844}
DEALER_ZIMO = {"outcome": "win", "winner": 0, "win_type": "zimo"}


def new_game(**rules) -> Game:
    return Game.objects.create(players=["老王", "小李", "阿华", "大刘"], rules=Rules(**rules).to_dict())


def confirm_button(page):
    return page.locator("#preview-panel").get_by_role("button", name="确认记录")


def test_a_hand_entered_offline_reaches_the_other_phone_once_after_the_hand_recorded_meanwhile(
    live_server, browser, shot
):
    game = new_game()
    url = f"{live_server.url}{game_url(game)}"
    contexts = [browser.new_context(viewport=PHONE, locale="zh-CN") for _ in range(2)]
    mine, other = (context.new_page() for context in contexts)
    mine.goto(url)
    mine.locator(f"form[action='{game_url(game)}me/0'] button").click()  # 我是老王
    expect(mine.locator(f"form[action='{game_url(game)}me/0'] button.btn-dark")).to_be_visible()  # it landed
    mine.get_by_role("link", name="老王", exact=True).click()
    mine.get_by_role("link", name=re.compile("^自摸")).click()
    form_ready(mine)

    contexts[0].set_offline(True)  # the table's Wi-Fi drops
    confirm_button(mine).click()
    row = mine.locator("#hands .pending-row")  # the game page at once, the hand on it, waiting
    expect(row.locator(".title")).to_have_text("老王 自摸 ×2")
    expect(row.locator(".nets")).to_have_text("老王 +42小李 −14阿华 −14大刘 −14")  # as its preview showed
    expect(row.locator(".later")).to_have_text("联网后发送")
    expect(mine.locator("#flash")).to_have_text("这一局已存在这台手机上，联网后自动发送。")
    expect(mine.locator("#offline-banner")).to_have_text("离线 · 1 局待同步")
    shot(mine, "offline-kept-on-the-phone")
    xiaoli = Client()
    xiaoli.post(game_url(game) + "me/1")
    record(xiaoli, game, {"outcome": "draw"})  # 小李's phone, online: a 流局, 老王 still deals
    assert Hand.objects.filter(game=game).count() == 1

    mine.evaluate("window.stillTheSamePage = 42")
    contexts[0].set_offline(False)
    expect(mine.locator("#hands details.hand-row")).to_have_count(2)  # both recorded hands, polled
    expect(mine.locator("#flash")).to_have_text(
        "这一局存在你手机上时，小李记了第1局；你记的已排在第2局。"
    )  # still said
    expect(mine.locator("#offline-banner")).to_have_count(0)
    assert mine.evaluate("window.stillTheSamePage") == 42  # the game page came by htmx, no reload
    shot(mine, "offline-synced-after-another-phones-hand")
    other.goto(url)
    expect(other.locator("#hands .title").get_by_text("老王 自摸 ×2")).to_have_count(1)
    hand = Hand.objects.get(game=game, seq=2)
    assert (hand.entry, hand.entered_by) == (DEALER_ZIMO, "老王")
    for context in contexts:
        context.close()


def test_a_confirm_whose_answer_was_lost_is_sent_again_and_recorded_once(live_server, phone):
    game = new_game()
    phone.goto(f"{live_server.url}{game_url(game)}record?winner=1&win_type=zimo")
    form_ready(phone)
    lost = []

    def lose_the_answer(route):
        if route.request.method == "POST" and not lost:
            lost.append(route.fetch())  # the server records the hand; its answer never arrives
            route.abort("internetdisconnected")
        else:
            route.continue_()

    phone.route("**/record", lose_the_answer)
    confirm_button(phone).click()
    expect(phone.locator(".offline-kept")).to_be_visible()  # no copy of the game page here: the note
    expect(phone.locator("#flash")).to_have_text("连不上服务器：这一局存在这台手机上，会自动重发。")
    assert lost[0].status == 200
    assert Hand.objects.filter(game=game).count() == 1
    phone.evaluate("window.dispatchEvent(new Event('online'))")  # not waiting for the retry
    expect(phone.locator("#hands details.hand-row")).to_have_count(1)
    expect(phone.locator("#flash")).to_have_text("这台手机存着的第1局已经记上了，没有重复记录。")
    assert Hand.objects.filter(game=game).count() == 1
    assert phone.evaluate("localStorage.length") == 0
    phone.route("**/record?*", lambda route: route.abort("internetdisconnected"))  # onLine says yes
    phone.wait_for_function(  # this version's questions are on the phone
        "() => document.documentElement.dataset.stepsReady === document.querySelector('[data-steps]').dataset.version"
    )
    phone.get_by_role("link", name="阿华", exact=True).click()  # a question sent ahead: no request
    phone.get_by_role("link", name=re.compile("^自摸")).click()  # the preview: the server's, which fails
    expect(phone.locator(".offline-confirm-screen [data-offline-facts]")).to_have_text("阿华 自摸 ×2")


def test_a_refused_queued_hand_stays_with_its_reason_until_deleted(live_server, phone, shot):
    game = new_game(maizi_buy="tenure_start")  # 买子 only when a dealer's tenure starts
    phone.goto(f"{live_server.url}{game_url(game)}record?winner=0&win_type=zimo&maizi=2")
    form_ready(phone)
    phone.context.set_offline(True)
    confirm_button(phone).click()
    expect(phone.locator(".offline-kept")).to_be_visible()
    record(Client(), game, DEALER_ZIMO)  # meanwhile the dealer won: 连庄, no 买子 now

    phone.context.set_offline(False)
    row = phone.locator("#hands .pending-row")
    expect(row.locator(".pending-badge")).to_have_text("没有记上")
    expect(row.locator(".title")).to_have_text("老王 自摸 ×2")
    expect(row.locator(".reason")).to_contain_text("连庄后不可买子")
    expect(phone.locator("#flash")).to_contain_text("没有记上")
    expect(phone.locator("#offline-banner")).to_have_text("1 局待同步")
    expect(row.get_by_role("link", name="修改")).to_have_attribute("href", re.compile(r"record\?.*maizi=2"))
    shot(phone, "offline-refused-row")

    phone.context.set_offline(True)
    phone.locator(".links").get_by_role("link", name="结算").click()
    expect(phone.locator("#flash")).to_have_text("离线：修改/作废/结算需要联网")
    phone.locator("a.manual-link").click()  # a form to type in: never kept from a link
    expect(phone.locator("#flash")).to_have_text("离线：这一步需要联网")
    expect(phone.locator("#offline-banner")).to_have_text("离线 · 1 局待同步")
    shot(phone, "offline-banner-and-row")

    row.get_by_role("button", name="删除").click()
    row.get_by_role("button", name="确认删除").click()
    expect(phone.locator("#hands .pending-row")).to_have_count(0)
    assert phone.evaluate("localStorage.length") == 0
    assert Hand.objects.filter(game=game).count() == 1

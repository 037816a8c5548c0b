"""The table's other writes in the one outbox (issue 42, docs/offline.md): 下注 and 核对 at the tap, 作废
at its 确认, each painted at once as a 「待同步」 row, kept through a 502 or a refused connection, sent
again by itself, in the order tapped behind the phone's kept hands, and done once; what the server
refuses comes back to its row with the reason and holds nothing up (static/js/offline.js)."""

import re

import pytest
from django.test import Client
from playwright.sync_api import expect

from scoring.models import Game, Hand, HandCheck
from tests.browser.test_outbox import WAITING, Between, confirm, new_game, open_game, preview, proxy_502, refused, sent
from tests.helpers import game_url, record

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
WRITE = "#hands .pending-row.write-row"
ZIMO = {"outcome": "win", "winner": 0, "win_type": "zimo"}


def pending(game: Game) -> dict:
    return Game.objects.get(pk=game.pk).pending


def failing_at(phone, address: str, fail=proxy_502) -> Between:
    """The outbox's sends to ``address`` (and to the record address) meet ``fail`` until ``failing`` is False."""
    server = Between(phone, fail)
    phone.route(address, server)
    return server


def kept(phone, title: str, now: str):
    """The write's 待同步 row, named ``title``, saying ``now`` of its sending."""
    row = phone.locator(WRITE)
    expect(row.locator(".title")).to_have_text(title)
    expect(row.locator(".later")).to_have_text(now)
    return row


def eventually(page, what, tries: int = 50) -> None:
    """Waits (up to 10 s) until ``what()`` is true of the database, as the phone's sends reach it."""
    for _ in range(tries):
        if what():
            return
        page.wait_for_timeout(200)
    raise AssertionError("the database never showed it")


def test_a_bet_tapped_behind_a_kept_hand_is_painted_at_once_and_lands_after_it(live_server, phone, shot):
    """小李's 自摸 passes the deal and waits behind a 502; 阿华's 买子, tapped for the hand after it,
    waits behind it and lands after it: the hand would have cleared a bet that went ahead of it."""
    game = new_game()
    open_game(phone, live_server, game)
    preview(phone, "小李")
    server = failing_at(phone, "**/bet")
    confirm(phone)
    expect(phone.locator(f"{WAITING} .later")).to_have_text("服务器没有回应，自动重发中")
    phone.get_by_role("button", name="阿华 买子").click()
    bet = phone.locator(WRITE)
    expect(bet.locator(".title")).to_have_text("下注 · \u2068阿华\u2069 买子")  # the name isolated
    expect(bet.locator(".pending-badge")).to_have_text("待同步")
    expect(bet.locator(".later")).to_have_text("排队发送")  # behind the hand, not sent ahead of it
    expect(phone.locator("#offline-banner")).to_have_text("没发出去 · 2 项存在这台手机上，自动重发中")
    shot(phone, "outbox-bet-behind-a-kept-hand")
    assert pending(game) == {}

    server.failing = False
    server.answered(2)
    assert server.answers[0]["seq"] == 1  # the hand first, then the bet
    assert server.answers[1]["ok"] is True
    assert server.answers[1]["already"] is False
    expect(phone.locator("#hands details.hand-row")).to_have_count(1)
    expect(phone.locator(WAITING)).to_have_count(0)
    expect(phone.locator("#offline-banner")).to_have_count(0)
    assert [h.entry["winner"] for h in Hand.objects.filter(game=game)] == [1]
    assert pending(game)["maizi"] == [2]  # placed for the hand after 小李's
    expect(phone.get_by_role("button", name=re.compile("阿华 买子 ✓"))).to_be_visible()
    assert phone.evaluate("localStorage.length") == 0
    times = phone.evaluate("window.outboxTimes")
    assert len(times) == 2  # the hand's 确认 and the bet's tap, each painted as its row
    print("tap-to-row ms (hand, bet):", times)


def test_a_bet_under_a_refused_connection_is_kept_and_placed_once_when_the_server_answers(live_server, phone):
    game = new_game()
    open_game(phone, live_server, game)
    server = failing_at(phone, "**/bet", refused)
    phone.get_by_role("button", name="阿华 买子").click()
    expect(phone.locator(f"{WRITE} .later")).to_have_text("连不上服务器，自动重发中")
    expect(phone.locator("#flash")).to_have_text("连不上服务器：这项改动存在这台手机上，会自动重发。")
    expect(phone.get_by_role("button", name="阿华 买子")).to_be_visible()  # the page as it was, nothing moved
    server.failing = False
    server.answered(1)
    expect(phone.locator(WRITE)).to_have_count(0)
    expect(phone.get_by_role("button", name=re.compile("阿华 买子 ✓"))).to_be_visible()
    assert pending(game)["maizi"] == [2]


def test_a_bet_the_server_takes_but_never_answers_is_sent_again_and_placed_once(live_server, phone):
    """The first send reaches the app (the bet is placed) and its answer is lost; the phone gives up
    after 8 s, keeps the bet and sends it again with the same token: answered as already done."""
    game = new_game()
    open_game(phone, live_server, game)
    answers = []

    def swallow_first(route):
        if not sent(route.request):
            route.continue_()
            return
        response = route.fetch()
        answers.append(response.json())
        if len(answers) > 1:
            route.fulfill(response=response)  # else: never answered

    phone.route("**/bet", swallow_first)
    phone.get_by_role("button", name="阿华 买子").click()
    eventually(phone, lambda: pending(game).get("maizi") == [2])
    expect(phone.locator(f"{WRITE} .later")).to_have_text("服务器太慢，自动重发中", timeout=15_000)
    expect(phone.locator(WRITE)).to_have_count(0, timeout=15_000)
    assert [a["already"] for a in answers] == [False, True]
    assert pending(game)["maizi"] == [2]  # once: a second 买子 of the same tap would be taken back
    expect(phone.get_by_role("button", name=re.compile("阿华 买子 ✓"))).to_be_visible()


def test_a_double_tap_on_a_bet_is_one_write(live_server, phone):
    game = new_game()
    open_game(phone, live_server, game)
    sends = []
    phone.on("request", lambda request: sends.append(request.url) if sent(request) else None)
    phone.get_by_role("button", name="阿华 买子").dblclick()
    expect(phone.get_by_role("button", name=re.compile("阿华 买子 ✓"))).to_be_visible()
    expect(phone.locator(WRITE)).to_have_count(0)
    assert pending(game)["maizi"] == [2]
    assert len(sends) == 1


def test_checks_kept_offline_go_once_the_network_is_back(live_server, phone):
    game = new_game()
    for _ in range(2):
        record(Client(), game, ZIMO)
    open_game(phone, live_server, game)
    check = phone.get_by_role("button", name="到第2局都对")
    expect(check).to_be_visible()
    phone.context.set_offline(True)
    check.click()
    kept(phone, "核对 · 到第2局都对", "联网后发送")
    expect(phone.locator("#offline-banner")).to_have_text("离线 · 1 项待同步")
    phone.context.set_offline(False)
    expect(phone.locator(WRITE)).to_have_count(0)
    expect(phone.locator("#flash")).to_contain_text("已核对 2 局。")
    assert HandCheck.objects.filter(hand__game=game, verdict="ok").count() == 2


def test_a_void_confirmed_under_a_502_goes_to_the_game_page_at_once_and_voids_the_hand_once(live_server, phone, shot):
    game = new_game()
    record(Client(), game, ZIMO)
    record(Client(), game, {"outcome": "win", "winner": 0, "win_type": "zimo"})
    open_game(phone, live_server, game)
    phone.locator("#hand-1 summary").click()
    phone.locator("#hand-1").get_by_role("link", name="作废").click()  # boosted: the game page is in history
    expect(phone.get_by_role("button", name="确认作废")).to_be_visible()
    server = failing_at(phone, "**/void")
    phone.get_by_role("button", name="确认作废").click()
    kept(phone, "作废第1局", "服务器没有回应，自动重发中")
    shot(phone, "outbox-void-kept")
    assert not Hand.objects.get(game=game, seq=1).voided
    server.failing = False
    server.answered(1)
    expect(phone.locator(WRITE)).to_have_count(0)
    assert Hand.objects.get(game=game, seq=1).voided
    assert len(server.answers) == 1


def test_a_stale_void_comes_back_to_its_row_with_the_reason_and_holds_nothing_up(live_server, phone, shot):
    """Another phone records a hand while the void page is open: the void's preview is stale. The
    refusal is said on its row with where to look again, and a hand tapped after it is not held."""
    game = new_game()
    record(Client(), game, ZIMO)
    open_game(phone, live_server, game)
    phone.goto(f"{live_server.url}{game_url(game)}hand/1/void")
    record(Client(), game, {"outcome": "win", "winner": 1, "win_type": "zimo"})  # another phone, meanwhile
    phone.get_by_role("button", name="确认作废").click()
    row = phone.locator(WRITE)
    expect(row.locator(".pending-badge")).to_have_text("没有改")
    expect(row.locator(".reason")).to_contain_text("请看新的预览")
    expect(row.get_by_role("button", name="知道了")).to_be_visible()
    expect(row.get_by_role("link", name="打开看看")).to_be_visible()
    expect(phone.locator("#offline-banner")).to_have_count(0)  # nothing waits
    shot(phone, "outbox-void-refused")
    assert not Hand.objects.get(game=game, seq=1).voided

    expect(phone.locator("#hand-2")).to_be_visible()  # the table as it is now, the other phone's hand in it
    preview(phone, "阿华")
    confirm(phone)
    expect(phone.locator("#hands details.hand-row")).to_have_count(3)  # not held behind the refusal
    row.get_by_role("button", name="知道了").click()
    expect(phone.locator(WRITE)).to_have_count(0)


def test_an_edit_confirmed_under_a_502_is_kept_named_and_made_once(live_server, phone):
    game = new_game()
    record(Client(), game, ZIMO)
    open_game(phone, live_server, game)
    phone.locator("#hand-1 summary").click()
    phone.locator("#hand-1").get_by_role("link", name="修改").click()
    phone.get_by_role("link", name="小李", exact=True).click()  # it was 小李's 自摸
    phone.get_by_role("link", name="自摸 ×2 原来").click()
    server = failing_at(phone, "**/edit")
    phone.get_by_role("button", name="确认修改").click()
    row = kept(phone, "修改 · 小李 自摸 ×2", "服务器没有回应，自动重发中")
    assert Hand.objects.get(game=game, seq=1).entry["winner"] == 0
    server.failing = False
    server.answered(1)
    expect(row).to_have_count(0)
    expect(phone.locator("#hand-1 .title")).to_have_text("小李 自摸 ×2")
    hand = Hand.objects.get(game=game, seq=1)
    assert (hand.entry["winner"], hand.revision) == (1, 1)  # once

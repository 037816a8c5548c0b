"""The one outbox (issue 42, docs/offline.md): 确认 paints the hand on the game page at once with
its preview's amounts and sends it; whatever fails under it (a proxy's 502 page, a refused
connection, no answer in time) keeps it, says so and sends it again by itself, in the order
tapped, once; only a real conflict asks a question (static/js/offline.js)."""

import json
import re

import pytest
from django.test import Client
from playwright.sync_api import expect

from scoring.models import Game, Hand
from scoring.rulesets.yiwu.engine import Rules
from tests.browser.helpers import form_ready
from tests.helpers import game_url, record

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
PROXY_PAGE = "<html><body><h1>502 Bad Gateway</h1><hr>nginx</body></html>"
WAITING = "#hands .pending-row"


def new_game(**rules) -> Game:
    return Game.objects.create(players=["老王", "小李", "阿华", "大刘"], rules=Rules(**rules).to_dict())


def sent(request) -> bool:
    """The outbox's send of a hand (queued=1), not a preview's refresh."""
    return request.method == "POST" and "queued=1" in (request.post_data or "")


def open_game(page, live_server, game: Game) -> None:
    page.goto(f"{live_server.url}{game_url(game)}")
    page.locator(f"form[action='{game_url(game)}me/0'] button").click()  # 我是老王
    expect(page.locator(f"form[action='{game_url(game)}me/0'] button.btn-dark")).to_be_visible()


def preview(page, winner: str) -> None:
    """From the game page: the winner, 自摸, the preview on screen."""
    page.locator("section.record").get_by_role("link", name=winner, exact=True).click()
    page.get_by_role("link", name=re.compile("^自摸")).click()
    form_ready(page)
    expect(page.locator("#preview-panel button[data-amounts]")).to_be_visible()


def confirm(page) -> None:
    page.locator("#preview-panel").get_by_role("button", name="确认记录").click()


def proxy_502(route) -> None:
    """The proxy's answer while the app restarts behind it."""
    route.fulfill(status=502, content_type="text/html", body=PROXY_PAGE)


def refused(route) -> None:
    """No app behind the address: the connection is refused, the phone's network up."""
    route.abort("connectionrefused")


def sends_meet(fail):
    """A route on the record address: the outbox's sends meet ``fail``, the previews' refreshes go on."""
    return lambda route: fail(route) if sent(route.request) else route.continue_()


class Between:
    """Between the phone and the app on the record address: while ``failing``, each send of the outbox
    meets ``fail``; after, it reaches the app and the app's JSON answer is kept in ``answers``."""

    def __init__(self, page, fail) -> None:
        self.page, self.fail, self.failing, self.answers = page, fail, True, []
        page.route("**/record", self)

    def __call__(self, route) -> None:
        if not sent(route.request):
            route.continue_()
        elif self.failing:
            self.fail(route)
        else:
            response = route.fetch()
            self.answers.append(json.loads(response.text()))
            route.fulfill(response=response)

    def answered(self, count: int) -> None:
        """Waits (up to 10 s) until the app has answered ``count`` sends."""
        for _ in range(100):
            if len(self.answers) >= count:
                return
            self.page.wait_for_timeout(100)
        raise AssertionError(f"{len(self.answers)} of {count} sends answered")


def winners(game: Game) -> list[int]:
    return [h.entry["winner"] for h in Hand.objects.filter(game=game).order_by("seq")]


def test_a_502_page_on_confirm_keeps_the_hand_says_so_and_it_lands_once_when_the_server_is_back(
    live_server, phone, shot
):
    game = new_game()
    open_game(phone, live_server, game)
    preview(phone, "老王")
    phone.route("**/record", sends_meet(proxy_502))
    confirm(phone)
    row = phone.locator(WAITING)
    expect(row.locator(".title")).to_have_text("老王 自摸 ×2")
    expect(row.locator(".nets")).to_have_text("老王 +42小李 −14阿华 −14大刘 −14")  # the preview's, at once
    expect(row.locator(".later")).to_have_text("服务器没有回应，自动重发中")
    expect(phone.locator("#flash")).to_have_text("服务器没有回应：这一局存在这台手机上，会自动重发。")
    expect(phone.locator("#offline-banner")).to_have_text("没发出去 · 1 局存在这台手机上，自动重发中")
    expect(row.get_by_role("button", name="删除")).to_be_visible()  # the person may still drop it
    phone.locator("#hands .hands-count").click()  # any tap puts the note away: the row still says it
    expect(phone.locator("#flash .alert")).to_have_count(0)
    shot(phone, "outbox-502-kept-retrying")
    assert Hand.objects.filter(game=game).count() == 0

    phone.unroute("**/record")  # the app is back behind its proxy: the next retry or poll sends it
    expect(phone.locator("#hands details.hand-row")).to_have_count(1)
    expect(phone.locator(WAITING)).to_have_count(0)
    expect(phone.locator("#offline-banner")).to_have_count(0)
    assert winners(game) == [0]
    assert phone.evaluate("localStorage.length") == 0


def test_a_refused_connection_with_the_network_up_keeps_the_hand_until_the_server_answers(live_server, phone):
    game = new_game()
    open_game(phone, live_server, game)
    preview(phone, "小李")
    phone.route("**/record", sends_meet(refused))
    confirm(phone)
    expect(phone.locator(f"{WAITING} .later")).to_have_text("连不上服务器，自动重发中")
    expect(phone.locator("#flash")).to_have_text("连不上服务器：这一局存在这台手机上，会自动重发。")
    phone.unroute("**/record")
    expect(phone.locator("#hands details.hand-row")).to_have_count(1)
    assert winners(game) == [1]


def test_a_send_with_no_answer_in_time_is_sent_again_and_recorded_once(live_server, phone, shot):
    game = new_game()
    open_game(phone, live_server, game)
    preview(phone, "老王")
    swallowed = []

    def swallow(route):  # the server records it, its answer never comes back
        if sent(route.request) and not swallowed:
            swallowed.append(route.fetch())
        else:
            route.continue_()

    phone.route("**/record", swallow)
    confirm(phone)
    expect(phone.locator(f"{WAITING} .later")).to_have_text("正在同步…")  # on its way, painted at once
    expect(phone.locator(f"{WAITING} .nets")).to_contain_text("老王 +42")
    shot(phone, "outbox-painted-at-once")
    expect(phone.locator(f"{WAITING} .later")).to_have_text("服务器太慢，自动重发中", timeout=15_000)
    assert swallowed
    assert swallowed[0].status == 200
    expect(phone.locator("#hands details.hand-row")).to_have_count(1)  # the resend: 「已经同步过了」
    expect(phone.locator(WAITING)).to_have_count(0)
    assert winners(game) == [0]


def test_a_hand_the_server_refuses_shows_its_reason_on_its_row_with_edit_and_delete(live_server, phone, shot):
    game = new_game(maizi_buy="tenure_start")  # 买子 only when a dealer's tenure starts
    open_game(phone, live_server, game)
    phone.goto(f"{live_server.url}{game_url(game)}record?winner=0&win_type=zimo&maizi=2")
    form_ready(phone)
    phone.go_back()  # the game page, then forward again: its copy in this tab's history
    expect(phone.locator("#hands")).to_be_visible()
    phone.go_forward()
    form_ready(phone)
    record(Client(), game, {"outcome": "win", "winner": 0, "win_type": "zimo"})  # 连庄 meanwhile: no 买子 now
    confirm(phone)
    row = phone.locator(WAITING)
    expect(row.locator(".pending-badge")).to_have_text("没有记上")
    expect(row.locator(".reason")).to_contain_text("连庄后不可买子")
    expect(row.get_by_role("link", name="修改")).to_have_attribute("href", re.compile(r"record\?.*maizi=2"))
    expect(row.get_by_role("button", name="删除")).to_be_visible()
    expect(phone.locator("#flash")).to_contain_text("没有记上")
    expect(phone.locator("#hands details.hand-row")).to_have_count(1)  # the other phone's, polled
    phone.locator("#hands .hands-count").click()
    expect(phone.locator("#flash .alert")).to_have_count(0)
    shot(phone, "outbox-refused-row")
    assert Hand.objects.filter(game=game).count() == 1


def test_hands_kept_through_an_outage_and_one_tapped_after_land_in_tap_order_with_no_question(live_server, phone):
    """Issue 42: three hands kept while the server fails (the first passes the deal), a fourth tapped
    as it comes back: 1, 2, 3, 4 in the order tapped, and no card asks about the phone's own hands."""
    game = new_game()
    open_game(phone, live_server, game)
    server = Between(phone, proxy_502)
    for n, winner in enumerate(["小李", "阿华", "大刘"], start=1):  # 小李's 自摸 passes the deal
        preview(phone, winner)
        confirm(phone)
        expect(phone.locator(WAITING)).to_have_count(n)
        expect(phone.locator(f"{WAITING} .title").nth(n - 1)).to_contain_text(f"{winner} 自摸")
    expect(phone.locator(f"{WAITING} .later").nth(1)).to_have_text("排队发送")
    preview(phone, "老王")
    server.failing = False  # the server is back as the fourth is tapped
    confirm(phone)
    expect(phone.locator("#hands details.hand-row")).to_have_count(4)
    expect(phone.locator(WAITING)).to_have_count(0)
    assert winners(game) == [1, 2, 3, 0]
    assert [a.get("held") for a in server.answers] == [None] * 4  # no card, no question
    assert [a["seq"] for a in server.answers] == [1, 2, 3, 4]
    expect(phone.locator("#held-hands")).to_have_count(0)
    times = phone.evaluate("window.outboxTimes")
    assert len(times) == 4
    print("tap-to-paint ms:", times)


def test_a_preview_drawn_before_the_phones_last_hand_landed_is_not_asked_about_that_hand(live_server, phone):
    """The outage run's stray card (docs/performance.md): 小李's 自摸 waits (the server refuses the
    connection) while 阿华's sheet is drawn at the table before it; 小李's lands, passing the deal,
    and only then is 阿华's confirmed. The table the phone knew is the one with its own hand: no card."""
    game = new_game()
    open_game(phone, live_server, game)
    server = Between(phone, refused)
    preview(phone, "小李")
    confirm(phone)
    expect(phone.locator(f"{WAITING} .later")).to_have_text("连不上服务器，自动重发中")
    preview(phone, "阿华")  # drawn with 老王 dealing: 小李's 自摸 is not in yet
    server.failing = False
    server.answered(1)
    assert winners(game) == [1]  # 小李's landed: he deals now, and the phone's queue is empty
    confirm(phone)
    expect(phone.locator("#hands details.hand-row")).to_have_count(2)
    assert winners(game) == [1, 2]
    assert [a.get("held") for a in server.answers] == [None, None]  # no card about the phone's own hand
    expect(phone.locator("#held-hands")).to_have_count(0)


def test_a_double_tap_on_confirm_records_one_hand(live_server, phone):
    game = new_game()
    open_game(phone, live_server, game)
    preview(phone, "阿华")
    phone.locator("#preview-panel").get_by_role("button", name="确认记录").dblclick()
    expect(phone.locator("#hands details.hand-row")).to_have_count(1)
    expect(phone.locator(WAITING)).to_have_count(0)
    assert phone.url.endswith(game_url(game))  # the second tap opened nothing under it
    assert winners(game) == [2]


def test_the_same_hand_kept_on_two_phones_is_recorded_once_and_the_other_phone_asked(live_server, browser):
    game = new_game()
    contexts = [browser.new_context(viewport={"width": 390, "height": 844}, locale="zh-CN") for _ in range(2)]
    pages = [context.new_page() for context in contexts]
    for page in pages:
        open_game(page, live_server, game)
        preview(page, "阿华")
        page.context.set_offline(True)
        confirm(page)
        expect(page.locator(WAITING)).to_have_count(1)
    contexts[0].set_offline(False)
    expect(pages[0].locator("#hands details.hand-row")).to_have_count(1)
    contexts[1].set_offline(False)
    expect(pages[1].locator("#held-hands")).to_contain_text("是同一局吗")
    assert winners(game) == [2]
    for context in contexts:
        context.close()


def test_a_502_under_a_link_past_the_questions_offers_to_keep_the_hand_and_it_goes_at_once(live_server, phone):
    game = new_game()
    open_game(phone, live_server, game)
    phone.wait_for_function(  # this version's questions are on the phone
        "() => document.documentElement.dataset.stepsReady === document.querySelector('[data-steps]').dataset.version"
    )
    phone.route("**/record?*", proxy_502)
    phone.locator("section.record").get_by_role("link", name="阿华", exact=True).click()  # a question: no request
    phone.get_by_role("link", name=re.compile("^自摸")).click()  # the preview: the proxy's page
    screen = phone.locator(".offline-confirm-screen")
    expect(screen.locator("[data-offline-facts]")).to_have_text("阿华 自摸 ×2")
    expect(screen.locator("h1")).to_have_text("记下这一局")  # the hand's 确认, not a question
    expect(screen.locator(".question")).to_have_text(
        "连不上服务器：确认后这一局先存在这台手机上。"
    )  # the network is up
    screen.get_by_role("button", name="确认记录").click()
    expect(phone.locator("#hands details.hand-row")).to_have_count(1)  # sent at once: the POST gets through
    expect(phone.locator(WAITING)).to_have_count(0)
    assert winners(game) == [2]


def test_a_sheet_fetched_ahead_before_the_server_stops_shows_its_amounts_and_its_hand_is_kept(live_server, phone):
    game = new_game()
    open_game(phone, live_server, game)
    phone.wait_for_function(
        "() => document.documentElement.dataset.stepsReady === document.querySelector('[data-steps]').dataset.version"
    )
    with phone.expect_response(re.compile(r"/record\?.*win_type=zimo")):  # fetched ahead as the win types show
        phone.locator("section.record").get_by_role("link", name="小李", exact=True).click()
    phone.wait_for_timeout(200)
    phone.route(re.compile(r"/g/"), lambda route: route.abort("connectionrefused"))  # the server stops
    phone.get_by_role("link", name=re.compile("^自摸")).click()
    expect(phone.locator("#preview-panel .preview-net")).to_have_count(4)  # the sheet, with its amounts
    expect(phone.locator(".offline-confirm-screen")).to_have_count(0)
    phone.locator("#preview-panel").get_by_role("button", name=re.compile("^确认")).click()
    row = phone.locator(WAITING)
    expect(row).to_contain_text("小李 自摸 ×2")
    expect(row.locator(".nets .net")).to_have_count(4)  # the amounts the sheet showed
    expect(row.locator(".later")).to_have_text("连不上服务器，自动重发中")
    assert winners(game) == []
    phone.unroute(re.compile(r"/g/"))
    expect(phone.locator("#hands details.hand-row")).to_have_count(1)  # back: sent by itself
    expect(phone.locator(WAITING)).to_have_count(0)
    assert winners(game) == [1]

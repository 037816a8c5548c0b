"""At the table on a phone: bets placed before the hand, who floated said in a few taps, and a
hand scored by hand (手动记分).

What the server says for those inputs (the next form starting with the bet, the badge gone once it
is recorded, the manual hand's totals on a fresh game) is asserted by tests/table/test_it_bets.py and
tests/table/test_it_manual_hand.py; here, what needs the phones: one tap placing a bet, another
phone's poll showing it, the taps each hand takes and the manual form's own behaviour."""

import re

import pytest
from playwright.sync_api import expect

from scoring import services
from scoring.engine import score_game
from scoring.models import Game, Hand
from scoring.rulesets.yiwu.engine import Rules
from tests.browser.helpers import screen_totals

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
POLL_SECONDS = 3
NAMES = ["老王", "小李", "阿华", "大刘"]


class Taps:
    """Every tap a person makes, counted."""

    def __init__(self, page):
        self.page, self.count = page, 0

    def link(self, name, exact=True):
        self.count += 1
        self.page.get_by_role("link", name=name, exact=exact).first.click()

    def button(self, name):
        self.count += 1
        self.page.get_by_role("button", name=name).first.click()

    def confirm(self):
        self.button(re.compile("确认记录"))
        expect(self.page.locator(".alert-success")).to_be_visible()
        expect(self.page.locator("#hands .pending-row")).to_have_count(0)  # the poll brought it (the outbox)


def new_game(**rules) -> Game:
    return Game.objects.create(players=NAMES, rules=Rules(**rules).to_dict())


def test_a_bet_placed_on_one_phone_shows_on_the_other_after_a_poll(live_server, browser, shot):
    game = new_game()
    dealer_zimo = {"outcome": "win", "winner": 0, "win_type": "zimo"}  # 下子 is offered right after it
    services.record_hand(game=game, entry=dealer_zimo, fix=None, next_seq=1, form_token="", entered_by="")
    phones = [browser.new_context(viewport={"width": 390, "height": 844}, locale="zh-CN") for _ in range(2)]
    first, second = (context.new_page() for context in phones)
    second.clock.install()
    first.goto(f"{live_server.url}/g/{game.edit_token}/")
    second.goto(f"{live_server.url}/g/{game.edit_token}/")
    expect(second.locator(".tile .total").first).to_have_text("+42")
    second.clock.pause_at(second.evaluate("Date.now()") / 1000 + 1)  # seconds

    first.locator(".xiazi-offers").get_by_role("button", name=re.compile("小李 下子 2")).click()  # one tap
    expect(first.locator(".tile").nth(1)).to_contain_text("下2")
    shot(first, "bets-first-phone")

    second.clock.run_for(POLL_SECONDS * 1000)
    expect(second.locator(".tile").nth(1)).to_contain_text("下2", timeout=5_000)
    expect(second.locator("#bets")).to_contain_text("撤回")
    shot(second, "bets-second-phone")
    for context in phones:
        context.close()


def test_tap_counts_for_the_common_hands_the_floats_and_a_manual_hand(live_server, phone, shot):
    game = new_game()
    page = phone
    url = f"{live_server.url}/g/{game.edit_token}/"
    counts = {}

    page.goto(url)  # 自摸: the dealer 老王
    taps = Taps(page)
    taps.link("老王")
    taps.link(re.compile("^自摸"), exact=False)
    taps.confirm()
    counts["自摸"] = taps.count

    taps = Taps(page)  # 平胡: 小李 off 阿华's discard
    taps.link("小李")
    taps.link(re.compile("阿华\\s*放铳"), exact=False)
    taps.confirm()
    counts["平胡"] = taps.count

    taps = Taps(page)  # 反赔: 大刘 单飘, his feeder 阿华 wins 自摸
    taps.link("阿华")
    page.get_by_role("link", name="大刘 飘了").click()
    taps.count += 1
    taps.button("单飘")
    # each tap's swap settles before the next: 自摸 is on the page before and after, and a tap on the
    # old one would preview the hand without the float
    expect(page.locator('.piao-row [aria-pressed="true"]')).to_contain_text("单飘")
    page.get_by_role("button", name="喂家 阿华").click()
    expect(page.get_by_role("button", name="喂家 阿华")).to_have_attribute("aria-pressed", "true")
    taps.count += 1
    taps.link(re.compile("^自摸"), exact=False)
    expect(page.locator(".preview")).to_contain_text("反赔（大刘飘，喂家阿华胡）")
    shot(page, "fanpei-preview")
    taps.confirm()
    counts["反赔"] = taps.count

    taps = Taps(page)  # 双飘流局: 小李's 双飘 fails
    taps.link("流局")
    page.get_by_role("link", name="小李 飘了").click()
    taps.count += 1
    taps.button("双飘")
    expect(page.locator(".preview")).to_contain_text("小李双飘不成")
    shot(page, "shuangpiao-draw-preview")
    taps.confirm()
    counts["双飘流局"] = taps.count

    entries = [h.entry for h in Hand.objects.order_by("seq")]
    assert entries[2] == {
        "outcome": "win",
        "winner": 2,
        "win_type": "zimo",
        "piao": {"player": 3, "level": 1},
        "feeders": [2],
    }
    assert entries[3] == {"outcome": "draw", "piao": {"player": 1, "level": 2}}
    print("TAP COUNTS", counts)
    assert counts == {"自摸": 3, "平胡": 3, "反赔": 6, "双飘流局": 4}
    expect(page.locator("#hands")).to_contain_text("反赔（大刘飘，喂家阿华胡）")

    # 手动记分, on the game page itself: each change typed (大刘's left blank), a note, 确认
    page.get_by_role("link", name=re.compile("手动记分")).click()
    page.wait_for_selector("#hand-form[data-ready]")
    page.fill("#id_n0", "-10")
    page.fill("#id_n1", "6")
    page.fill("#id_n2", "4")
    page.fill("#id_note", "诈胡罚分")
    page.locator("#id_note").dispatch_event("change")
    expect(page.locator(".preview")).to_contain_text("手动 · 诈胡罚分")
    shot(page, "manual-preview")
    page.get_by_role("button", name="确认记录").click()
    expect(page.locator(".alert-success")).to_be_visible()
    expect(page.locator("#hands .pending-row")).to_have_count(0)  # the server's row, polled (the outbox)
    expect(page.locator("#hands")).to_contain_text("手动 · 诈胡罚分")
    manual = {"outcome": "manual", "net": [-10, 6, 4, 0], "note": "诈胡罚分"}
    assert Hand.objects.get(seq=5).entry == manual
    totals = score_game({"hands": [*entries, manual]})["totals"]
    assert screen_totals(page) == totals
    shot(page, "manual-in-ledger")


def press_confirm_while_the_preview_refreshes(page, live_server):
    """The finger goes down on 确认记录 while the note is focused and retyped: leaving the note asks
    for a preview, whose answer is let through (and handled) before the finger comes up."""
    game = new_game()
    page.goto(f"{live_server.url}/g/{game.edit_token}/record?outcome=manual")
    page.wait_for_selector("#hand-form[data-ready]")
    page.fill("#id_note", "诈胡")
    page.fill("#id_n0", "-3")
    page.fill("#id_n1", "3")
    page.locator("#id_note").focus()  # leaving 小李's field previews the hand
    expect(page.get_by_role("button", name="确认记录")).to_be_visible()
    expect(page.locator(".htmx-request")).to_have_count(0)
    page.locator("#id_note").fill("罚分")  # retyped, not yet left: its change fires when the finger goes down
    held = []

    def hold_the_first(route):  # the preview leaving the note asks for; the tap's own post goes on
        if held:
            route.continue_()
        else:
            held.append(route)

    page.route("**/record*", hold_the_first)
    box = page.get_by_role("button", name="确认记录").bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()
    for _ in range(100):
        if held:
            break
        page.wait_for_timeout(20)
    assert len(held) == 1, "leaving the note asked for a preview"
    with page.expect_response(lambda response: response.request.method == "POST"):
        held[0].continue_()
    expect(page.locator(".htmx-request")).to_have_count(0)  # the preview's answer has been handled


def test_a_tap_on_confirm_that_sets_off_a_preview_refresh_still_records_the_hand(live_server, phone):
    press_confirm_while_the_preview_refreshes(phone, live_server)
    phone.mouse.up()
    expect(phone.locator(".alert-success")).to_be_visible()
    assert [h.entry for h in Hand.objects.all()] == [{"outcome": "manual", "net": [-3, 3, 0, 0], "note": "罚分"}]


def test_a_press_on_confirm_that_slides_off_records_nothing_and_shows_the_new_preview(live_server, phone):
    press_confirm_while_the_preview_refreshes(phone, live_server)
    phone.mouse.move(5, 5)  # the finger slides off 确认记录 before it lifts: no tap
    phone.mouse.up()
    expect(phone.locator(".preview")).to_contain_text("手动 · 罚分")  # the refresh held under the finger
    assert not Hand.objects.exists()

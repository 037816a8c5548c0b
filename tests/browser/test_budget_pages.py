"""A budget spent (scoring/access.py) shows its page on the phone, not a tap that does nothing:
htmx swaps the 429 (and the cap's 403) page in like any page a boosted form leads to."""

import re

import pytest
from playwright.sync_api import expect

from scoring import services
from scoring.models import Game, Hand, HandCheck
from tests.helpers import game_url

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def start_game(phone, live_server) -> None:
    phone.goto(f"{live_server.url}/new")
    phone.get_by_role("button", name="开始").click()


def test_a_new_game_past_the_budget_shows_the_429_page(live_server, phone, settings, shot):
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "games": 1}
    start_game(phone, live_server)
    expect(phone).to_have_url(re.compile("/g/"))
    start_game(phone, live_server)
    expect(phone.locator("h1")).to_have_text("十分钟内新开的牌局太多了，请过几分钟再开。")
    expect(phone.get_by_text("Too many new games", exact=False)).to_be_visible()
    expect(phone.get_by_role("link", name="回首页")).to_be_visible()
    shot(phone, "budget-new-games")
    assert Game.objects.count() == 1


def test_a_hand_past_the_tables_budget_is_refused_on_its_row_and_sent_again_with_one_tap(
    live_server, phone, settings, shot
):
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "hands": 1}
    game = Game.objects.create(players=["老王", "小李", "阿华", "大刘"], rules=Game().house_rules().to_dict())
    confirm = phone.locator("#preview-panel").get_by_role("button", name="确认记录")
    phone.goto(f"{live_server.url}{game_url(game)}record?winner=0&win_type=zimo")
    confirm.click()
    expect(phone.locator(".alert-success")).to_be_visible()  # the first hand is on the game page
    phone.goto(f"{live_server.url}{game_url(game)}record?winner=0&win_type=zimo")
    confirm.click()  # the outbox keeps it (static/js/offline.js); the server's 429 comes back to its row
    row = phone.locator("#hands .pending-row")
    expect(row.locator(".reason")).to_have_text("这一桌一分钟内记了太多局，请过一会儿再确认。")
    expect(row.locator(".nets")).to_contain_text(re.compile(r"老王 \+\d+"))  # as its preview showed
    expect(row.get_by_role("button", name="删除")).to_be_visible()
    shot(phone, "budget-hands")
    assert Hand.objects.filter(game=game).count() == 1
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "hands": 5}  # a moment later
    row.get_by_role("button", name="再发一次").click()
    expect(phone.locator("#hands details.hand-row")).to_have_count(2)
    expect(phone.locator("#hands .pending-row")).to_have_count(0)
    assert Hand.objects.filter(game=game).count() == 2


def test_a_check_past_its_budget_is_refused_in_the_page_keeping_the_note(live_server, phone, settings, shot):
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "checks": 1}
    game = Game.objects.create(players=["老王", "小李", "阿华", "大刘"], rules=Game().house_rules().to_dict())
    for seq in (1, 2):
        entry = {"outcome": "win", "winner": 0, "win_type": "zimo"}
        services.record_hand(game=game, entry=entry, fix=None, next_seq=seq, form_token="", entered_by="")
    phone.goto(f"{live_server.url}{game_url(game)}")
    phone.locator("form[action$='/me/0'] button").click()
    phone.get_by_role("button", name="到第2局都对").click()
    expect(phone.locator("#checks-2")).to_contain_text("撤回我的对")
    row = phone.locator("#checks-1")
    row.get_by_text("有误…").click()
    row.get_by_placeholder("哪里不对（可不写）").fill("少算了一番")
    row.get_by_role("button", name="标为有误").click()
    kept = phone.locator("#hands .pending-row.write-row")  # the outbox keeps it, with the reason
    expect(kept.locator(".title")).to_have_text("核对 · 第1局 · 标为有误")
    expect(kept.locator(".reason")).to_contain_text("一分钟内核对的次数太多了")
    expect(row.get_by_placeholder("哪里不对（可不写）")).to_have_value("少算了一番")  # the page as it was
    expect(phone).to_have_url(re.compile(game_url(game) + "$"))
    shot(phone, "budget-checks")
    assert HandCheck.objects.filter(verdict="wrong").count() == 0
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "checks": 5}  # a minute later
    kept.get_by_role("button", name="再发一次").click()
    expect(kept).to_have_count(0)
    expect(phone.locator("#checks-1 .check-flag")).to_contain_text("少算了一番")
    assert HandCheck.objects.filter(verdict="wrong").count() == 1

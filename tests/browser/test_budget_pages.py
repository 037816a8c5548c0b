"""A budget spent (scoring/access.py) shows its page on the phone, not a tap that does nothing:
htmx swaps the 429 (and the cap's 403) page in like any page a boosted form leads to."""

import re

import pytest
from playwright.sync_api import expect

from scoring.models import Game, Hand
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


def test_a_hand_past_the_tables_budget_shows_the_429_page_and_is_not_recorded(live_server, phone, settings, shot):
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "hands": 1}
    game = Game.objects.create(players=["老王", "小李", "阿华", "大刘"], rules=Game().house_rules().to_dict())
    confirm = phone.locator("#preview-panel").get_by_role("button", name="确认记录")
    phone.goto(f"{live_server.url}{game_url(game)}record?winner=0&win_type=zimo")
    confirm.click()
    expect(phone.locator(".alert-success")).to_be_visible()  # the first hand is on the game page
    phone.goto(f"{live_server.url}{game_url(game)}record?winner=0&win_type=zimo")
    confirm.click()
    expect(phone.locator("h1")).to_have_text("这一桌一分钟内记了太多局，请过一会儿再确认。")
    shot(phone, "budget-hands")
    assert Hand.objects.filter(game=game).count() == 1
    phone.get_by_role("link", name="返回牌局").click()  # back to the table, the one hand on it
    expect(phone).to_have_url(re.compile(game_url(game) + "$"))
    expect(phone.locator("#hand-1")).to_be_visible()

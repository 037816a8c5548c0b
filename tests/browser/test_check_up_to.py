"""核对 on five phones at 390×844: 17 hands, each person checks every hand they played with one tap of
「到第N局都对」; 大刘 flags a hand 有误 (a banner on every other phone), 小李 takes a mistaken 对 back,
and no phone ever sees a budget's refusal."""

import re

import pytest
from playwright.sync_api import expect

from scoring import services
from scoring.models import Game, HandCheck
from scoring.rulesets.yiwu.engine import Rules
from tests.helpers import game_url

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
PHONE = {"width": 390, "height": 844}
PEOPLE = ["老王", "小李", "阿华", "大刘", "阿明"]


def evening(game: Game) -> None:
    """17 hands through the write path; 阿明 sits in for 大刘 from the 6th hand to the 10th."""
    seq = 0
    for number in range(1, 18):
        for at, players in ((6, ["老王", "小李", "阿华", "阿明"]), (11, ["老王", "小李", "阿华", "大刘"])):
            if number == at:
                seq += 1
                entry = {"outcome": "seating", "players": players}
                services.record_hand(game=game, entry=entry, fix=None, next_seq=seq, form_token="", entered_by="")
        seq += 1
        entry = {"outcome": "win", "winner": number % 4, "win_type": "zimo"} if number % 3 else {"outcome": "draw"}
        services.record_hand(game=game, entry=entry, fix=None, next_seq=seq, form_token="", entered_by="")


def test_five_phones_check_17_hands_with_one_tap_each_flag_one_and_take_one_back(live_server, browser, shot):
    game = Game.objects.create(players=PEOPLE[:4], rules=Rules().to_dict())
    evening(game)
    refused, phones = [], {}
    for name in PEOPLE:
        context = browser.new_context(viewport=PHONE, locale="zh-CN")
        page = context.new_page()
        page.set_default_timeout(10_000)
        page.on("response", lambda r: refused.append(r.url) if r.status == 429 else None)
        page.goto(live_server.url + game_url(game))
        page.locator("section", has_text="我是").get_by_role("button", name=re.compile(f"^{name}")).click()  # 我是
        expect(page.locator(".check-up-to button")).to_be_visible()
        phones[name] = page
    expect(phones["阿明"].locator(".check-up-to button")).to_have_text("到第10局都对")  # he sat out 11-17
    shot(phones["老王"], "checks-one-tap")
    for page in phones.values():
        page.locator(".check-up-to button").click()
        expect(page.locator("#flash")).to_contain_text("已核对")
        expect(page.locator(".check-up-to")).to_have_count(0)
    assert HandCheck.objects.count() == 17 * 4

    daliu = phones["大刘"]
    row = daliu.locator("#checks-14")  # 第12局 (two seatings before it)
    row.get_by_text("有误…").click()
    row.get_by_placeholder("哪里不对（可不写）").fill("阿华是对对胡")
    shot(daliu, "checks-wrong-open")
    row.get_by_role("button", name="标为有误").click()
    expect(daliu.locator("#flags")).to_contain_text("第12局有误")
    for name in ("老王", "小李", "阿华", "阿明"):  # each phone's poll brings the banner
        banner = phones[name].locator("#flags .flag-banner")
        expect(banner).to_contain_text("第12局有误 · 大刘：「阿华是对对胡」", timeout=8_000)
    shot(phones["阿明"], "checks-banner")

    xiaoli = phones["小李"]
    xiaoli.locator("#checks-5").get_by_role("button", name="撤回我的对").click()
    expect(xiaoli.locator(".check-up-to button")).to_have_text("到第5局都对")
    expect(xiaoli.locator("#checks-5 .tally")).to_have_text("✓3/4")
    shot(xiaoli, "checks-taken-back")
    assert HandCheck.objects.filter(person="小李").count() == 16
    assert HandCheck.objects.get(person="大刘", hand__seq=14).verdict == "wrong"

    for page in phones.values():
        expect(page.get_by_text("太多")).to_have_count(0)
    assert refused == []
    for page in phones.values():
        page.context.close()

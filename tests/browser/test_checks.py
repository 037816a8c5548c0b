"""核对 on two phones: each says 「我是」 and checks with one tap of 「到第N局都对」; one opens 有误 on a row
with a note, the other sees the banner through its poll, fixes the hand through the banner's 修改, and
both check it again."""

import re

import pytest
from django.test import Client
from playwright.sync_api import expect

from scoring.models import Game, HandCheck
from scoring.rulesets.yiwu.engine import Rules
from tests.browser.helpers import confirm, form_ready
from tests.helpers import game_url, record

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
PHONE = {"width": 390, "height": 844}


def test_two_phones_check_a_hand_flag_it_fix_it_and_check_it_again(live_server, browser, shot):
    game = Game.objects.create(players=["老王", "小李", "阿华", "大刘"], rules=Rules().to_dict())
    record(Client(), game, {"outcome": "win", "winner": 0, "win_type": "zimo"})  # setup: no tap of this test's
    contexts = [browser.new_context(viewport=PHONE, locale="zh-CN") for _ in range(2)]
    laowang, xiaoli = (context.new_page() for context in contexts)
    for page, seat in ((laowang, 0), (xiaoli, 1)):
        page.set_default_timeout(10_000)
        page.goto(live_server.url + game_url(game))
        page.locator(f"form[action$='/me/{seat}'] button").click()  # 我是
        expect(page.locator(f"form[action$='/me/{seat}'] button.btn-dark")).to_be_visible()

    laowang.get_by_role("button", name="到第1局都对").click()  # one tap, nothing to open
    expect(laowang.locator("#hand-1 .net", has_text="老王")).to_contain_text("✓")
    expect(laowang.locator("#checks-1 .tally")).to_have_text("✓1/4")
    expect(laowang.locator(".check-up-to")).to_have_count(0)

    theirs = xiaoli.locator("#checks-1")
    theirs.get_by_text("有误…").click()
    theirs.get_by_placeholder("哪里不对（可不写）").fill("是平胡，阿华放的")
    shot(xiaoli, "checks-to-check")
    theirs.get_by_role("button", name="标为有误").click()
    expect(xiaoli.locator("#checks-1 .check-flag")).to_contain_text("小李：「是平胡，阿华放的」")

    banner = laowang.locator("#flags .flag-banner")
    expect(banner).to_contain_text("第1局有误 · 小李：「是平胡，阿华放的」", timeout=8_000)  # the next poll brings it
    expect(laowang.locator("#checks-1 .check-flag")).to_contain_text("有误 · 小李：「是平胡，阿华放的」")
    shot(laowang, "checks-flagged")
    banner.get_by_role("link", name="修改").click()
    laowang.get_by_role("link", name="老王 原来").click()  # 修改 walks the record flow's questions
    laowang.get_by_role("link", name="阿华 放铳").click()
    expect(laowang.locator(".preview")).to_contain_text("阿华放铳")
    form_ready(laowang)
    confirm(laowang)
    assert not HandCheck.objects.exists()  # the edit moved hand 1's amounts: its checks go

    expect(laowang.locator("#flags .flag-banner")).to_have_count(0)
    expect(laowang.locator("#checks-1 .tally")).to_have_text("✓0/4")
    laowang.get_by_role("button", name="到第1局都对").click()
    expect(xiaoli.locator("#flags .flag-banner")).to_have_count(0, timeout=8_000)  # polled: the fix
    expect(xiaoli.locator("#checks-1 .tally")).to_have_text("✓1/4", timeout=8_000)  # and the check
    xiaoli.get_by_role("button", name="到第1局都对").click()
    expect(xiaoli.locator("#checks-1 .tally")).to_have_text("✓2/4")
    for name in ("老王", "小李"):
        expect(xiaoli.locator("#hand-1 .net", has_text=name)).to_contain_text("✓")
    expect(xiaoli.locator("#hand-1 .net", has_text="阿华")).not_to_contain_text("✓")
    assert sorted(HandCheck.objects.values_list("person", "verdict")) == [("小李", "ok"), ("老王", "ok")]
    assert re.search("阿华放铳", xiaoli.locator("#hand-1 .title").inner_text())
    shot(xiaoli, "checks-after-fix")
    for context in contexts:
        context.close()

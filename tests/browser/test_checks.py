"""核对 on two phones: each says 「我是」 and checks a hand under its row; one taps 有误 with a note,
the other sees the flag through its poll, fixes the hand through the flag's 修改, and both check
it again."""

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

    strip = laowang.locator("#checks-1")
    expect(strip).to_contain_text("待核对：老王、小李、阿华、大刘")
    strip.get_by_role("button", name="对", exact=True).click()  # one tap, nothing to open
    expect(laowang.locator("#hand-1 .net", has_text="老王")).to_contain_text("✓")
    expect(laowang.locator("#checks-1")).to_contain_text("待核对：小李、阿华、大刘")
    expect(laowang.locator("#checks-1 .check-form")).to_have_count(0)

    theirs = xiaoli.locator("#checks-1")
    theirs.get_by_placeholder("哪里不对（可不写）").fill("是平胡，阿华放的")
    shot(xiaoli, "checks-to-check")
    theirs.get_by_role("button", name="有误").click()
    expect(xiaoli.locator("#checks-1 .check-flag")).to_contain_text("小李：「是平胡，阿华放的」")

    flag = laowang.locator("#checks-1 .check-flag")
    expect(flag).to_contain_text("有误 · 小李：「是平胡，阿华放的」", timeout=8_000)  # the next poll brings it
    shot(laowang, "checks-flagged")
    flag.get_by_role("link", name="修改").click()
    laowang.get_by_role("link", name="老王 原来").click()  # 修改 walks the record flow's questions
    laowang.get_by_role("link", name="阿华 放铳").click()
    expect(laowang.locator(".preview")).to_contain_text("阿华放铳")
    form_ready(laowang)
    confirm(laowang)
    assert not HandCheck.objects.exists()  # the edit moved hand 1's amounts: its checks go

    expect(laowang.locator("#checks-1 .check-flag")).to_have_count(0)
    expect(laowang.locator("#checks-1")).to_contain_text("待核对：老王、小李、阿华、大刘")
    laowang.locator("#checks-1").get_by_role("button", name="对", exact=True).click()
    xiaoli_strip = xiaoli.locator("#checks-1")
    expect(xiaoli_strip).to_contain_text("待核对：小李、阿华、大刘", timeout=8_000)  # polled: the edit and the check
    xiaoli_strip.get_by_role("button", name="对", exact=True).click()
    expect(xiaoli.locator("#checks-1")).to_contain_text("待核对：阿华、大刘")
    for name in ("老王", "小李"):
        expect(xiaoli.locator("#hand-1 .net", has_text=name)).to_contain_text("✓")
    expect(xiaoli.locator("#hand-1 .net", has_text="阿华")).not_to_contain_text("✓")
    assert sorted(HandCheck.objects.values_list("person", "verdict")) == [("小李", "ok"), ("老王", "ok")]
    assert re.search("阿华放铳", xiaoli.locator("#hand-1 .title").inner_text())
    shot(xiaoli, "checks-after-fix")
    for context in contexts:
        context.close()

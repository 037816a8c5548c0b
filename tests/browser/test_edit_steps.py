"""修改 on a phone (390×844): the record flow's questions from the first, the stored answers
marked 原来, the sheet and preview; an edit that breaks a later hand is refused naming it, and
「一起修改第2局」 fixes that hand too, both previewed and confirmed at once."""

import pytest
from playwright.sync_api import expect

from scoring import services
from scoring.models import Game, Hand
from tests.browser.helpers import screen_totals

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
NAMES = ["老王", "小李", "阿华", "大刘"]
# 老王 deals and self-draws; 小李 then bets 下子 against him in a draw (allowed after a dealer win).
HANDS = [{"outcome": "win", "winner": 0, "win_type": "zimo"}, {"outcome": "draw", "xiazi_join": [1]}]


def test_an_edit_walks_the_steps_and_fixes_the_hand_it_breaks_too(live_server, phone, shot):
    game = Game.objects.create(players=NAMES)
    for seq, entry in enumerate(HANDS, start=1):
        services.record_hand(game=game, entry=entry, fix=None, next_seq=seq, form_token="", entered_by="")
    phone.goto(f"{live_server.url}/g/{game.edit_token}/")
    phone.locator("#hand-1 summary").click()
    phone.locator("#hand-1").get_by_role("link", name="修改").click()
    expect(phone.locator(".question")).to_have_text("谁胡了？")
    expect(phone.get_by_role("link", name="老王 原来")).to_be_visible()  # the stored winner
    shot(phone, "edit-steps-winner")
    phone.get_by_role("link", name="小李", exact=True).click()  # it was 小李's 自摸
    expect(phone.get_by_role("link", name="自摸 ×2 原来")).to_be_visible()
    shot(phone, "edit-steps-how")
    phone.get_by_role("link", name="自摸 ×2 原来").click()
    refused = phone.locator(".blocked")
    expect(refused).to_contain_text("第2局：")
    expect(phone.get_by_role("button", name="确认修改")).to_have_count(0)
    shot(phone, "edit-steps-refused")
    phone.get_by_role("link", name="一起修改第2局").click()
    expect(phone.locator(".together-note")).to_contain_text("连同第1局的修改")
    phone.get_by_role("link", name="流局 原来").click()
    expect(phone.locator(".bet-invalid-note")).to_contain_text("第2局：只有庄家胡牌后的下一局才能下子")
    phone.locator("label.bet-untick[for=xz1]").click()  # 小李's 下子 unticked: the preview of both
    expect(phone.locator("tr.other-hand")).to_contain_text("第1局")
    shot(phone, "edit-steps-together-preview")
    phone.get_by_role("button", name="确认修改").click()
    expect(phone.locator(".alert-success")).to_contain_text("已一起修改第1、2局")
    assert screen_totals(phone) == [-14, 34, -10, -10]
    assert [h.revision for h in Hand.objects.order_by("seq")] == [1, 1]

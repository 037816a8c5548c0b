"""一起修改 on a phone (390×844), by taps: hand 2's edit leaves hand 3's 下子 impossible; 「一起修改第3局」
walks hand 3's questions to its sheet, where the bet is still ticked with the reason; the untick
refreshes the preview of both, and one 确认修改 saves both (docs/manual.md, 修改)."""

import re

import pytest
from playwright.sync_api import expect

from scoring import services
from scoring.models import Game, Hand
from scoring.replay import build
from tests.browser.helpers import screen_totals

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
NAMES = ["老王", "小李", "阿华", "大刘"]
# 老王 deals: a draw, 老王 自摸 (下子 open), then 阿华 下1 and 大刘 自摸.
HANDS = [
    {"outcome": "draw"},
    {"outcome": "win", "winner": 0, "win_type": "zimo"},
    {"outcome": "win", "winner": 3, "win_type": "zimo", "xiazi_join": [2]},
]
NO_BET = "第3局：只有庄家胡牌后的下一局才能下子"


def test_together_shows_the_impossible_bet_and_saves_both_once_it_is_unticked(live_server, phone, shot):
    game = Game.objects.create(players=NAMES)
    for seq, entry in enumerate(HANDS, start=1):
        services.record_hand(game=game, entry=entry, fix=None, next_seq=seq, form_token="", entered_by="")
    phone.goto(f"{live_server.url}/g/{game.edit_token}/")
    phone.locator("#hand-2 summary").click()
    phone.locator("#hand-2").get_by_role("link", name="修改").click()
    expect(phone).to_have_url(re.compile(r"/hand/2/edit"))  # not the game page's own 小李 (a new hand)
    phone.get_by_role("link", name="小李", exact=True).click()
    phone.get_by_role("link", name="自摸 ×2 原来").click()
    expect(phone.locator(".blocked")).to_contain_text(NO_BET)
    phone.get_by_role("link", name="一起修改第3局").click()
    # hand 3's questions, as recording asks them
    expect(phone.locator(".question")).to_have_text("谁胡了？")
    expect(phone.locator(".together-note")).to_contain_text("连同第2局的修改")
    phone.get_by_role("link", name="大刘 原来").click()
    phone.get_by_role("link", name="自摸 ×2 原来").click()
    # the sheet: 阿华's 下子 still ticked, with the reason; no 确认修改 yet
    bet = phone.locator("#xz2")
    expect(bet).to_be_checked()
    note = phone.locator(".bet-invalid-note")
    expect(note).to_be_visible()
    expect(note).to_contain_text(NO_BET)
    expect(phone.locator("#preview-panel")).to_contain_text(NO_BET)
    expect(phone.get_by_role("button", name="确认修改")).to_have_count(0)
    note.scroll_into_view_if_needed()
    shot(phone, "together-invalid-bet")
    untick = phone.locator("label.bet-untick[for=xz2]")
    expect(untick).to_have_text("← 点掉它，才能预览")
    untick.click()
    expect(bet).not_to_be_checked()
    expect(untick).to_be_hidden()  # its place kept: nothing below moves
    confirm = phone.get_by_role("button", name="确认修改")
    expect(confirm).to_be_visible()
    expect(phone.locator("tr.other-hand")).to_contain_text("第2局")
    shot(phone, "together-unticked-preview")
    confirm.click()
    expect(phone.locator(".alert-success")).to_contain_text("已一起修改第2、3局")
    hands = list(Hand.objects.order_by("seq"))
    assert [h.revision for h in hands] == [0, 1, 1]
    assert "xiazi_join" not in hands[2].entry
    assert screen_totals(phone) == build(Game.objects.get()).totals

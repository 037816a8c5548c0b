"""The void screen on a phone (390×844): its row labels are whole (「作废后」, "After voiding",
「第2局」), the bets placed before the hand are kept unless unticked, and each other hand whose
amounts change is listed before → after."""

import pytest
from playwright.sync_api import expect

from scoring import services
from scoring.models import Game
from tests.browser.helpers import screen_totals

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
NAMES = ["老王", "小李", "阿华", "大刘"]
# 老王 deals; before hand 1 (a draw) he buys 买子; hand 2 he self-draws: (7 + 2) × 2 = 18 from each.
HANDS = [{"outcome": "draw", "maizi": [1, 0, 0, 0]}, {"outcome": "win", "winner": 0, "win_type": "zimo"}]
# The label's text is wider than its cell's content box: the cell shows 「作…」 (text-overflow:
# ellipsis hides it from scrollWidth, which rounds to whole pixels).
CUT = """el => {
  const text = document.createRange();
  text.selectNodeContents(el);
  const style = getComputedStyle(el);
  const box = el.getBoundingClientRect().width - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
  return text.getBoundingClientRect().width > box + 0.01;
}"""


def voidable_game() -> Game:
    game = Game.objects.create(players=NAMES)
    for seq, entry in enumerate(HANDS, start=1):
        services.record_hand(game=game, entry=entry, fix=None, next_seq=seq, form_token="", entered_by="")
    return game


def labels_whole(page) -> None:
    """No row label, and no cell of the other hands' before → after, is cut."""
    cells = page.locator("table.change th, table.change td, tr.other-hand td")
    assert cells.count() >= 2
    for i in range(cells.count()):
        assert not cells.nth(i).evaluate(CUT), cells.nth(i).inner_text()


def test_the_void_screen_keeps_bets_lists_other_hands_and_cuts_no_label(live_server, phone, shot):
    game = voidable_game()
    phone.goto(f"{live_server.url}/g/{game.edit_token}/hand/1/void")
    expect(phone.get_by_role("checkbox", name="保留第1局前下的注")).to_have_attribute("aria-checked", "true")
    expect(phone.locator(".keep-bets")).to_contain_text("老王买子")
    expect(phone.locator("table.change th", has_text="作废后")).to_be_visible()
    labels_whole(phone)
    shot(phone, "void-keeps-bets")
    phone.get_by_role("checkbox", name="保留第1局前下的注").click()  # untick: the 买子 goes with hand 1
    expect(phone.get_by_role("checkbox", name="保留第1局前下的注")).to_have_attribute("aria-checked", "false")
    row = phone.locator("tr.other-hand")
    expect(row).to_have_count(1)
    expect(row.locator("td").first).to_have_text("第2局")
    expect(row.locator("td").nth(1)).to_have_text("+54→+42")
    expect(row.locator("td").nth(2)).to_have_text("−18→−14")
    labels_whole(phone)
    shot(phone, "void-bets-unticked")
    phone.get_by_role("button", name="确认作废").click()
    expect(phone.locator(".alert-success")).to_contain_text("第1局已作废")
    assert screen_totals(phone) == [42, -14, -14, -14]
    expect(phone.locator("#hand-2 .number")).to_have_text("第1局")


@pytest.mark.parametrize(("lang", "label"), [("zh-hans", "作废后"), ("en", "After voiding")])
def test_the_void_screens_labels_are_whole_in_both_languages(live_server, browser, lang, label):
    game = voidable_game()
    context = browser.new_context(viewport={"width": 390, "height": 844})
    context.add_cookies([{"name": "django_language", "value": lang, "url": live_server.url}])
    page = context.new_page()
    page.goto(f"{live_server.url}/g/{game.edit_token}/hand/1/void?keep_bets=0")
    expect(page.locator("table.change th", has_text=label)).to_be_visible()
    labels_whole(page)
    context.close()

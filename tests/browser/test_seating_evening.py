"""People, not seats, on a phone (390×844): a 2-圈 evening of 义乌 whose first round has just ended,
a substitute typed in from the round's end card, a seat swap, a fifth friend rotating back in by
name, and the settle-up by person. Every page it passes through fits the phone's width.

What needs the phone is tapped here: the seating menu and each of its three ways, the round's end
card, the settle-up. The hands between them only repeat the 自摸 taps tests/browser/test_table_flow.py
makes, so they are recorded through the one write every hand takes (scoring/services/hands.py) and the
page is opened after them; every amount and message of the evening as this test first tapped it
(a substitute before hand 5, not after) is asserted by tests/table/test_it_seating_evening.py."""

import re

import pytest
from playwright.sync_api import expect

from scoring import services
from scoring.models import Game, Settlement
from scoring.rulesets.yiwu.engine import Rules
from tests.browser.helpers import number

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NAMES = ["老王", "小李", "阿华", "大刘"]  # 东南西北; 老王 deals first
# 义乌 at 7/5, every hand a 自摸 (×2): a 闲's win costs the dealer 14 and the others 10 each.
#   1  小李 wins                 老王 (庄) −14, 小李 +34, 阿华 −10, 大刘 −10   → 小李 deals
#   2  阿华 wins                 老王 −10, 小李 (庄) −14, 阿华 +34, 大刘 −10   → 阿华 deals
#   3  阿华 (庄) wins, ×2 each    老王 −14, 小李 −14, 阿华 +42, 大刘 −14       → 阿华 deals on
#   4  大刘 wins                 老王 −10, 小李 −10, 阿华 (庄) −14, 大刘 +34   → 大刘 deals
#   5  老王 wins                 老王 +34, 小李 −10, 阿华 −10, 大刘 (庄) −14   → 东 deals: 东风圈 is over
#      (老王 −14, 小李 −14, 阿华 +42, 大刘 −14); the phone opens the game here.
#      小周 takes 阿华's seat (西); 老王 and 小李 swap seats; 阿华 comes back for 大刘 (北)
#   6  阿华 wins                 小李 (庄, 东) −14, 老王 −10, 小周 −10, 阿华 +34
# Each person over the seats they sat in:
#   老王 −14 − 10 = −24;  小李 −14 − 14 = −28;  阿华 +42 + 34 = +76;  大刘 −14 (sitting out);
#   小周 −10;             −24 − 28 + 76 − 14 − 10 = 0
PEOPLE = {"老王": -28, "小李": -24, "阿华": 76, "大刘": -14, "小周": -10}


def zimo(game: Game, winner: int) -> None:
    """A 自摸 through the write the page's 确认 calls (another phone, for this one)."""
    game.refresh_from_db()
    entry = {"outcome": "win", "winner": winner, "win_type": "zimo"}
    services.record_hand(
        game=game, entry=entry, fix=None, next_seq=game.hands.count() + 1, form_token="", entered_by=""
    )


def fits(page) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= 390, page.url


def seated(page) -> list[str]:
    return page.locator(".tile .name bdi").all_inner_texts()


def confirm_seating(page) -> None:
    fits(page)
    page.get_by_role("button", name="确认换人/换位").click()
    expect(page.locator(".alert-success")).to_contain_text("已换人/换位。")


def test_an_evening_with_a_substitute_at_the_rounds_end_a_swap_and_a_fifth_friend(live_server, phone, shot):
    game = Game.objects.create(players=NAMES, rules=Rules().to_dict(), round_length=2)
    for winner in (1, 2, 2, 3, 0):  # 大刘 dealt and lost: the deal is back at 东, and the first round is over
        zimo(game, winner)
    page = phone
    page.goto(f"{live_server.url}/g/{game.edit_token}/")
    card = page.locator(".round-end")
    expect(card).to_contain_text("东风圈打完了")
    expect(page.locator(".round-label")).to_have_text("南风圈（1/4） · 共 2 圈")
    fits(page)
    shot(page, "game-round-end")

    # From the round's card: 阿华 goes home and 小周 sits in: who leaves, then a new name.
    card.get_by_role("link", name="换位", exact=True).click()
    fits(page)
    shot(page, "seating-menu")
    page.locator(".seating-menu").get_by_role("link", name=re.compile("^换人")).click()
    page.get_by_role("link", name="西 阿华").click()
    page.fill("#id_name", "小周")
    page.get_by_role("button", name="坐进来").click()
    expect(page.locator(".seating-preview")).to_contain_text("轮空（不在桌上）: 阿华 +42")
    shot(page, "seating-substitute-preview")
    confirm_seating(page)
    expect(page.locator(".round-end")).to_have_count(0)  # a seating begins the next round
    assert seated(page) == ["老王", "小李", "小周", "大刘"]
    expect(page.locator("#tiles .sitting-out")).to_have_text("轮空（不在桌上）: 阿华 +42")
    fits(page)
    shot(page, "game-with-someone-sitting-out")

    # 老王 and 小李 swap seats: the second tap is on the next step.
    page.locator(".seating-link").click()
    page.locator(".seating-menu").get_by_role("link", name=re.compile("^两人换位")).click()
    page.get_by_role("link", name="东 老王").click()
    expect(page.locator(".question")).to_have_text("老王和谁换位？")
    page.get_by_role("link", name="南 小李").click()
    expect(page.locator(".seating-preview .new-dealer")).to_contain_text(
        "老王 坐庄 （庄跟着人走）"
    )  # the deal goes along
    shot(page, "seating-swap-preview")
    confirm_seating(page)
    assert seated(page) == ["小李", "老王", "小周", "大刘"]

    # The fifth friend rotates back in for 大刘: offered by name, one tap.
    page.locator(".seating-link").click()
    page.locator(".seating-menu").get_by_role("link", name=re.compile("^换人")).click()
    page.get_by_role("link", name="北 大刘").click()
    expect(page.locator(".question")).to_have_text("谁坐北，换下大刘？")
    page.locator(".choices").get_by_role("link", name="阿华").click()
    expect(page.locator(".seating-preview")).to_contain_text("轮空（不在桌上）: 大刘 −14")
    confirm_seating(page)
    assert seated(page) == ["小李", "老王", "小周", "阿华"]
    totals = dict(zip(seated(page), (number(t) for t in page.locator(".tile .total").all_inner_texts()), strict=True))
    assert totals == {"小李": -14, "老王": -14, "小周": 0, "阿华": 42}
    expect(page.locator("#tiles .sitting-out")).to_have_text("轮空（不在桌上）: 大刘 −14")
    # Each hand unfolds to who played it: hand 4 is 阿华's, in 西.
    page.locator("#hand-4 summary").click()
    expect(page.locator("#hand-4 .seated")).to_have_text("谁打的: 东 老王 · 南 小李 · 西 阿华 · 北 大刘")
    expect(page.locator(".hands-count")).to_have_text("共 5 局")  # seatings are no hands
    fits(page)
    shot(page, "game-after-three-seatings")

    # 阿华 wins hand 6 (recorded as another phone would: the settle page is fetched after it); 老王
    # deals, from 南, and pays 14.
    # Settle-up by person: all five, in 元, the fewest transfers; the money sums to zero.
    zimo(game, 3)
    page.locator(".links").get_by_role("link", name="结算").click()
    page.get_by_role("button", name="预览").click()
    balances = page.locator("#settle-preview .balances tbody tr")
    expect(balances).to_have_count(5)
    page.get_by_role("button", name="结束并结算").click()
    expect(page.locator(".transfers")).to_be_visible()
    rows = [row.split("\t") for row in page.locator(".balances tbody tr").all_inner_texts()]
    assert {name: number(points) for name, points, _yuan in rows} == PEOPLE
    assert sum(number(yuan) for *_rest, yuan in rows) == 0
    transfers = page.locator(".transfers li").all_inner_texts()
    assert len(transfers) == 4
    assert all("→ 阿华" in t for t in transfers)  # four people owe the one who won
    share = page.locator("#share-text").input_value()
    assert "大刘 −14 · 输 14 元" in share  # sitting out: no seat beside the name
    fits(page)
    shot(page, "settle-by-person")
    settlement = Settlement.objects.get(game=game)
    assert dict(zip(settlement.names, settlement.balances_fen, strict=True)) == {n: t * 100 for n, t in PEOPLE.items()}

"""People, not seats, on a phone (390×844): an evening of 义乌 set to 2 圈 with a substitute before
hand 5, a seat swap when the first round ends, a fifth friend rotating back in, and the settle-up
by person. Every page it passes through fits the phone's width."""

import re

import pytest
from playwright.sync_api import expect

from scoring.engine import score_game
from scoring.models import Game, Settlement
from tests.browser.helpers import confirm, number

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NAMES = ["老王", "小李", "阿华", "大刘"]  # 东南西北; 老王 deals first
# 义乌 at 7/5, every hand a 自摸 (×2): a 闲's win costs the dealer 14 and the others 10 each.
#   1  小李 wins                 老王 (庄) −14, 小李 +34, 阿华 −10, 大刘 −10   → 小李 deals
#   2  阿华 wins                 老王 −10, 小李 (庄) −14, 阿华 +34, 大刘 −10   → 阿华 deals
#   3  阿华 (庄) wins, ×2 each    老王 −14, 小李 −14, 阿华 +42, 大刘 −14       → 阿华 deals on
#   4  大刘 wins                 老王 −10, 小李 −10, 阿华 (庄) −14, 大刘 +34   → 大刘 deals
#      小周 takes 阿华's seat (西)
#   5  老王 wins                 老王 +34, 小李 −10, 小周 −10, 大刘 (庄) −14   → 东 deals: 东风圈 is over
#      老王 and 小李 swap seats; then 阿华 comes back for 大刘 (北)
#   6  阿华 wins                 小李 (庄, 东) −14, 老王 −10, 小周 −10, 阿华 +34
# Each person over the seats they sat in:
#   老王 −14 − 10 − 14 − 10 + 34 − 10 = −24;  小李 +34 − 14 − 14 − 10 − 10 − 14 = −28
#   阿华 −10 + 34 + 42 − 14 + 34 = +86;        大刘 −10 − 10 − 14 + 34 − 14 = −14 (sitting out)
#   小周 −10 − 10 = −20;                        −24 − 28 + 86 − 14 − 20 = 0
PEOPLE = {"老王": -24, "小李": -28, "阿华": 86, "大刘": -14, "小周": -20}


def fits(page) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= 390, page.url


def zimo(page, winner: str) -> None:
    """From the game page: the winner, 自摸, 确认."""
    page.locator(".record").get_by_role("link", name=winner, exact=True).click()
    page.get_by_role("link", name=re.compile("^自摸")).click()
    confirm(page)


def seated(page) -> list[str]:
    return page.locator(".tile .name bdi").all_inner_texts()


def confirm_seating(page) -> None:
    fits(page)
    page.get_by_role("button", name="确认换人/换位").click()
    expect(page.locator(".alert-success")).to_contain_text("已换人/换位。")


def test_an_evening_with_a_substitute_a_swap_at_the_rounds_end_and_a_fifth_friend(live_server, phone, shot):
    page = phone
    page.goto(live_server.url + "/new")
    for seat, name in enumerate(NAMES):
        page.fill(f"#id_name{seat}", name)
    page.locator(".round-length").get_by_text("2 圈").click()
    page.get_by_role("button", name="开始").click()
    expect(page.locator(".round-label")).to_have_text("东风圈 第1局 · 共 2 圈")
    game = Game.objects.get()
    assert game.round_length == 2

    for winner in ("小李", "阿华", "阿华", "大刘"):
        zimo(page, winner)
    expect(page.locator(".round-label")).to_have_text("东风圈 第4局 · 共 2 圈")

    # Before hand 5, 阿华 goes home and 小周 sits in: who leaves, then a new name.
    page.locator(".seating-link").click()
    fits(page)
    shot(page, "seating-menu")
    page.locator(".seating-menu").get_by_role("link", name=re.compile("^换人")).click()
    page.get_by_role("link", name="西 阿华").click()
    page.fill("#id_name", "小周")
    page.get_by_role("button", name="坐进来").click()
    expect(page.locator(".seating-preview")).to_contain_text("轮空（不在桌上）: 阿华 +52")
    shot(page, "seating-substitute-preview")
    confirm_seating(page)
    assert seated(page) == ["老王", "小李", "小周", "大刘"]
    expect(page.locator("#tiles .sitting-out")).to_have_text("轮空（不在桌上）: 阿华 +52")
    fits(page)
    shot(page, "game-with-someone-sitting-out")

    zimo(page, "老王")  # 大刘 dealt and lost: the deal is back at 东, and the first round is over
    card = page.locator(".round-end")
    expect(card).to_contain_text("东风圈打完了")
    expect(page.locator(".round-label")).to_have_text("南风圈 第1局 · 共 2 圈")
    fits(page)
    shot(page, "game-round-end")
    card.get_by_role("link", name="换位", exact=True).click()
    page.locator(".seating-menu").get_by_role("link", name=re.compile("^两人换位")).click()
    page.get_by_role("link", name="东 老王").click()
    expect(page.locator(".question")).to_have_text("老王和谁换位？")  # the second tap is on the next step
    page.get_by_role("link", name="南 小李").click()
    expect(page.locator(".seating-preview .new-dealer")).to_contain_text("小李 坐庄")
    shot(page, "seating-swap-preview")
    confirm_seating(page)
    expect(page.locator(".round-end")).to_have_count(0)
    assert seated(page) == ["小李", "老王", "小周", "大刘"]

    # The fifth friend rotates back in for 大刘: offered by name, one tap.
    page.locator(".seating-link").click()
    page.locator(".seating-menu").get_by_role("link", name=re.compile("^换人")).click()
    page.get_by_role("link", name="北 大刘").click()
    expect(page.locator(".question")).to_have_text("谁坐北，换下大刘？")
    page.locator(".choices").get_by_role("link", name="阿华").click()
    expect(page.locator(".seating-preview")).to_contain_text("轮空（不在桌上）: 大刘 −14")
    confirm_seating(page)
    zimo(page, "阿华")
    assert seated(page) == ["小李", "老王", "小周", "阿华"]
    totals = dict(zip(seated(page), (number(t) for t in page.locator(".tile .total").all_inner_texts()), strict=True))
    assert totals == {n: PEOPLE[n] for n in ("小李", "老王", "小周", "阿华")}
    expect(page.locator("#tiles .sitting-out")).to_have_text("轮空（不在桌上）: 大刘 −14")
    # Each hand says who played it: hand 4 is 阿华's, in 西.
    page.locator("#hand-4 summary").click()
    expect(page.locator("#hand-4 .seated")).to_have_text("谁打的: 东 老王 · 南 小李 · 西 阿华 · 北 大刘")
    expect(page.locator(".hands-count")).to_have_text("共 6 局")  # seatings are no hands
    fits(page)
    shot(page, "game-after-three-seatings")

    # Settle-up by person: all five, in 元, the fewest transfers; the money sums to zero.
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
    backup = page.request.get(f"{live_server.url}/g/{game.edit_token}/export.json").json()
    assert {p["name"]: p["total"] for p in score_game(backup)["people"]} == PEOPLE

"""算牌 on a phone: pick the flip and 14 tiles on the keyboard, read the answer, 「用这个记分」,
confirm, and the game page's totals agree with score_game; then again from the record flow with
the first player (东, seat 0) as the winner. One phone and one game for both: the second reading
begins where the first ends, on the game page."""

import re

import pytest
from playwright.sync_api import expect

from scoring.engine import score_game
from scoring.models import Hand
from tests.browser.helpers import confirm, screen_totals

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

HAND = ["1m", "2m", "3m", "4m", "5m", "6m", "7m", "8m", "9m", "1s", "1s", "1s", "E"]


def key(page, code: str):
    return page.locator(f".keyboard a[data-key='{code}']")


def tap_key(page, code: str, count: int) -> None:
    """Tap a key and wait for htmx to swap in the strip holding ``count`` tiles."""
    key(page, code).click()
    expect(page.locator(".strip .stile")).to_have_count(count)


def test_read_a_hand_and_record_it_then_again_for_the_first_player_east(live_server, phone, shot, make_game):
    game = make_game()
    page = phone
    page.goto(f"{live_server.url}/g/{game.edit_token}/")
    page.locator(".links").get_by_role("link", name="算牌").click()
    expect(page.get_by_text("先点翻出的那张牌")).to_be_visible()
    page.evaluate("window.__stay = 1")  # survives an htmx swap, not a full page load

    key(page, "5p").click()
    expect(page.locator(".flipline")).to_contain_text("财神")
    expect(page.locator(".flipline")).to_contain_text("白板代替")
    page.locator(".winners").get_by_role("button", name="小李").click()
    expect(page.locator('.winners [aria-pressed="true"]')).to_have_text("✓ 小李")
    for n, name in enumerate(HAND[:3], start=1):
        tap_key(page, name, n)
    expect(page.locator("#answer")).to_contain_text("还差10张")
    # thumb-sized keys: ≥ 44 px tall, and the nine 万 fit across the 390 px screen
    boxes = [key(page, f"{n}m").bounding_box() for n in range(4, 10)]
    assert min(b["height"] for b in boxes) >= 44
    assert boxes[-1]["x"] + boxes[-1]["width"] <= 390
    shot(page, "analyse-keyboard")

    for n, name in enumerate(HAND[3:], start=4):
        tap_key(page, name, n)
    expect(page.locator("#answer")).to_contain_text("听 2 种")
    expect(page.locator("#answer")).to_contain_text("胡 东：平胡 ×1")
    pinghu = score_game({"hands": [{"outcome": "win", "winner": 1, "win_type": "pinghu", "discarder": 0}]})
    expect(page.locator("#answer")).to_contain_text(f"谁放铳都是 小李+{pinghu['totals'][1]}")
    assert "tiles=" in page.url  # every tap is in the address: a reload shows the same hand
    shot(page, "analyse-waits")

    page.locator(".context").get_by_role("button", name="自摸").click()
    expect(page.locator('.context [aria-pressed="true"]')).to_have_text("✓ 自摸")
    tap_key(page, "E", 14)
    zimo = {"outcome": "win", "winner": 1, "win_type": "zimo", "caishen": 0}
    won = score_game({"hands": [zimo]})["totals"]
    expect(page.locator("#answer")).to_contain_text("胡了！")
    expect(page.locator("#answer .breakdown")).to_have_text("自摸 ×2")
    expect(page.locator("#answer")).to_contain_text(f"小李+{won[1]}")
    expect(key(page, "S")).to_have_count(0)  # 14 tiles: no key adds a 15th
    assert page.evaluate("window.__stay") == 1
    shot(page, "analyse-answer")

    page.get_by_role("link", name="用这个记分").click()
    expect(page.locator(".preview")).to_contain_text(f"+{won[1]}")
    expect(page.locator(".preview")).to_contain_text("小李 自摸")
    shot(page, "analyse-preview")
    confirm(page)

    assert screen_totals(page) == won
    assert [h.entry for h in Hand.objects.filter(game=game)] == [zimo]
    assert re.search(r"/g/[^/]+/$", page.url)

    # Seat 0 (东, 老王) is a winner like any other: game page → 老王 → 算一算 → the flip and the
    # tiles keep 老王 chosen (tests/table/test_it_seat_zero.py: every link the server draws), and
    # 「用这个记分」 records 老王's win. Only this way in carries the winner from the record flow.
    page.locator(".record").get_by_role("link", name="老王").click()
    page.get_by_role("link", name=re.compile("算一算")).click()
    expect(page.get_by_text("先点翻出的那张牌")).to_be_visible()
    assert "winner=0" in page.url
    key(page, "5p").click()
    expect(page.locator(".flipline")).to_contain_text("财神")
    expect(page.locator('.winners [aria-pressed="true"]')).to_have_text(re.compile("老王"))
    assert "winner=0" in page.url
    page.locator(".context").get_by_role("button", name="自摸").click()
    expect(page.locator('.context [aria-pressed="true"]')).to_have_text("✓ 自摸")
    for n, name in enumerate([*HAND, "E"], start=1):
        tap_key(page, name, n)
    east = {"outcome": "win", "winner": 0, "win_type": "zimo", "caishen": 0}
    both = score_game({"hands": [zimo, east]})["totals"]
    expect(page.locator("#answer")).to_contain_text(f"老王+{both[0] - won[0]}")  # at the table as it is now
    expect(page.locator('.winners [aria-pressed="true"]')).to_have_text(re.compile("老王"))
    shot(page, "analyse-seat-zero")
    page.get_by_role("link", name="用这个记分").click()
    expect(page.locator(".preview")).to_contain_text("老王 自摸")
    confirm(page)
    assert screen_totals(page) == both
    assert [h.entry for h in Hand.objects.filter(game=game)] == [zimo, east]

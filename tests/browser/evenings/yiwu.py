"""义乌's evening on a phone (tests/browser/test_evenings.py): create a game, record hands of every
kind, fix mistakes.

Each hand here is a way of recording one the others do not tap; the two that only repeated a
path (a 自摸 as hand 1's, a 流局 as tests/browser/test_bets_piao_manual.py's) are recorded
through the write every hand takes, and the page reloaded once, before the void and the edit.
Every amount and message of the evening as first written (财神头 as hand 3, the 连庄 mark) is
asserted by tests/table/test_it_table_flow.py."""

import re

from playwright.sync_api import expect

from scoring import services
from scoring.engine import score_game
from scoring.models import Game, Hand
from tests.browser.helpers import confirm, form_ready, screen_totals


def tap(page, text: str) -> None:
    page.get_by_role("link", name=text, exact=True).first.click()


def open_more(page) -> None:
    form_ready(page)
    details = page.locator("details.more")
    if details.get_attribute("open") is None:
        details.locator("summary").click()


def evening(page, live_server, shot, look):
    page.goto(live_server.url)
    page.get_by_role("link", name="开新牌局").click()
    expect(page.locator("#id_name0")).to_be_visible()
    look("new-game")
    for seat, name in enumerate(["老王", "小李", "阿华", "大刘"]):
        page.fill(f"#id_name{seat}", name)
    page.locator(".round-length").get_by_text("2 圈").click()  # a chip over a hidden radio
    page.get_by_role("button", name="开始").click()
    expect(page.get_by_text("记一局：谁胡了？")).to_be_visible()
    expect(page.locator(".round-label")).to_have_text("东风圈（1/4） · 共 2 圈")
    game = Game.objects.get()
    assert game.round_length == 2
    expected = []

    # 1. the dealer 老王 自摸: two taps and confirm
    tap(page, "老王")
    expect(page.get_by_role("link", name="自摸 ×2", exact=True)).to_be_visible()
    look("how-step", taps=True)
    tap(page, "自摸 ×2")
    expect(page.locator(".preview")).to_contain_text("+42")
    look("preview")
    confirm(page)
    expected.append({"outcome": "win", "winner": 0, "win_type": "zimo"})

    # 2. 老王 again, 平胡 off 阿华, and 小李 places 下子 (2, after a 自摸)
    tap(page, "老王")
    page.get_by_role("link", name=re.compile("阿华 放铳")).click()
    open_more(page)
    page.locator("label[for=xz1]").click()
    expect(page.locator(".preview .why")).to_contain_text("下子2")
    shot(page, "entry-form")
    confirm(page)
    expected.append({"outcome": "win", "winner": 0, "win_type": "pinghu", "discarder": 2, "xiazi_join": [1]})

    # 3. 阿华 单飘 with 小李 liable under 承包 (小李's 下子 goes on: 老王 dealt)
    tap(page, "阿华")
    tap(page, "单飘 ×8")
    expect(page.get_by_role("button", name="喂家 小李")).to_be_visible()
    look("piao-step")
    page.get_by_role("button", name="喂家 小李").click()  # a name chip, as for someone else's float
    expect(page.locator(".preview .why")).to_contain_text("承包全赔")
    confirm(page)
    expected.append(
        {"outcome": "win", "winner": 2, "win_type": "danpiao", "piao": {"player": 2, "level": 1}, "feeders": [1]}
    )

    # 4. a draw; 5. 大刘 自摸: paths tapped elsewhere, recorded as another phone would
    for entry in ({"outcome": "draw"}, {"outcome": "win", "winner": 3, "win_type": "zimo"}):
        seq = len(expected) + 1
        services.record_hand(game=game, entry=entry, fix=None, next_seq=seq, form_token="", entered_by="")
        expected.append(entry)
    page.reload()

    # 6. the draw was never played: void hand 4
    page.locator("#hand-4 summary").click()
    page.locator("#hand-4").get_by_role("link", name="作废").click()
    expect(page.get_by_role("button", name="确认作废")).to_be_visible()
    look("void-draw", axe=False, taps=True)
    page.get_by_role("button", name="确认作废").click()
    expect(page.locator("#hand-4")).to_have_class(re.compile("voided"))
    del expected[3]

    # 7. it was really 平胡 off 小李: edit hand 5
    page.locator("#hand-5 summary").click()
    page.locator("#hand-5").get_by_role("link", name="修改").click()
    expect(page.get_by_role("link", name="大刘 原来")).to_be_visible()
    look("edit", taps=True)
    page.get_by_role("link", name="大刘 原来").click()  # the record flow's questions, the old answers marked
    expect(page.get_by_role("link", name="自摸 ×2 原来")).to_be_visible()
    page.get_by_role("link", name="小李 放铳").click()
    expect(page.locator(".preview")).to_contain_text("小李放铳")
    form_ready(page)
    confirm(page)
    expected[3] = {"outcome": "win", "winner": 3, "win_type": "pinghu", "discarder": 1}

    # the screen agrees with score_game on the same hands, entered independently above
    assert screen_totals(page) == score_game({"hands": expected})["totals"]
    stored = [h.entry for h in Hand.objects.filter(game=game, voided_at__isnull=True)]
    assert stored == expected
    page.locator("#hand-3 summary").click()
    shot(page, "game-page")

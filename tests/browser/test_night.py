"""今晚几桌 on eight phones at 390×844: the organiser opens a night of two tables from the 牌友圈 page,
four phones sit at each table, hands are tapped at both, 小李 moves to table 2 and 小芳 to table 1
between hands, the board on a phone at table 2 follows a hand of table 1 without a reload, and the
night's settle-up shows the engine's fewest transfers, amount for amount. tests/nights/ asserts the
arithmetic at every size; this is the taps."""

import re

import pytest
from playwright.sync_api import expect

from scoring import night
from scoring.engine.seating import key
from scoring.engine.transfers import settle_balances
from scoring.models import Game, Group, TableNight
from scoring.yuan import money
from tests.browser.conftest import PHONE
from tests.browser.helpers import confirm
from tests.browser.test_accessibility import AXE, violations

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

EIGHT = ["老王", "小李", "阿华", "大刘", "阿明", "小芳", "老陈", "阿强"]


def phones(browser, n: int) -> list:
    """``n`` phones at 390×844 in Chinese; the first (the organiser's) has axe in every page it opens."""
    pages = []
    for i in range(n):
        context = browser.new_context(viewport=PHONE, locale="zh-CN")
        if i == 0:
            context.add_init_script(path=str(AXE))
        context.set_default_timeout(10_000)
        pages.append(context.new_page())
    return pages


def tap_win(page, winner: str) -> None:
    """谁胡了 → ``winner`` → 自摸, and 确认."""
    expect(page.get_by_text("记一局：谁胡了？")).to_be_visible()
    page.get_by_role("link", name=winner, exact=True).first.click()
    page.get_by_role("link", name=re.compile("^自摸")).first.click()
    expect(page.locator(".preview")).to_be_visible()
    confirm(page)


def total_of(game: Game, name: str) -> str:
    """``name``'s total at ``game`` as the board writes it (+42, −14)."""
    game.refresh_from_db()
    points = dict((key(n), p) for n, p in game.plugin.state_from_dict(game.state["table"]).people())
    value = points[key(name)]
    return f"+{value}" if value > 0 else f"\u2212{-value}" if value < 0 else "0"


def test_a_night_of_two_tables_on_eight_phones(live_server, browser, shot):
    group = Group.objects.create(name="春节", roster=EIGHT)
    host, *others = phones(browser, 8)
    host.goto(f"{live_server.url}/group/{group.edit_token}/")
    shot(host, "night-group")
    host.get_by_role("link", name="今晚几桌 · 开今晚").click()
    expect(host.locator("#id_people")).to_have_value("\n".join(EIGHT))
    shot(host, "night-new")
    host.get_by_text("按座：按上面名单的顺序").click()
    host.locator("#id_tables").select_option("2")
    host.get_by_role("button", name="开今晚").click()
    expect(host.locator(".night-table")).to_have_count(2)
    assert violations(host) == []
    found = TableNight.objects.get()
    one, two = found.tables.order_by("pk")
    assert (one.players, two.players) == (EIGHT[:4], EIGHT[4:])
    board_url = f"{live_server.url}/night/{found.view_token}/"

    # four phones at each table; the last of table 2's watches the board on the night's view link
    at_one, at_two = [host, *others[:3]], others[3:]
    for page in at_one[1:]:
        page.goto(f"{live_server.url}/g/{one.edit_token}/")
    for page in at_two[:3]:
        page.goto(f"{live_server.url}/g/{two.edit_token}/")
    watcher = at_two[3]
    watcher.goto(board_url)
    expect(watcher.locator(".night-person")).to_have_count(8)

    # a hand at table 1 (老王 自摸) reaches the board at table 2 without a reload
    at_one[1].goto(f"{live_server.url}/g/{one.edit_token}/")
    tap_win(at_one[1], "老王")
    wang = watcher.locator('.night-person[data-person="老王"] .night-total')
    expect(wang).to_have_text(total_of(one, "老王"))
    tap_win(at_two[0], "阿明")
    expect(watcher.locator('.night-person[data-person="阿明"] .night-total')).to_have_text(total_of(two, "阿明"))

    # between hands, 小李 (table 1) and 小芳 (table 2) change tables: a seating at each
    host.goto(f"{live_server.url}/night/{found.edit_token}/")
    host.locator("select[name=mover]").select_option("小李")
    host.locator("select[name=other]").select_option("小芳")
    host.get_by_role("button", name="换桌", exact=True).click()
    expect(host.locator("#flash")).to_contain_text("已换桌")
    one.refresh_from_db()
    two.refresh_from_db()
    assert one.seating == ["老王", "小芳", "阿华", "大刘"]
    assert two.seating == ["阿明", "小李", "老陈", "阿强"]
    expect(watcher.locator('.night-person[data-person="小芳"] .where')).to_have_text("在1桌")

    # 小芳 wins her first hand at table 1; 小李 his first at table 2; the board follows each
    at_one[2].goto(f"{live_server.url}/g/{one.edit_token}/")
    tap_win(at_one[2], "小芳")
    expect(watcher.locator('.night-person[data-person="小芳"] .per-table')).to_contain_text("1桌")
    at_two[1].goto(f"{live_server.url}/g/{two.edit_token}/")
    tap_win(at_two[1], "小李")
    fang = watcher.locator('.night-person[data-person="小芳"] .night-total')
    expect(fang).to_have_text(_sum_text([total_of(one, "小芳"), total_of(two, "小芳")]))
    expect(watcher.locator('.night-person[data-person="小李"] .per-table')).to_contain_text("2桌")
    shot(watcher, "night-board")

    # the night's settle-up: every table at 1 元 a point, then the fewest transfers across both
    host.get_by_role("link", name="今晚结算").click()
    host.locator("#id_fee_yuan").fill("80")  # one fee for the night, 老王 paid the venue
    host.locator("#id_fee_payee").select_option("老王")
    host.get_by_role("button", name="结算每一桌，合并转账").click()
    expect(host.locator(".night-transfer")).not_to_have_count(0)
    found.refresh_from_db()
    assert (found.fee_fen, found.fee_payee) == (8000, "老王")
    tables = night.tables_of(found)
    names = {key(n): n for n in EIGHT}
    fee = {k: 1000 for k in names}  # 80 元 among the eight who played
    fee["老王"] -= 8000
    fewest = settle_balances({k: v - fee[k] for k, v in night.nets(tables).items()}).transfers
    shown = [
        (row.locator(".payer").inner_text(), row.locator(".payee").inner_text(), row.locator(".amount").inner_text())
        for row in host.locator(".night-transfer").all()
    ]
    assert sorted(shown) == sorted((names[a], names[b], money(fen, True)) for a, b, fen in fewest)
    expect(host.locator("#night-transfers")).to_contain_text("已经是最少的笔数")
    expect(host.locator(".night-fee")).to_contain_text("今晚台费 80 元，老王 垫付")
    expect(host.locator(".together")).to_have_count(0)  # done: nothing left to net
    host.reload()  # the page as anyone opens it, without the toast
    shot(host, "night-settle")
    assert violations(host) == []
    watcher.goto(f"{live_server.url}/night/{found.view_token}/settle")
    expect(watcher.locator(".night-transfer")).to_have_count(len(fewest))


def _sum_text(texts: list[str]) -> str:
    value = sum(int(t.replace("\u2212", "-").replace("+", "")) for t in texts)
    return f"+{value}" if value > 0 else f"\u2212{-value}" if value < 0 else "0"


def test_a_night_of_a_yiwu_table_and_a_wuyi_two_player_table(live_server, browser, shot):
    """Six come: 「每桌玩法不同」 unfolded, table 2 plays 武义二人 (two seats) beside a 义乌 table of four;
    the board shows both rulesets and waits for 元; the group page lists the night, still playing."""
    six = EIGHT[:6]
    group = Group.objects.create(name="春节", roster=six)
    (host,) = phones(browser, 1)
    host.goto(f"{live_server.url}/group/{group.edit_token}/night/new")
    host.get_by_text("按座：按上面名单的顺序").click()
    host.locator("#id_tables").select_option("2")
    host.locator(".per-table summary").click()
    host.locator("#id_table_2").select_option("wuyi2")
    expect(host.locator("#id_table_2")).to_be_visible()
    expect(host.locator("#id_table_3")).to_be_hidden()  # only the tables opened show their select
    shot(host, "night2-new")
    assert violations(host) == []
    host.get_by_role("button", name="开今晚").click()
    expect(host.locator(".night-table")).to_have_count(2)
    found = TableNight.objects.get()
    four, two = found.tables.order_by("pk")
    assert (four.ruleset, four.players, two.ruleset, two.players) == ("yiwu", six[:4], "wuyi2", six[4:])
    expect(host.locator('.night-table[data-table="2"]')).to_contain_text("武义二人")
    expect(host.locator(".which-total")).to_contain_text("各桌玩法不同")
    host.get_by_role("link", name="牌友圈").click()
    expect(host.locator(".night-line")).to_have_count(1)
    expect(host.locator(".night-line")).to_contain_text("2 桌 · 6 人 · 义乌麻将 · 武义二人麻将")
    expect(host.locator(".night-playing")).to_have_text("2 桌在打")
    shot(host, "night2-group")
    assert violations(host) == []

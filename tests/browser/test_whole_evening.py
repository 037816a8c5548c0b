"""A whole 义乌 evening in a 牌友圈 on five phones at 390×844 (issue 43): 20 hands, a bet tapped on a
badge, a 飘 with its 喂家, a seating change, 核对 by each of five people with one tap at the pace
people keep, one hand flagged 有误 and fixed through 修改 → 一起修改 (the next hand's bet shown
impossible and unticked), settled with a fee and 抹零 together with last week's unpaid transfers,
and a payee's 收款码 shown on the payer's phone. After every tap that writes, no phone has met a
refusal; at the end every stored total, the phones' tiles and the settlement equal the engine's.

The plain hands in between only repeat taps the other browser tests make: they are recorded
through the write every hand takes (tests/factories.py ``add_hand``)."""

import re
import time

import pytest
from playwright.sync_api import expect

from scoring.engine import score_game
from scoring.models import Game, Group, HandCheck, SettleUp
from scoring.replay import cached_state
from tests.browser.conftest import PHONE
from tests.browser.helpers import confirm, form_ready, screen_totals
from tests.browser.test_group_evening import last_week
from tests.browser.test_paycodes import add_code
from tests.factories import add_hand, new_game
from tests.settle.test_it_paycodes import WECHAT, screenshot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
PEOPLE = ["老王", "小李", "阿华", "大刘", "阿明"]
NO_BET = "只有庄家胡牌后的下一局才能下子"
REFUSED = "#flash .alert-warning, #flash .alert-danger"


def plain(n: int) -> dict:
    """The n-th plain hand: a draw every fifth, else a 自摸 or a 平胡 off the seat before."""
    if n % 5 == 0:
        return {"outcome": "draw"}
    winner = n % 4
    if n % 3:
        return {"outcome": "win", "winner": winner, "win_type": "zimo"}
    return {"outcome": "win", "winner": winner, "win_type": "pinghu", "discarder": (winner + 3) % 4}


def entries(game: Game) -> dict:
    """The stored game as the engine's input (no voids, no 更正庄家 tonight)."""
    game.refresh_from_db()
    hands = [h.entry for h in game.hands.filter(voided_at__isnull=True).order_by("seq")]
    return {"rules": game.rules, "first_dealer": game.first_dealer, "players": list(game.players), "hands": hands}


class Table:
    """The five phones, each 我是 its person, and every refusal any of them meets."""

    def __init__(self, browser, url: str):
        self.url, self.bad, self.phones = url, [], {}
        for name in PEOPLE:
            page = browser.new_context(viewport=PHONE, locale="zh-CN").new_page()
            page.set_default_timeout(10_000)
            page.on("response", self.noted)
            self.phones[name] = page

    def noted(self, response) -> None:
        if response.status in (405, 429) or response.status >= 500:
            self.bad.append(f"{response.status} {response.request.method} {response.url}")

    def open(self, name: str):
        page = self.phones[name]
        page.goto(self.url)
        page.locator("section", has_text="我是").get_by_role("button", name=re.compile(f"^{name}")).click()
        expect(page.locator("section", has_text="我是").locator("button.btn-dark")).to_contain_text(name)
        return page

    def no_refusal(self, what: str) -> None:
        for name, page in self.phones.items():
            if page.url.startswith("http"):
                assert page.locator(REFUSED).count() == 0, (what, name, page.locator(REFUSED).all_inner_texts())
                assert page.get_by_text("太多").count() == 0, (what, name)
        assert self.bad == [], (what, self.bad)


def test_a_whole_evening_on_five_phones(live_server, browser, shot):
    group = Group.objects.create(name="周五老地方", roster=PEOPLE)
    last_week(group)  # three transfers nobody has paid yet
    game = new_game(PEOPLE[:4], group=group)
    table = Table(browser, f"{live_server.url}/g/{game.edit_token}/")
    add_hand(game, {"outcome": "win", "winner": 0, "win_type": "zimo"})  # 老王 deals on: 下子 is open
    laowang = table.open("老王")

    # 小李 bets 下子 2 with one tap on the badge; 阿华 单飘 and wins, 小李 her 喂家 (承包)
    laowang.locator(".xiazi-offers").get_by_role("button", name=re.compile("小李 下子 2")).click()
    expect(laowang.locator(".tile").nth(1)).to_contain_text("下2")
    table.no_refusal("bet")
    laowang.get_by_role("link", name="阿华", exact=True).first.click()
    laowang.get_by_role("link", name="单飘 ×8", exact=True).click()
    laowang.get_by_role("button", name="喂家 小李").click()
    expect(laowang.locator(".preview .why")).to_contain_text("承包全赔")
    form_ready(laowang)
    confirm(laowang)
    table.no_refusal("piao")
    assert game.hands.get(seq=2).entry == {
        "outcome": "win",
        "winner": 2,
        "win_type": "danpiao",
        "piao": {"player": 2, "level": 1},
        "feeders": [1],
        "xiazi_join": [1],
    }

    for n in range(3, 9):  # hands 3-8 from another phone
        add_hand(game, plain(n))
    laowang.reload()
    # 大刘 goes home after hand 8; 阿明, of the 牌友圈, sits in for him
    laowang.locator(".seating-link").click()
    laowang.locator(".seating-menu").get_by_role("link", name=re.compile("^换人")).click()
    laowang.get_by_role("link", name="北 大刘").click()
    laowang.locator(".choices").get_by_role("link", name="阿明").click()  # the 牌友圈's roster offers him
    laowang.get_by_role("button", name="确认换人/换位").click()
    expect(laowang.locator(".alert-success")).to_contain_text("已换人/换位。")
    table.no_refusal("seating")

    for n in range(9, 19):  # hands 9-18
        add_hand(game, plain(n))
    dealer = cached_state(Game.objects.get(pk=game.pk)).table.dealer
    bettor, last_winner, fixed_winner = (dealer + 2) % 4, (dealer + 3) % 4, (dealer + 1) % 4
    add_hand(game, {"outcome": "win", "winner": dealer, "win_type": "zimo"})  # hand 19 (seq 20)
    add_hand(game, {"outcome": "win", "winner": last_winner, "win_type": "zimo", "xiazi_join": [bettor]})
    seated = [*PEOPLE[:3], "阿明"]
    assert game.hands.get(seq=9).entry["players"] == seated
    assert game.hands.exclude(entry__outcome="seating").count() == 20

    # 核对: the fixed winner flags hand 19 (he won it, not the dealer), then each of the five
    # checks every hand they played with one tap, a second or two apart
    phones = {name: table.open(name) for name in PEOPLE}
    flagger = phones[seated[fixed_winner]]
    row = flagger.locator("#checks-20")
    row.get_by_text("有误…").click()
    row.get_by_placeholder("哪里不对（可不写）").fill("是我自摸的")
    row.get_by_role("button", name="标为有误").click()
    expect(flagger.locator("#flags")).to_contain_text("第19局有误")
    table.no_refusal("flag")
    for page in phones.values():
        page.locator(".check-up-to button").click()
        expect(page.locator("#flash")).to_contain_text("已核对")
        table.no_refusal("check")
        time.sleep(1.2)
    assert HandCheck.objects.filter(verdict="wrong").count() == 1
    assert HandCheck.objects.filter(person="大刘").count() == 8  # the hands he played
    banner = laowang.locator("#flags .flag-banner")
    expect(banner).to_contain_text(f"第19局有误 · {seated[fixed_winner]}：「是我自摸的」", timeout=8_000)
    shot(laowang, "whole-evening-flag")

    # 老王 fixes it from the banner: 修改, the winner, then 一起修改 hand 20, whose bet is shown
    # impossible and unticked before one 确认修改 saves both
    banner.get_by_role("link", name="修改").click()
    expect(laowang).to_have_url(re.compile(r"/hand/\d+/edit"))  # not the game page's own winner links
    laowang.get_by_role("link", name=seated[fixed_winner], exact=True).click()
    laowang.get_by_role("link", name="自摸 ×2 原来").click()
    expect(laowang.locator(".blocked")).to_contain_text(NO_BET)
    laowang.get_by_role("link", name="一起修改第20局").click()
    laowang.get_by_role("link", name=f"{seated[last_winner]} 原来").click()
    laowang.get_by_role("link", name="自摸 ×2 原来").click()
    bet = laowang.locator(f"#xz{bettor}")
    expect(bet).to_be_checked()
    expect(laowang.locator(".bet-invalid-note")).to_contain_text(NO_BET)
    laowang.locator(f"label.bet-untick[for=xz{bettor}]").click()
    expect(bet).not_to_be_checked()
    laowang.get_by_role("button", name="确认修改").click()
    expect(laowang.locator(".alert-success")).to_contain_text("已一起修改第19、20局")
    expect(laowang.locator("#flags .flag-banner")).to_have_count(0)
    table.no_refusal("together")
    stored = entries(game)
    assert stored["hands"][-2] == {"outcome": "win", "winner": fixed_winner, "win_type": "zimo"}
    assert "xiazi_join" not in stored["hands"][-1]
    engine = score_game(stored)
    people = {p["name"]: p["total"] for p in engine["people"]}
    assert screen_totals(laowang) == [people[name] for name in seated]  # each seated person's own

    # settle at 0.5 元 a point, a 台费 of 20 元, 抹零, together with last week's unpaid transfers
    laowang.get_by_role("link", name="结算", exact=True).click()
    laowang.locator("label[for=rate1]").click()
    laowang.fill("#id_fee_yuan", "20")
    laowang.locator("label[for=round-yuan]").click()
    laowang.get_by_role("button", name="预览").click()
    expect(laowang.locator("#settle-preview")).to_contain_text("抹零")
    laowang.get_by_role("button", name="结束并结算").click()
    table.no_refusal("settle")
    carry = laowang.locator("#carry")
    expect(carry).to_contain_text("连同今晚的一起算，只要这几笔")
    carry.get_by_role("button", name="连同以前没付的一起结清").click()
    expect(laowang.locator(".settle-up")).to_be_visible()
    table.no_refusal("carry-over")
    shot(laowang, "whole-evening-settled")

    # the biggest payee's 收款码, added on the settle page, is shown on a payer's phone
    settle_up = SettleUp.objects.get()
    transfer = max(settle_up.transfers.all(), key=lambda t: t.amount_fen)
    payee, payer = transfer.payee, transfer.payer  # names
    add_code(laowang, payee, screenshot(WECHAT), "wechat.png")
    expect(laowang.locator(".alert-success").first).to_contain_text(f"已保存{payee}的微信收款码")
    table.no_refusal("pay code")
    payer_phone = phones[payer]
    payer_phone.goto(f"{live_server.url}/g/{game.edit_token}/settle")
    item = payer_phone.locator(".settle-up .transfers > li", has_text=f"{payer} → {payee}")
    image = item.locator(".paycode-image")
    image.scroll_into_view_if_needed()
    expect(image).to_be_visible()
    shot(payer_phone, "whole-evening-paycode")
    table.no_refusal("the end")

    # every amount the engine's: the stored table, the settlement's points, money summing to zero
    game.refresh_from_db()
    state = cached_state(game)
    assert state.table.totals == engine["totals"]
    assert dict(state.people()) == people
    settlement = game.settlement
    assert dict(zip(settlement.names, settlement.points, strict=True)) == people
    assert sum(settlement.balances_fen) == 0
    assert all(b % 100 == 0 for b in settlement.balances_fen)  # 抹零: whole 元
    assert settlement.fee_fen == 2000

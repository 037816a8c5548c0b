"""A whole 义乌 evening in a 牌友圈 on five phones at 390×844 (issue 43): 20 hands, a bet tapped on a
badge, a 飘 with its 喂家, a seating change, 核对 by each of five people with one tap at the pace
people keep, one hand flagged 有误 and fixed through 修改 → 一起修改 (the next hand's bet shown
impossible and unticked), settled with a fee and 抹零 together with last week's unpaid transfers,
and a payee's 收款码 shown on the payer's phone. After every tap that writes, no phone has met a
refusal; at the end every stored total, the phones' tiles and the settlement equal the engine's.

The page tours ride the evening (tests/browser/tours.py): where it stands, one of the phones runs
axe, the 44 px tap targets, doubled text at 390 and 320 px, 大字 under WeChat's 1.4× (阿华's phone
has 大字 on all evening) or a reload, a boosted tap and the back gesture, on the page as it is at
that moment (``TOURED`` lists them, with the tests that left each to this evening). What the tours
cannot reach here stays in those tests: other rulesets, English, long names, the offline banner,
every kind of tap (tests/browser/test_whole_pages.py) and a finger held through a poll
(tests/browser/test_big_text.py).

The plain hands in between only repeat taps the other browser tests make: they are recorded
through the write every hand takes (tests/factories.py ``add_hand``)."""

import json
import re
import time

import pytest
from playwright.sync_api import expect

from scoring.engine import score_game
from scoring.models import Game, Group, HandCheck, SettleUp
from scoring.replay import cached_state
from tests.browser.conftest import PHONE
from tests.browser.helpers import confirm, form_ready, screen_totals
from tests.browser.test_accessibility import AXE, ON_THE_WHOLE_EVENING
from tests.browser.test_group_evening import last_week
from tests.browser.test_paycodes import add_code
from tests.browser.tours import BADGES_CUT, LEGEND_OVERLAPS, SELECTS_CUT, Tours, big_text_on, snap
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
            context = browser.new_context(viewport=PHONE, locale="zh-CN")
            context.add_init_script(path=str(AXE))  # each phone's pages are audited at some moment (tours.py)
            page = context.new_page()
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


# Each tour the evening makes, by (check, state), in order. Tests used to open these states on a
# game of their own: test_big_text.py's 大字 walk (now its poll test only), a doubled-text walk at
# 320 px and a tap-target walk (both gone), test_large_text_places.py's states (now its long names
# only), test_accessibility.py's Chinese states (``ON_THE_WHOLE_EVENING``) and test_whole_pages.py's
# 更新预览 of a win, reloaded.
TOURED = [
    ("axe", "game"),
    ("taps", "game"),
    ("whole", "game"),
    ("big", "home"),
    ("big", "new-game"),
    ("big", "winner-step"),
    ("big", "discarder-step"),
    ("big", "how-step"),
    ("big", "preview"),
    ("axe", "winner-step"),
    ("taps", "winner-step"),
    ("taps", "discarder-step"),
    ("large", "win-types"),
    ("taps", "preview"),
    ("large", "preview"),
    ("whole", "preview-updated"),
    ("whole", "game-after-seating"),
    ("axe", "void"),
    ("large", "void"),
    ("axe", "analyse"),
    ("large", "analyse"),
    ("axe", "summary"),
    ("large", "summary"),
    ("big", "summary"),
    ("big", "analyse"),
    ("big", "rules"),
    ("big", "rules-doc"),
    ("big", "en-game"),
    ("big", "en-preview"),
    ("big", "en-settle-preview"),
    ("big", "en-group"),
    ("big", "en-home"),
    ("axe", "share"),
    ("axe", "game-view-link"),
    ("axe", "manual"),
    ("axe", "delete"),
    ("axe", "check-rows"),
    ("large", "check-rows"),
    ("axe", "flag-banner"),
    ("large", "game"),
    ("big", "flag-banner"),
    ("axe", "together"),
    ("large", "together"),
    ("big", "settle"),
    ("big", "settle-preview"),
    ("large", "settle-preview"),
    ("whole", "settle-preview"),
    ("axe", "settle-preview"),
    ("big", "settled"),
    ("axe", "paycode"),
    ("large", "paycode"),
    ("big", "group"),
    ("big", "history"),
    ("big", "stats"),
    ("whole", "group"),
    ("axe", "history"),
    ("axe", "history-archived"),
    ("axe", "stats"),
    ("large", "stats"),
    ("axe", "home"),
    ("large", "home"),
    ("large", "new-game"),
]
NESTED = "axe.run(document, {runOnly: ['nested-interactive']}).then(r => [r.violations.length, r.passes.flatMap(p => p.nodes.map(n => n.target.join(' ')))])"
SETTLE_PREVIEW = "settle?rate=100&custom_yuan=&fee_yuan=40&fee_mode=equal&fee_payee=0"
ANALYSE = "analyse?winner=0&flip=5m&tiles=1m,2m,3m,4p,5p,6p,7s,8s,9s,E,E,E,C"


def in_language(page, server: str, language: str) -> None:
    page.context.add_cookies([{"name": "django_language", "value": language, "url": server}])


def test_a_whole_evening_on_five_phones(live_server, browser, shot):
    group = Group.objects.create(name="周五老地方", roster=PEOPLE)
    last_week(group)  # three transfers nobody has paid yet
    game = new_game(PEOPLE[:4], group=group)
    server, path = live_server.url, f"/g/{game.edit_token}/"
    url = server + path
    table = Table(browser, url)
    tours = Tours(path)
    add_hand(game, {"outcome": "win", "winner": 0, "win_type": "zimo"})  # 老王 deals on: 下子 is open
    laowang = table.open("老王")
    tours.axe(laowang, "game")
    tours.taps(laowang, "game")
    tours.whole(laowang, "game", laowang.get_by_role("link", name="规则"))

    # 阿华 reads with 大字 on: she turns it on at home, glances at 开新牌局, then the game
    ahua = table.phones["阿华"]
    ahua.goto(server + "/")
    big_text_on(ahua)
    tours.big(ahua, "home")
    ahua.goto(server + "/new")
    tours.big(ahua, "new-game")

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

    # hand 3, 大刘 平胡 off 阿华, tapped on 阿华's 大字 phone, each step looked at as it stands
    ahua.goto(url + "record")
    tours.big(ahua, "winner-step")
    ahua.goto(url + "record?outcome=win&winner=3&win_type=pinghu")
    tours.big(ahua, "discarder-step")
    table.open("阿华")
    ahua.locator(".record").get_by_role("link", name="大刘", exact=True).click()
    discarder = ahua.get_by_role("link", name=re.compile("阿华 放铳"))
    expect(discarder).to_be_visible()
    tours.big(ahua, "how-step", keep=True)
    discarder.click()
    expect(ahua.locator(".preview")).to_be_visible()
    tours.big(ahua, "preview", keep=True)
    form_ready(ahua)
    confirm(ahua)
    table.no_refusal("hand 3")
    assert game.hands.get(seq=3).entry == plain(3)

    for n in (4, 5):  # from another phone
        add_hand(game, plain(n))
    # hand 6, 阿华 平胡 off 小李, on 小李's phone by the step pages: 更新预览 and a reload keep the
    # page whole, and its 确认 records once
    xiaoli = table.phones["小李"]
    xiaoli.goto(url + "record")
    tours.axe(xiaoli, "winner-step")
    tours.taps(xiaoli, "winner-step")
    xiaoli.goto(url + "record?outcome=win&winner=2&win_type=pinghu")
    tours.taps(xiaoli, "discarder-step")
    xiaoli.goto(url + "record?outcome=win&winner=2")
    tours.large(xiaoli, "win-types")
    xiaoli.goto(url + "record?outcome=win&winner=2&win_type=pinghu&discarder=1")
    form_ready(xiaoli)
    tours.taps(xiaoli, "preview")
    tours.large(xiaoli, "preview", SELECTS_CUT)
    xiaoli.get_by_role("button", name="更新预览").click()
    expect(xiaoli.locator("nav.topbar")).to_have_count(1)
    expect(xiaoli.get_by_role("link", name="取消")).to_be_visible()
    expect(xiaoli.get_by_role("button", name="确认记录")).to_be_visible()
    assert "record?" in xiaoli.url  # the address holds the answers: a reload shows them again
    tours.whole(xiaoli, "preview-updated")  # reloaded
    form_ready(xiaoli)
    expect(xiaoli.get_by_role("link", name="取消")).to_be_visible()
    xiaoli.get_by_role("button", name="确认记录").click()
    expect(xiaoli.locator(".alert-success")).to_contain_text("已记录第6局")
    assert re.search(r"/g/[^/]+/$", xiaoli.url)
    assert game.hands.count() == 6  # once
    assert game.hands.get(seq=6).entry == plain(6)
    table.no_refusal("hand 6")

    for n in (7, 8):
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
    tours.whole(laowang, "game-after-seating", laowang.get_by_role("link", name="战绩 · 分享 · 打印").first)

    for n in range(9, 19):  # hands 9-18
        add_hand(game, plain(n))
    # between hands: 小李 looks at 作废 for hand 2 (it had a bet) and backs out, counts tiles with
    # 算牌 and reads the 战绩; 阿明 invites from 邀请 and looks at the view link, 手动记分 and 删除
    xiaoli.goto(url + "hand/2/void")
    toggle = xiaoli.get_by_role("checkbox")  # 保留这些注: one control, a checkbox to axe
    expect(toggle).to_have_count(1)
    expect(toggle).to_have_attribute("aria-checked", "true")
    tours.axe(xiaoli, "void")
    found, passed = xiaoli.evaluate(NESTED)
    assert found == 0
    assert any("keep-bets" in target for target in passed), passed  # the rule looked at the toggle itself
    tours.large(xiaoli, "void")
    xiaoli.goto(url + ANALYSE)
    tours.axe(xiaoli, "analyse")
    tours.large(xiaoli, "analyse", BADGES_CUT)
    xiaoli.goto(url + "summary")
    tours.axe(xiaoli, "summary")
    tours.large(xiaoli, "summary", LEGEND_OVERLAPS)
    for name, address in (("summary", "summary"), ("analyse", ANALYSE), ("rules", "rules")):
        ahua.goto(url + address)
        tours.big(ahua, name)
    ahua.goto(server + "/rules/zhuji")  # how they play in 诸暨, asked at the table
    tours.big(ahua, "rules-doc")
    # 阿华's grandson sets her phone to English for a while
    in_language(ahua, server, "en")
    for name, address in (
        ("en-game", url),
        ("en-preview", url + "record?outcome=win&winner=1&win_type=pinghu&discarder=0"),
        ("en-settle-preview", url + SETTLE_PREVIEW),
        ("en-group", f"{server}/group/{group.edit_token}/"),
        ("en-home", server + "/"),
    ):
        ahua.goto(address)
        tours.big(ahua, name)
    in_language(ahua, server, "zh-hans")
    aming = table.phones["阿明"]
    aming.goto(url + "share")
    tours.axe(aming, "share")
    aming.goto(f"{server}/g/{game.view_token}/")
    tours.axe(aming, "game-view-link")
    for name, address in (("manual", "record?outcome=manual"), ("delete", "delete")):
        aming.goto(url + address)
        tours.axe(aming, name)
    table.no_refusal("between hands")

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
    expect(row.get_by_placeholder("哪里不对（可不写）")).to_be_visible()
    tours.axe(flagger, "check-rows")
    tours.large(flagger, "check-rows")
    row.get_by_placeholder("哪里不对（可不写）").fill("是我自摸的")
    row.get_by_role("button", name="标为有误").click()
    expect(flagger.locator("#flags")).to_contain_text("第19局有误")
    table.no_refusal("flag")
    banner = laowang.locator("#flags .flag-banner")

    def flag_banner():  # 老王's phone, once his own check is in
        expect(banner).to_contain_text(f"第19局有误 · {seated[fixed_winner]}：「是我自摸的」")
        shot(laowang, "whole-evening-flag")
        snap(laowang, "flag-banner")
        tours.axe(laowang, "flag-banner")

    def whole_list():  # 小李 reads every hand's row, each with his ✓
        xiaoli.reload()
        snap(xiaoli, "game-after-checks")
        xiaoli.goto(url + "?page=1")  # the whole list
        rows = {row["id"]: row for row in tours.large(xiaoli, "game")}
        # the folded rows, each hand's people by name in the evening's order, beside whole amounts
        assert len(rows) == 21
        assert rows["hand-2"]["names"] == PEOPLE[:4]
        assert rows["hand-9"]["names"] == []  # the seating
        assert rows["hand-10"]["names"] == seated
        assert all(row["seen"] for row in rows.values()), rows

    def big_banner():
        expect(ahua.locator("#flags .flag-banner")).to_be_visible()
        tours.big(ahua, "flag-banner", keep=True)  # the game page in 大字: tiles, banner, every row open

    meanwhile = {"老王": flag_banner, "小李": whole_list, "阿华": big_banner}
    for name, page in phones.items():
        page.locator(".check-up-to button").click()
        tapped = time.monotonic()
        expect(page.locator("#flash")).to_contain_text("已核对")
        table.no_refusal("check")
        if name in meanwhile:  # what this phone's person looks at next
            meanwhile[name]()
        time.sleep(max(0.0, 1.2 - (time.monotonic() - tapped)))  # the next person a second or so later
    assert HandCheck.objects.filter(verdict="wrong").count() == 1
    assert HandCheck.objects.filter(person="大刘").count() == 8  # the hands he played

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
    snap(laowang, "together-invalid-bet")
    tours.axe(laowang, "together")
    tours.large(laowang, "together", SELECTS_CUT)
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

    # before 老王 settles, 阿华 and 小李 look at 结算 with a fee on their own phones
    ahua.goto(url + "settle")
    tours.big(ahua, "settle", keep=True)
    ahua.goto(url + SETTLE_PREVIEW)
    tours.big(ahua, "settle-preview")
    xiaoli.goto(url + SETTLE_PREVIEW)
    tours.large(xiaoli, "settle-preview")
    tours.whole(xiaoli, "settle-preview", xiaoli.get_by_role("link", name="返回记分"))

    # settle at 0.5 元 a point, a 台费 of 20 元, 抹零, together with last week's unpaid transfers
    laowang.get_by_role("link", name="结算", exact=True).click()
    laowang.locator("label[for=rate1]").click()
    laowang.fill("#id_fee_yuan", "20")
    laowang.locator("label[for=round-yuan]").click()
    laowang.get_by_role("button", name="预览").click()
    expect(laowang.locator("#settle-preview")).to_contain_text("抹零")
    tours.axe(laowang, "settle-preview")
    laowang.get_by_role("button", name="结束并结算").click()
    table.no_refusal("settle")
    carry = laowang.locator("#carry")
    expect(carry).to_contain_text("连同今晚的一起算，只要这几笔")
    carry.get_by_role("button", name="连同以前没付的一起结清").click()
    expect(laowang.locator(".settle-up")).to_be_visible()
    table.no_refusal("carry-over")
    shot(laowang, "whole-evening-settled")
    ahua.goto(url + "settle")
    tours.big(ahua, "settled")

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
    tours.axe(payer_phone, "paycode")
    tours.large(payer_phone, "paycode")
    table.no_refusal("the end")

    # after the evening: the 牌友圈, the history and the stats on three phones
    group_url = f"{server}/group/{group.edit_token}/"
    for name, address in (("group", group_url), ("history", server + "/history"), ("stats", server + "/stats")):
        ahua.goto(address)
        tours.big(ahua, name, keep=name == "group")
    aming.goto(group_url)
    tours.whole(aming, "group", aming.locator("#standings .person-link"))
    for name, address in (("history", "/history"), ("history-archived", "/history?archived=1")):
        xiaoli.goto(server + address)
        tours.axe(xiaoli, name)
    xiaoli.goto(server + "/stats")
    tours.axe(xiaoli, "stats")
    tours.large(xiaoli, "stats", letters=False)
    expect(xiaoli.locator(".stats-player")).to_have_count(5)  # this phone's players, 阿明 among them
    xiaoli.goto(server + "/")
    tours.axe(xiaoli, "home")
    tours.large(xiaoli, "home", letters=False)
    xiaoli.goto(server + "/new")
    tours.large(xiaoli, "new-game", letters=False)
    table.no_refusal("after")

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
    # every tour made, as the tests that left them to this evening expect, and none found anything
    assert tours.toured == TOURED
    assert ON_THE_WHOLE_EVENING <= {name for check, name in TOURED if check in ("axe", "big")}
    assert tours.found == {}, json.dumps(tours.found, ensure_ascii=False, indent=1)

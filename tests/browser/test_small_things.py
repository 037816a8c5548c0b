"""At 390×844: the agreed length's question at the top of the game page until 接着打; 撤销上一局
small and apart from 流局; the 谁放铳 step after 七对子; the payer's settle page with each payee's
code once (and how tall it is); a group game's 收款码 offered to the group; the 牌友圈 page's line
without someone who played no hand. What each says is in the Django-client tests."""

import pytest
from playwright.sync_api import expect

from scoring import services
from scoring.models import Game, Group, Hand, PayCode
from scoring.replay import build, store
from scoring.rulesets.yiwu.engine import Rules
from tests.browser.test_seating_evening import fits, zimo
from tests.helpers import SETTLE_HANDS
from tests.settle.test_it_paycodes import WECHAT, screenshot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NAMES = ["老王", "小李", "阿华", "大刘"]


def test_the_agreed_lengths_end_is_asked_at_the_top_until_play_on(live_server, phone, shot):
    game = Game.objects.create(players=NAMES, rules=Rules().to_dict(), round_length=1)
    for winner in (1, 2, 3, 0):
        zimo(game, winner)
    phone.goto(f"{live_server.url}/g/{game.edit_token}/")
    asked = phone.locator(".round-question")
    expect(asked).to_contain_text("1 圈打完了：换位、结算，还是接着打？")
    box = asked.bounding_box()
    assert box["y"] + box["height"] < 844  # in the first screen, above the totals
    assert box["y"] < phone.locator(".tile").first.bounding_box()["y"]
    for name in ("换位", "结算", "接着打"):
        assert (
            asked.get_by_role("link", name=name).or_(asked.get_by_role("button", name=name)).bounding_box()["height"]
            >= 44
        )
    fits(phone)
    shot(phone, "round-question")
    other = phone.context.browser.new_context(viewport={"width": 390, "height": 844}, locale="zh-CN").new_page()
    other.goto(f"{live_server.url}/g/{game.view_token}/")
    expect(other.locator(".round-question")).to_contain_text("1 圈打完了")
    asked.get_by_role("button", name="接着打").click()
    expect(phone.locator(".alert-success")).to_contain_text("接着打：共 2 圈。")
    expect(phone.locator(".round-question")).to_have_count(0)
    expect(phone.locator(".round-label")).to_contain_text("共 2 圈")
    expect(other.locator(".round-question")).to_have_count(0, timeout=10_000)  # the poll takes it away
    shot(phone, "round-question-answered")


def test_undo_is_small_and_apart_from_the_outcomes(live_server, phone, shot):
    game = Game.objects.create(players=NAMES, rules=Rules().to_dict())
    zimo(game, 0)
    phone.goto(f"{live_server.url}/g/{game.edit_token}/")
    undo = phone.get_by_role("link", name="撤销上一局")
    draw = phone.get_by_role("link", name="流局", exact=True)
    u, d = undo.bounding_box(), draw.bounding_box()
    assert u["y"] > d["y"] + d["height"] + 40  # rows below 流局, not beside it
    assert u["width"] < d["width"]
    assert u["height"] >= 44
    fits(phone)
    shot(phone, "game-undo-apart")
    phone.goto(f"{live_server.url}/g/{game.edit_token}/record?outcome=win&winner=1&win_type=qidui")
    expect(phone.locator(".choices a").first).to_contain_text("放铳")
    fits(phone)
    shot(phone, "discarder-after-qidui")


def test_the_payers_settle_page_shows_each_payees_code_once(live_server, phone, shot):
    group = Group.objects.create(name="周五老地方", roster=list(NAMES))
    game = Game.objects.create(players=list(NAMES), rules=Rules().to_dict(), group=group)
    Hand.objects.bulk_create(Hand(game=game, seq=n, entry=e) for n, e in enumerate(SETTLE_HANDS, start=1))
    store(game, build(game))
    phone.goto(f"{live_server.url}/g/{game.edit_token}/")
    phone.locator("form[action$='/me/3'] button").click()  # this phone is 大刘
    expect(phone.locator("form[action$='/me/3'] button.btn-dark")).to_have_count(1)
    services.finish_game(game=game, rate_fen=100, fee_fen=0, fee_mode="equal", fee_payee=0)
    services.add_paycode(name="老王", kind="wechat", address=WECHAT, game=game)
    phone.goto(f"{live_server.url}/g/{game.edit_token}/settle")
    expect(phone.locator(".transfers .paycode-image")).to_have_count(1)
    expect(phone.locator(".transfers li").first).to_contain_text("大刘")
    height = phone.evaluate("document.documentElement.scrollHeight")
    print(f"settle page height: {height} px")
    assert height < 3000
    expect(phone.locator(".for-group")).to_contain_text("也存到牌友圈「周五老地方」，以后每一场都用")
    fits(phone)
    phone.locator("#paycodes summary").click()
    shot(phone, "settle-code-once")
    phone.locator("#paycodes select[name=name]").select_option("小李")
    look_alike = "https://qr.alıpay.com/fkx13673gkz2fi4kwuvzjb9"
    phone.locator("#paycodes input[type=file]").set_input_files(
        {"name": "x.png", "mimeType": "image/png", "buffer": screenshot(look_alike)}
    )
    phone.get_by_role("button", name="保存收款码").click()
    expect(phone.locator(".alert-warning")).to_contain_text("冒充英文字母")
    assert not PayCode.objects.filter(name="小李").exists()
    shot(phone, "settle-look-alike-refused")


def test_the_group_page_lists_no_one_who_played_no_hand(live_server, phone, shot):
    group = Group.objects.create(name="周五老地方", roster=list(NAMES))
    game = Game.objects.create(players=list(NAMES), rules=Rules().to_dict(), group=group)
    hands = [
        {"outcome": "win", "winner": 0, "win_type": "zimo"},
        {"outcome": "seating", "players": ["老王", "小李", "阿华", "老周"]},
        {"outcome": "seating", "players": ["老王", "小李", "阿华", "小陈"]},
        {"outcome": "win", "winner": 3, "win_type": "zimo"},
    ]
    Hand.objects.bulk_create(Hand(game=game, seq=n, entry=e) for n, e in enumerate(hands, start=1))
    store(game, build(game))
    phone.goto(f"{live_server.url}/group/{group.edit_token}/")
    line = phone.locator("div.standings").first
    expect(line).to_contain_text("小陈")
    expect(line).not_to_contain_text("老周")
    fits(phone)
    shot(phone, "group-line-no-lao-zhou")
    phone.goto(f"{live_server.url}/g/{game.edit_token}/")
    assert phone.title().startswith("老王 · 小李 · 阿华 · 小陈")
    shot(phone, "game-title-after-seating")

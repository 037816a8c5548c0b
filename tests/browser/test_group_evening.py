"""A 牌友圈 evening on a phone: open the group, 再来一局, play, settle together with last week's
unpaid transfers, and tick the netted ones 已付 until everything is paid; axe finds nothing
critical or serious on any of its pages. Tonight's two hands only repeat taps
tests/browser/evenings/yiwu.py makes: they are recorded through the write every hand takes
before 结算 is tapped; tests/groups/test_it_groups.py asserts what this evening's pages say."""

from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from scoring import services
from scoring.models import Game, Group, SettleUp, Transfer
from scoring.rulesets.yiwu.engine import Rules
from tests.browser.conftest import PHONE
from tests.browser.test_accessibility import AXE, violations
from tests.browser.tours import audit
from tests.helpers import SETTLE_HANDS

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NAMES = ["老王", "小李", "阿华", "大刘"]


def last_week(group: Group) -> Game:
    """Last week's game, settled at 1 元 a point and not paid: 阿华 → 老王 19 元, 大刘 → 老王
    15 元, 大刘 → 小李 4 元."""
    game = Game.objects.create(players=NAMES, rules=Rules().to_dict(), group=group)
    for seq, entry in enumerate(SETTLE_HANDS, start=1):
        services.record_hand(game=game, entry=entry, fix=None, next_seq=seq, form_token="", entered_by="")
    services.finish_game(game=game, rate_fen=100, fee_fen=0, fee_mode="equal", fee_payee=0)
    Game.objects.filter(pk=game.pk).update(created_at=timezone.now() - timedelta(days=7))
    return game


@pytest.fixture
def audited_phone(browser):
    """A fresh phone (390×844, Chinese) whose pages axe may audit: axe is in every page before the
    page's own scripts, under the site's CSP (as in test_accessibility.py)."""
    context = browser.new_context(viewport=PHONE, locale="zh-CN")
    context.add_init_script(path=str(AXE))
    context.set_default_timeout(10_000)
    yield context.new_page()
    context.close()


def test_a_group_evening(live_server, audited_phone, shot):
    group = Group.objects.create(name="周五老地方", roster=NAMES)
    earlier = last_week(group)
    page = audited_phone
    taps: list[str] = []  # every tap target under 44×44 px (tests/browser/tours.py)
    page.goto(f"{live_server.url}/group/{group.edit_token}/")
    expect(page.locator("#owed")).to_contain_text("各场没付的转账")
    shot(page, "group")
    assert violations(page) == []
    taps += audit(page, page.url.rsplit("/", 2)[-2])

    page.get_by_role("button", name="再来一局", exact=True).click()
    expect(page.get_by_text("记一局：谁胡了？")).to_be_visible()
    tonight = Game.objects.latest("pk")
    assert page.url.endswith(f"/g/{tonight.edit_token}/")
    assert (tonight.group, tonight.players, tonight.rules) == (group, NAMES, earlier.rules)
    # tonight: 阿华 自摸, then 大刘 平胡 off 小李 (another phone, for this one: 结算 fetches them)
    tonight_hands = [
        {"outcome": "win", "winner": 2, "win_type": "zimo"},
        {"outcome": "win", "winner": 3, "win_type": "pinghu", "discarder": 1},
    ]
    for seq, entry in enumerate(tonight_hands, start=1):
        services.record_hand(game=tonight, entry=entry, fix=None, next_seq=seq, form_token="", entered_by="")
    shot(page, "group-game")

    page.get_by_role("link", name="结算", exact=True).click()
    expect(page.locator(".earlier-note")).to_contain_text("以前还有 3 笔没付")
    page.locator("label[for=rate1]").click()  # 0.5 元 a point
    page.get_by_role("button", name="预览").click()
    page.get_by_role("button", name="结束并结算").click()
    carry = page.locator("#carry")
    expect(carry).to_contain_text("连同今晚的一起算，只要这几笔")
    shot(page, "group-settle-offer")
    assert violations(page) == []
    taps += audit(page, page.url.rsplit("/", 2)[-2])
    carry.get_by_role("button", name="连同以前没付的一起结清").click()
    expect(page.locator(".settle-up")).to_be_visible()
    settle_up = SettleUp.objects.get()
    netted = [(t.payer, t.payee, t.amount_fen) for t in settle_up.transfers.all()]
    assert sum(amount for *_, amount in netted) > 0
    assert len(netted) < settle_up.parts.count()  # fewer transfers than the six it took in
    rows = page.locator(".settle-up .transfers li")
    assert rows.count() == len(netted)
    expect(page.locator(".transfers .merged")).to_have_count(tonight.settlement.transfers.count())
    shot(page, "group-settled-together")
    assert violations(page) == []
    taps += audit(page, page.url.rsplit("/", 2)[-2])
    for n in range(len(netted)):
        rows.nth(n).get_by_role("button", name="标为已付").click()
        expect(page.locator(".settle-up .transfers li").nth(n)).to_contain_text("已付 ✓")
    assert not Transfer.objects.filter(paid_at__isnull=True).exists()  # last week's three and tonight's

    page.get_by_role("link", name="周五老地方").first.click()
    expect(page.locator("#owed")).to_contain_text("都付清了。")
    shot(page, "group-paid")
    page.locator("#standings .person-link").first.click()
    expect(page.locator("#evenings .evening")).to_have_count(2)
    shot(page, "group-person")
    assert violations(page) == []
    taps += audit(page, page.url.rsplit("/", 2)[-2])
    assert taps == [], "\n".join(taps)

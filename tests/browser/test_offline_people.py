"""Offline hands that double or change (docs/offline.md "Held"), on phones at 390×844 with
Playwright's offline mode: the same hand kept on two phones is asked about, not recorded twice; a
hand that scores differently now than the phone showed is held with each person's amount before →
after, to confirm, change or drop; one that scores the same goes in by itself."""

import re

import pytest
from django.test import Client
from playwright.sync_api import expect

from scoring.models import Game, Hand
from scoring.rulesets.yiwu.engine import Rules
from tests.browser.helpers import form_ready
from tests.browser.looks import audited
from tests.helpers import game_url, record

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
PHONE = {"width": 390, "height": 844}
NAMES = ["老王", "小李", "阿华", "大刘"]


def new_game() -> Game:
    return Game.objects.create(players=NAMES, rules=Rules().to_dict())


def phone_of(browser, live_server, game: Game, seat: int):
    """A phone at the table, 我是 the person in ``seat``, on the game page."""
    context = browser.new_context(viewport=PHONE, locale="zh-CN")
    context.set_default_timeout(10_000)
    page = context.new_page()
    page.goto(f"{live_server.url}{game_url(game)}")
    page.locator(f"form[action='{game_url(game)}me/{seat}'] button").click()
    expect(page.locator(f"form[action='{game_url(game)}me/{seat}'] button.btn-dark")).to_be_visible()
    return page


def keep_offline(page, winner: str) -> None:
    """winner → 自摸 → the preview, then the Wi-Fi drops and 确认 keeps it on the phone."""
    page.get_by_role("link", name=winner, exact=True).click()
    page.get_by_role("link", name=re.compile("^自摸")).click()
    form_ready(page)
    page.context.set_offline(True)
    page.locator("#preview-panel").get_by_role("button", name="确认记录").click()
    expect(page.locator("#flash")).to_contain_text("这一局已存在这台手机上")  # on the game page, at once
    expect(page.locator("#hands .pending-row .title").last).to_contain_text(winner)


def back_online(page) -> None:
    page.context.set_offline(False)


def card(page):
    return page.locator("#held-hands .held-hand")


def hands(game: Game) -> list[Hand]:
    return list(Hand.objects.filter(game=game).order_by("seq"))


def test_the_same_hand_kept_on_three_phones_is_recorded_once_and_each_answer_applies_once(browser, live_server, shot):
    game = new_game()
    laowang, xiaoli, daliu = (phone_of(browser, live_server, game, seat) for seat in (0, 1, 3))
    for page in (laowang, xiaoli, daliu):
        keep_offline(page, "阿华")  # the Wi-Fi drops: each phone keeps 阿华 自摸

    back_online(xiaoli)
    expect(xiaoli.locator("#flash")).to_have_text("存在这台手机上的一局已记上，是第1局。")
    assert len(hands(game)) == 1
    back_online(laowang)
    back_online(daliu)
    question = "小李已经记了第1局：阿华 自摸 ×2。是同一局吗？"
    for page in (laowang, daliu):
        expect(card(page).locator(".question")).to_have_text(question)  # on the game page, no toast to fade
        expect(page.locator("#offline-banner")).to_have_text("1 局待同步")
        expect(page.locator("#hands .pending-row .pending-badge")).to_have_text("等你确认")
    expect(card(laowang).get_by_role("button", name="是，丢掉我的")).to_be_visible()
    expect(card(laowang).get_by_role("button", name="不是，再记一局")).to_be_visible()
    expect(card(laowang)).to_contain_text("不是同一局的话，记为第2局：")
    assert laowang.evaluate("document.activeElement.id") == "held-question"
    assert len(hands(game)) == 1  # nothing recorded by itself
    expect(laowang.locator("#hands details.hand-row")).to_have_count(1)
    shot(laowang, "offline-same-hand-question")
    assert audited(laowang) == []  # the card asking, in Chinese (in English: the test at the end)

    card(laowang).get_by_role("button", name="不是，再记一局").click()  # 老王 answers first
    expect(laowang.locator("#flash")).to_have_text("这一局存在你手机上时，小李记了第1局；你记的已排在第2局。")
    expect(laowang.locator("#held-hands")).to_have_count(0)
    expect(laowang.locator("#offline-banner")).to_have_count(0)
    expect(laowang.locator("#hands details.hand-row")).to_have_count(2)
    assert [h.entered_by for h in hands(game)] == ["小李", "老王"]

    card(daliu).get_by_role("button", name="不是，再记一局").click()  # 大刘's 不是 was about 第1局 only
    expect(card(daliu).locator(".question")).to_have_text("老王已经记了第2局：阿华 自摸 ×2。是同一局吗？")
    assert len(hands(game)) == 2
    shot(daliu, "offline-same-hand-asked-again")
    card(daliu).get_by_role("button", name="是，丢掉我的").click()
    expect(daliu.locator("#flash")).to_have_text("丢掉了你离线记的这一局，第2局照旧。")
    expect(daliu.locator("#held-hands")).to_have_count(0)
    assert daliu.evaluate("localStorage.length") == 0
    assert len(hands(game)) == 2
    for page in (laowang, xiaoli, daliu):
        page.context.close()


def test_a_dealer_win_kept_offline_that_another_hand_made_a_non_dealer_win_is_shown_before_confirming(
    browser, live_server, shot
):
    game = new_game()
    laowang = phone_of(browser, live_server, game, 0)
    keep_offline(laowang, "老王")  # 老王 deals: his 自摸 is +42
    xiaoli = Client()
    xiaoli.post(game_url(game) + "me/1")
    record(xiaoli, game, {"outcome": "win", "winner": 1, "win_type": "zimo"})  # the deal passes to 小李

    back_online(laowang)
    held = card(laowang)
    expect(held.locator(".question")).to_have_text("存在这台手机上的这一局，现在算出来不一样了")
    expect(held.locator(".held-summary")).to_have_text("老王 记下时按老王坐庄：+42；排在第1局后：+34")
    rows = held.locator(".held-amounts tbody tr")
    expect(rows).to_have_count(4)
    expect(rows.nth(0)).to_have_text(re.compile(r"老王\s*\+42\s*→\s*\+34"))
    expect(rows.nth(2)).to_have_text(re.compile(r"阿华\s*−14\s*→\s*−10"))
    expect(held.get_by_role("link", name="修改")).to_be_visible()
    assert len(hands(game)) == 1
    expect(laowang.locator("#hands details.hand-row")).to_have_count(1)
    shot(laowang, "offline-changed-hand-before-after")
    assert audited(laowang) == []  # the card of a changed hand, in Chinese (in English: the test at the end)

    held.get_by_role("button", name="确认，记为第2局").click()
    expect(laowang.locator("#flash")).to_have_text("这一局存在你手机上时，小李记了第1局；你记的已排在第2局。")
    expect(laowang.locator("#held-hands")).to_have_count(0)
    expect(laowang.locator("#hands details.hand-row")).to_have_count(2)
    assert hands(game)[1].result["net"] == [34, -14, -10, -10]  # as the card said
    laowang.context.close()


def test_a_changed_hand_is_dropped_in_two_taps_or_opened_to_change(browser, live_server):
    game = new_game()
    laowang = phone_of(browser, live_server, game, 0)
    keep_offline(laowang, "老王")
    record(Client(), game, {"outcome": "win", "winner": 1, "win_type": "zimo"})
    back_online(laowang)
    drop = card(laowang).get_by_role("button", name="丢掉")
    drop.click()
    expect(card(laowang).get_by_role("button", name="确认丢掉")).to_be_visible()
    assert laowang.evaluate("localStorage.length") == 1  # one tap drops nothing
    card(laowang).get_by_role("button", name="确认丢掉").click()
    expect(laowang.locator("#flash")).to_have_text("丢掉了你离线记的这一局。")
    expect(laowang.locator("#held-hands")).to_have_count(0)
    assert len(hands(game)) == 1

    laowang.goto(f"{live_server.url}{game_url(game)}")
    keep_offline(laowang, "老王")  # 小李 deals now: 老王 自摸 +34 as the preview shows
    record(Client(), game, {"outcome": "win", "winner": 2, "win_type": "zimo"})  # the deal passes to 阿华
    back_online(laowang)
    card(laowang).get_by_role("link", name="修改").click()  # the entry with its answers, at the table now
    expect(laowang.locator("#preview-panel").get_by_role("button", name="确认记录")).to_be_visible()
    expect(laowang).to_have_url(re.compile(r"/record\?.*winner=0"))
    assert laowang.evaluate("localStorage.length") == 0  # what is confirmed there is a new hand
    assert len(hands(game)) == 2
    laowang.context.close()


def test_a_kept_hand_that_scores_the_same_goes_in_by_itself_after_the_hand_recorded_meanwhile(
    browser, live_server, shot
):
    game = new_game()
    laowang = phone_of(browser, live_server, game, 0)
    keep_offline(laowang, "老王")
    xiaoli = Client()
    xiaoli.post(game_url(game) + "me/1")
    record(xiaoli, game, {"outcome": "draw"})  # a 流局: 老王 still deals, his 自摸 still +42
    back_online(laowang)
    expect(laowang.locator("#flash")).to_have_text("这一局存在你手机上时，小李记了第1局；你记的已排在第2局。")
    expect(laowang.locator("#hands details.hand-row")).to_have_count(2)
    expect(laowang.locator("#held-hands")).to_have_count(0)
    assert hands(game)[1].result["net"] == [42, -14, -14, -14]
    laowang.context.close()


def test_a_hand_kept_from_the_questions_is_held_when_the_deal_passed(browser, live_server, shot):
    """Kept from the record flow's links with no network (its preview never loaded): its amounts
    are those at the table the bundle of steps was made at."""
    game = new_game()
    laowang = phone_of(browser, live_server, game, 0)
    laowang.wait_for_function(
        "() => document.documentElement.dataset.stepsReady === document.querySelector('[data-steps]').dataset.version"
    )
    laowang.context.set_offline(True)
    laowang.get_by_role("link", name="老王", exact=True).click()  # a question sent ahead
    laowang.get_by_role("link", name=re.compile("^自摸")).click()
    screen = laowang.locator(".offline-confirm-screen")
    expect(screen.locator("[data-offline-facts]")).to_have_text("老王 自摸 ×2")
    screen.get_by_role("button", name="确认记录").click()
    expect(laowang.locator("#hands .pending-row")).to_have_count(1)
    record(Client(), game, {"outcome": "win", "winner": 1, "win_type": "zimo"})
    back_online(laowang)
    expect(card(laowang).locator(".held-summary")).to_have_text("老王 记下时按老王坐庄：+42；排在第1局后：+34")
    expect(laowang.locator("#hands details.hand-row")).to_have_count(1)  # the game page polled the hand meanwhile
    expect(laowang.locator("#flash .offline-said")).to_have_count(0)  # 「已存在这台手机上」 is old news
    shot(laowang, "offline-link-hand-before-after")
    assert len(hands(game)) == 1
    laowang.context.close()


@pytest.mark.parametrize("language", ["en"])
def test_both_cards_have_no_serious_accessibility_problem_and_nothing_covers_their_buttons(
    browser, live_server, shot, language
):
    """axe-core and the covered-button check of tests/browser/test_accessibility.py on the game page
    with each card, in English (the card is written in the language of the phone that sent the
    hand, and drawn again from the phone's storage on a reload). In Chinese the tests above audit
    each card where they show it."""
    from tests.browser.test_accessibility import AXE, covered, violations

    game = new_game()
    asked, changed = phone_of(browser, live_server, game, 0), phone_of(browser, live_server, game, 3)
    keep_offline(asked, "阿华")
    keep_offline(changed, "老王")
    record(Client(), game, {"outcome": "win", "winner": 2, "win_type": "zimo"})  # 阿华 自摸: the deal passes
    found = {}
    for page, kind in ((asked, "same"), (changed, "changed")):
        page.context.add_cookies([{"name": "django_language", "value": language, "url": live_server.url}])
        page.context.add_init_script(path=str(AXE))
        back_online(page)
        expect(card(page)).to_have_attribute("data-held", kind)
        page.goto(f"{live_server.url}{game_url(game)}")  # the page in the language too, the card from storage
        expect(card(page)).to_have_attribute("data-held", kind)
        if problems := violations(page) + covered(page):
            found[kind] = problems
        if language == "en":
            shot(page, f"offline-{kind}-card-en")
        page.context.close()
    assert found == {}, found
    assert len(hands(game)) == 1

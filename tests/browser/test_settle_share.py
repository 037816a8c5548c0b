"""At 390×844: the settle-up's share text with 复制/分享, invite links shown whole, the stats table
without sideways scrolling, and the new-game names as placeholders with a 自定 base."""

import pytest
from playwright.sync_api import expect

from scoring.models import Game
from tests.factories import seeded_game

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

FAKE_SHARE = (
    "window.__shared = []; navigator.share = function (data) { window.__shared.push(data); return Promise.resolve(); };"
)


def test_settled_share_text_copies_and_shares_in_one_tap(live_server, browser, shot):
    game = seeded_game(12)
    context = browser.new_context(
        viewport={"width": 390, "height": 844}, locale="zh-CN", permissions=["clipboard-read", "clipboard-write"]
    )
    context.add_init_script(FAKE_SHARE)
    page = context.new_page()
    page.goto(f"{live_server.url}/g/{game.edit_token}/settle")
    page.locator("label[for=rate1]").click()  # 每点 0.5 元
    page.fill("#id_fee_yuan", "40")
    page.get_by_role("button", name="预览").click()
    expect(page.locator(".fee-advance")).to_contain_text("垫付台费 40 元（已算入）")
    # the fee's change and the tap each asked for a preview: the last one's swap could replace the
    # button under the tap, so tap once both have landed
    expect(page.locator(".htmx-request")).to_have_count(0)
    page.get_by_role("button", name="结束并结算").click()
    share = page.locator("#share-text")
    expect(page.locator(".transfers")).to_be_visible()
    text = share.input_value()
    assert "每点 0.5 元 · 台费 40 元" in text
    assert "→" in text
    share_button = page.get_by_role("button", name="分享")
    expect(share_button).to_be_visible()
    box = share_button.bounding_box()
    assert box["height"] >= 38
    share_button.click()
    assert page.evaluate("window.__shared")[0]["text"] == text
    page.get_by_role("button", name="复制").click()
    expect(page.get_by_role("button", name="已复制")).to_be_visible()
    assert page.evaluate("navigator.clipboard.readText()") == text  # what was said to be copied was
    shot(page, "settle-share")
    context.close()


def test_no_share_button_where_the_phone_cannot_share(live_server, phone):
    game = seeded_game(3)
    phone.add_init_script(
        "delete Navigator.prototype.share; delete Navigator.prototype.canShare;"
    )  # a phone without it
    phone.goto(f"{live_server.url}/g/{game.edit_token}/summary")
    assert phone.evaluate("typeof navigator.share") == "undefined"
    expect(phone.locator("[data-share]")).to_be_hidden()
    expect(phone.get_by_role("button", name="复制")).to_be_visible()


def test_invite_links_are_shown_whole_with_copy_and_share(live_server, browser, shot):
    game = seeded_game(1)
    context = browser.new_context(viewport={"width": 390, "height": 844}, locale="zh-CN")
    context.add_init_script(FAKE_SHARE)
    page = context.new_page()
    page.goto(f"{live_server.url}/g/{game.edit_token}/share")
    link = page.locator("#link-edit")
    expect(link).to_have_text(f"{live_server.url}/g/{game.edit_token}/")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    assert link.evaluate("el => el.scrollWidth <= el.clientWidth + 1")
    page.locator("#link-view ~ div [data-share], #link-view + div [data-share]").first.click()
    assert page.evaluate("window.__shared")[0] == {"url": f"{live_server.url}/g/{game.view_token}/"}
    shot(page, "share-links")
    context.close()


def test_the_stats_table_fits_the_phone(live_server, phone, shot):
    game = seeded_game(30)
    Game.objects.filter(pk=game.pk).update(players=["欧阳大哥", "小李", "阿华", "大刘"])
    phone.goto(f"{live_server.url}/g/{game.edit_token}/")
    phone.goto(f"{live_server.url}/stats")
    table = phone.locator(".stats")
    expect(table).to_be_visible()
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    assert table.evaluate("el => el.getBoundingClientRect().right") <= 390
    shot(phone, "stats-390")


def test_new_game_names_are_placeholders_and_a_custom_base(live_server, phone, shot):
    phone.goto(f"{live_server.url}/new")
    name = phone.locator("#id_name0")
    expect(name).to_have_value("")
    expect(name).to_have_attribute("placeholder", "东家")
    phone.fill("#id_name0", "张哥")
    phone.fill("#id_base_dealer", "11")  # typing a base picks 自定
    phone.fill("#id_base_other", "6")
    expect(phone.locator("#preset-custom")).to_be_checked()
    shot(phone, "new-game-custom-base")
    phone.get_by_role("button", name="开始").click()
    phone.wait_for_url("**/g/**")
    game = Game.objects.get()
    assert game.players == ["张哥", "南家", "西家", "北家"]
    assert (game.rules["base_dealer"], game.rules["base_other"]) == (11, 6)

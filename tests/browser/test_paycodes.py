"""At 390×844: two people's 收款码 added through the settle page's form from screenshots, then
drawn under the transfers to them, readable from the screen as shown; one added on the group
page for every evening. What each refusal says is tests/settle/test_it_paycodes.py's."""

import io

import pytest
import zxingcpp
from PIL import Image
from playwright.sync_api import expect

from scoring.models import Group
from tests.settle.test_it_paycodes import ALIPAY, WECHAT, screenshot, settled_game

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def add_code(page, name: str, data: bytes, filename: str) -> None:
    form = page.locator(".paycode-form")
    if not form.is_visible():
        page.locator("#paycodes summary").click()
    form.locator("select[name=name]").select_option(name)
    form.locator("input[type=file]").set_input_files({"name": filename, "mimeType": "image/png", "buffer": data})
    form.get_by_role("button", name="保存收款码").click()


def test_codes_added_on_the_settle_page_are_shown_large_under_their_transfers(live_server, phone, shot):
    group = Group.objects.create(name="周五老地方", roster=["老王", "小李", "阿华", "大刘"])
    game = settled_game(group)
    phone.goto(f"{live_server.url}/g/{game.edit_token}/settle")
    add_code(phone, "老王", screenshot(WECHAT), "wechat.png")
    expect(phone.locator(".alert-success").first).to_contain_text("已保存老王的微信收款码。")
    add_code(phone, "小李", screenshot(ALIPAY, "JPEG"), "alipay.jpg")
    expect(phone.locator(".alert-success").first).to_contain_text("已保存小李的支付宝收款码。")

    images = phone.locator(".transfers .paycode-image")
    expect(images).to_have_count(2)  # each payee's code once: 老王's and 小李's
    expect(phone.locator(".transfers").get_by_text("长按识别二维码，付给老王").first).to_be_visible()
    expect(phone.locator(".transfers").get_by_text("先保存图片，再用支付宝扫一扫→相册")).to_be_visible()
    for n in range(images.count()):
        image = images.nth(n)
        image.scroll_into_view_if_needed()
        assert image.evaluate("i => i.complete && i.naturalWidth > 0")
        assert image.bounding_box()["width"] >= 250  # large enough to read from the screen
    first = Image.open(io.BytesIO(images.first.screenshot()))  # as the screen shows it
    assert [b.text for b in zxingcpp.read_barcodes(first)] == [WECHAT]
    save = phone.get_by_role("link", name="保存图片")
    assert save.get_attribute("download")
    assert save.bounding_box()["height"] >= 44
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390  # nothing scrolls sideways
    shot(phone, "settle-paycodes")

    phone.goto(f"{live_server.url}/group/{group.edit_token}/")
    add_code(phone, "阿华", screenshot("wxp://f2f1OSloSEKlcOQdQKHKEIJqmVwfMgwzN9KK"), "ahua.png")
    expect(phone.locator(".alert-success")).to_contain_text("已保存阿华的微信收款码。")
    expect(phone.locator(".paycode-list")).to_contain_text("阿华 · 微信")
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    shot(phone, "group-paycodes")

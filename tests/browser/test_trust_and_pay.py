"""An evening on four phones at 390×844 where trust and paying happen in the app: two people check
each hand, one flags a hand 有误 and it is fixed and checked again, settle names the hands the
others never checked, two 收款码 are added from screenshots (a web link and a photo without a QR
refused on the way), and the payer's phone shows each payee's code as the decoder reads it back."""

import io
import re

import pytest
import zxingcpp
from PIL import Image
from playwright.sync_api import expect

from scoring.models import Game, HandCheck, PayCode, Transfer
from tests.browser.helpers import confirm, form_ready
from tests.browser.test_paycodes import add_code
from tests.settle.test_it_paycodes import ALIPAY, WECHAT, screenshot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
PHONE = {"width": 390, "height": 844}
NAMES = ["老王", "小李", "阿华", "大刘"]


def tap(page, text: str) -> None:
    page.get_by_role("link", name=text, exact=True).first.click()


def check_all(page, number: int) -> None:
    """「到第N局都对」: one tap checks every hand the phone's person played and has not said anything to."""
    page.get_by_role("button", name=f"到第{number}局都对").click()
    expect(page.locator(".check-up-to")).to_have_count(0)  # the answer is on the page


def test_four_phones_check_each_hand_fix_a_flagged_one_and_pay_by_the_payees_codes(live_server, browser, shot):
    contexts = [browser.new_context(viewport=PHONE, locale="zh-CN") for _ in NAMES]
    phones = [context.new_page() for context in contexts]
    laowang, xiaoli, ahua, _daliu = phones
    laowang.set_default_timeout(10_000)
    laowang.goto(live_server.url + "/new")
    for seat, name in enumerate(NAMES):
        laowang.fill(f"#id_name{seat}", name)
    laowang.get_by_role("button", name="开始").click()
    expect(laowang.get_by_text("记一局：谁胡了？")).to_be_visible()
    game = Game.objects.get()
    for seat, page in enumerate(phones):
        page.set_default_timeout(10_000)
        page.goto(live_server.url + f"/g/{game.edit_token}/")
        page.locator(f"form[action$='/me/{seat}'] button").click()  # 我是
        expect(page.locator(f"form[action$='/me/{seat}'] button.btn-dark")).to_be_visible()

    # 老王's phone enters three hands: 老王 自摸, 老王 平胡 off 阿华 (really 小李 自摸), 大刘 自摸
    for winner, how in (("老王", "自摸 ×2"), ("老王", "阿华 放铳"), ("大刘", "自摸 ×2")):
        tap(laowang, winner)
        laowang.get_by_role("link", name=re.compile(how)).first.click()
        form_ready(laowang)
        confirm(laowang)
    check_all(laowang, 3)
    for seq in (1, 2, 3):
        expect(laowang.locator(f"#checks-{seq} .tally")).to_have_text("✓1/4")

    # 小李 flags hand 2 with what really happened, then checks the others with one tap
    xiaoli.reload()
    xiaoli.locator("#checks-2").get_by_text("有误…").click()
    xiaoli.locator("#checks-2").get_by_placeholder("哪里不对（可不写）").fill("是我自摸的")
    xiaoli.locator("#checks-2").get_by_role("button", name="标为有误").click()
    expect(xiaoli.locator("#checks-2 .check-flag")).to_contain_text("小李：「是我自摸的」")
    check_all(xiaoli, 3)
    assert HandCheck.objects.get(hand__seq=2, person="小李").verdict == "wrong"  # the one tap kept the flag
    banner = ahua.locator("#flags .flag-banner")
    expect(banner).to_contain_text("第2局有误 · 小李：「是我自摸的」", timeout=8_000)  # every phone, on its poll
    shot(ahua, "trust-flagged")

    # 老王 fixes hand 2 from the banner's 修改, through the same taps as recording it
    laowang.reload()
    laowang.locator("#flags .flag-banner").get_by_role("link", name="修改").click()
    expect(laowang).to_have_url(re.compile(r"/hand/2/edit"))  # not the game page's own 小李 (a new hand)
    tap(laowang, "小李")
    laowang.get_by_role("link", name=re.compile("自摸")).first.click()
    expect(laowang.locator(".preview")).to_contain_text("小李 自摸")
    form_ready(laowang)
    confirm(laowang)
    expect(laowang.locator("#flags .flag-banner")).to_have_count(0)  # the fix written
    expect(laowang.locator("#checks-2 .tally")).to_have_text("✓0/4")
    assert not HandCheck.objects.filter(hand__seq=2).exists()  # its amounts moved: its checks go
    # hand 3's amounts moved with hand 2 (小李 dealt it, not 老王): its checks went too
    assert not HandCheck.objects.filter(hand__seq=3).exists()
    check_all(laowang, 3)
    xiaoli.reload()
    check_all(xiaoli, 3)
    expect(xiaoli.locator("#checks-2 .tally")).to_have_text("✓2/4")
    assert set(HandCheck.objects.values_list("hand__seq", "person")) == {
        (seq, name) for seq in (1, 2, 3) for name in ("老王", "小李")
    }

    # settle: the hands 阿华 and 大刘 never checked are named before 结束并结算
    laowang.get_by_role("link", name="结算", exact=True).click()
    laowang.get_by_role("button", name="预览").click()
    note = laowang.locator(".not-checked")
    expect(note).to_contain_text("这些局还没有每个人都核对（仍可结算）")
    expect(note).to_contain_text("第1局")
    laowang.get_by_role("button", name="结束并结算").click()
    expect(laowang.locator(".transfers")).to_be_visible()

    # the payees add their codes; a web link and a photo without a QR are refused, nothing kept
    add_code(laowang, "老王", screenshot("https://example.com/pay"), "link.png")
    expect(laowang.locator(".alert-warning, .alert-danger").first).to_contain_text("不是微信或支付宝的个人收款码")
    add_code(laowang, "老王", screenshot(None), "photo.png")
    expect(laowang.locator(".alert-warning, .alert-danger").first).to_contain_text("图片里没有找到二维码")
    assert not PayCode.objects.exists()
    payees = {NAMES[t.payee] for t in Transfer.objects.all()}
    codes = {}
    for name, address, file in (("老王", WECHAT, "wechat.png"), ("小李", ALIPAY, "alipay.png")):
        if name in payees:
            add_code(laowang, name, screenshot(address), file)
            expect(laowang.locator(".alert-success")).to_contain_text(f"已保存{name}的")
            codes[name] = address
    assert codes, "someone is paid"

    # the payer's phone (阿华 lost; the view link is enough): each transfer to a payee with a code shows that code, read back the same
    ahua.goto(live_server.url + f"/g/{game.view_token}/settle")
    for transfer in Transfer.objects.filter(payee__in=[NAMES.index(n) for n in codes]):
        payee = NAMES[transfer.payee]
        item = ahua.locator(".transfers > li", has_text=f"{NAMES[transfer.payer]} → {payee}")
        image = item.locator(".paycode-image")
        image.scroll_into_view_if_needed()
        expect(image).to_be_visible()
        assert image.evaluate("i => i.complete && i.naturalWidth > 0")
        seen = Image.open(io.BytesIO(image.screenshot()))
        assert [b.text for b in zxingcpp.read_barcodes(seen)] == [codes[payee]]
    assert ahua.evaluate("document.documentElement.scrollWidth") <= 390
    shot(ahua, "trust-pay-payer")
    for context in contexts:
        context.close()

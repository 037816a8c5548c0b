"""晒图 at 390×844: settle a game, tap 「生成图片」, and the phone shows a real PNG of the evening
that can be long-pressed, downloaded or sent; the test reads the picture's pixels and keeps it
under tests/browser/screenshots/ for a person to look at."""

import base64
import json
import struct

import pytest
from playwright.sync_api import expect

from scoring.records.exports import import_game
from tests.browser.conftest import SCREENSHOTS
from tests.examples import HERE
from tests.factories import seeded_game

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# What the picture's pixels are: how many colours, and how much of it is not the cream ground.
INK = """(img) => {
  const canvas = document.createElement("canvas");
  canvas.width = img.naturalWidth; canvas.height = img.naturalHeight;
  const ctx = canvas.getContext("2d");
  ctx.drawImage(img, 0, 0);
  const data = ctx.getImageData(0, 0, canvas.width, canvas.height).data;
  const colours = new Set();
  let ink = 0;
  for (let i = 0; i < data.length; i += 4 * 7) {
    colours.add((data[i] << 16) | (data[i + 1] << 8) | data[i + 2]);
    if (data[i] < 200 || data[i + 1] < 200) ink++;
  }
  return {colours: colours.size, ink: ink / (data.length / 28)};
}"""


def _settle_and_picture(page, url: str, rate_label: str, name: str) -> bytes:
    page.goto(f"{url}/settle")
    page.locator(f"label[for={rate_label}]").click()
    page.get_by_role("button", name="预览").click()
    page.get_by_role("button", name="结束并结算").click()
    page.get_by_role("link", name="生成图片").click()
    expect(page.get_by_text("长按图片保存或发送")).to_be_visible()
    picture = page.locator("img[data-picture]")
    expect(picture).to_have_attribute("data-png", "1")
    src = picture.get_attribute("src")
    assert src.startswith("data:image/png;base64,")
    png = base64.b64decode(src.split(",", 1)[1])
    SCREENSHOTS.mkdir(exist_ok=True)
    (SCREENSHOTS / f"picture-{name}.png").write_bytes(png)
    width, height = struct.unpack(">II", png[16:24])  # the PNG's IHDR
    assert width == 1080
    assert 1200 < height < 2600
    assert len(png) <= 300 * 1024
    pixels = picture.evaluate(INK)
    assert pixels["colours"] > 20  # text in several colours and an anti-aliased chart, not a blank
    assert 0.02 < pixels["ink"] < 0.5
    download = page.locator("[data-picture-download]")
    assert download.get_attribute("download").endswith(".png")
    assert download.get_attribute("href") == src
    return png


def test_a_settled_yiwu_evening_becomes_a_png_to_send(live_server, browser):
    game = seeded_game(12)
    context = browser.new_context(viewport={"width": 390, "height": 844}, locale="zh-CN")
    context.add_init_script(
        "navigator.canShare = () => true;"
        "navigator.share = (d) => { window.__sent = d.files[0].type; return Promise.resolve(); };"
    )
    page = context.new_page()
    _settle_and_picture(page, f"{live_server.url}/g/{game.edit_token}", "rate1", "yiwu")
    share = page.get_by_role("button", name="发送")
    expect(share).to_be_visible()
    share.click()
    assert page.evaluate("window.__sent") == "image/png"
    context.close()


def test_a_zhuji_evening_with_halves_becomes_a_png(live_server, phone, shot):
    example = json.loads((HERE / "zhuji" / "04-no-caishen-zero-tai-half-points.json").read_text())
    game = import_game({**example["game"], "players": ["阿强", "阿芳", "老周", "欧阳娜娜娜娜娜娜娜娜"]})
    _settle_and_picture(phone, f"{live_server.url}/g/{game.edit_token}", "rate0", "zhuji")
    expect(phone.get_by_role("button", name="发送")).to_be_hidden()  # this phone cannot send files
    alt = phone.locator("img[data-picture]").get_attribute("alt")
    shot(phone, "picture-page")
    assert alt == "欧阳娜娜娜娜娜娜娜娜 赢 2 元，阿强 输 0.50 元，老周 输 0.50 元，阿芳 输 1 元"  # the half, to the 分

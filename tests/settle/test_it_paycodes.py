"""收款码: a screenshot of a WeChat or Alipay payment code is read on the server and only its
address kept; anything else is refused with its reason and nothing stored. The settle page (and a
group's settle-ups) draws the payee's code again under each unpaid transfer; only the edit link
adds or removes one; the picture for the chat never holds one; a backup carries them."""

import functools
import io
import json
import struct
import zlib

import pytest
import segno
import zxingcpp
from django.conf import settings
from django.core.files.uploadedfile import SimpleUploadedFile
from PIL import Image, ImageDraw

from scoring import paycodes, services
from scoring.models import Game, Group, Hand, PayCode, SettleUpTransfer, Transfer
from scoring.records.backup import backup_text
from scoring.records.exports import ImportRefused, import_game
from scoring.replay import build, store, stored_replay
from scoring.rulesets.yiwu.engine import Rules
from tests.helpers import SETTLE_HANDS, game_url, messages_of

WECHAT = "wxp://f2f0JG_gcoclfMI3-WzmlCSo0YdqYimYL8-7"
ALIPAY = "https://qr.alipay.com/fkx13673gkz2fi4kwuvzjb9"


@functools.cache
def screenshot(text: str | None, kind: str = "PNG") -> bytes:
    """A phone's screenshot of a 收款码 page: a header, the code (``text``; None, none) in a card."""
    page = Image.new("RGB", (360, 640), "#2aae67")
    draw = ImageDraw.Draw(page)
    draw.rectangle((20, 120, 340, 520), fill="white")
    if text is not None:
        out = io.BytesIO()
        segno.make_qr(text, error="m").save(out, kind="png", scale=6, border=4)
        page.paste(Image.open(out).convert("RGB"), (40, 160))
    data = io.BytesIO()
    page.save(data, kind)
    return data.getvalue()


def upload(client, url: str, data: bytes, name: str = "老王", filename: str = "shot.png"):
    return client.post(url, {"name": name, "image": SimpleUploadedFile(filename, data)}, follow=True)


def a_bomb() -> bytes:
    """A PNG whose header claims 30,000 × 30,000 pixels: its size is refused before any pixel."""

    def chunk(kind: bytes, body: bytes) -> bytes:
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))

    header = struct.pack(">IIBBBBB", 30_000, 30_000, 8, 0, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(b"\0" * 100)) + chunk(b"IEND", b"")
    )


def settled_game(group: Group | None = None) -> Game:
    """老王 +34, 小李 +4, 阿华 −19, 大刘 −19, settled at 1 元 a point: 老王 and 小李 are paid."""
    game = Game.objects.create(players=["老王", "小李", "阿华", "大刘"], rules=Rules().to_dict(), group=group)
    Hand.objects.bulk_create(Hand(game=game, seq=n, entry=entry) for n, entry in enumerate(SETTLE_HANDS, start=1))
    store(game, build(game))
    services.finish_game(game=game, rate_fen=100, fee_fen=0, fee_mode="equal", fee_payee=0)
    game.refresh_from_db()
    return game


@pytest.fixture
def settled(db) -> Game:
    return settled_game()


def test_a_wechat_and_an_alipay_screenshot_are_read_and_drawn_again_under_their_transfers(client, settled):
    url = game_url(settled) + "paycode"
    response = upload(client, url, screenshot(WECHAT))
    assert messages_of(response) == ["已保存老王的微信收款码。"]
    response = upload(client, url, screenshot(ALIPAY, "JPEG"), name="小李", filename="shot.jpg")
    assert messages_of(response) == ["已保存小李的支付宝收款码。"]
    stored = {(c.name, c.kind, c.address) for c in PayCode.objects.all()}
    assert stored == {("老王", "wechat", WECHAT), ("小李", "alipay", ALIPAY)}
    assert {f.name for f in PayCode._meta.concrete_fields} == {
        "id", "game", "group", "name", "person", "kind", "address", "created_at"
    }  # fmt: skip  # the address only: no image is kept

    html = client.get(game_url(settled, view=True) + "settle").content.decode()  # payers have the view link
    firsts = {}  # each payee's code under the first transfer to them
    for transfer in Transfer.objects.order_by("pk"):
        firsts.setdefault(transfer.payee, transfer)
    for transfer in firsts.values():
        payee = ["老王", "小李", "阿华", "大刘"][transfer.payee]
        yuan = transfer.amount_fen // 100
        if payee == "老王":
            assert f"长按识别二维码，付给<bdi>老王</bdi> {yuan} 元" in html
        else:
            assert f"用支付宝付给<bdi>小李</bdi> {yuan} 元：先保存图片，再用支付宝扫一扫→相册" in html
    assert html.count('class="paycode-image') == 2  # each payee's code once (tests/settle/test_it_paycode_once.py)
    assert "保存图片" in html
    assert "?download=1" in html
    assert 'name="image"' not in html
    assert "remove-paycode" not in html

    for code in PayCode.objects.all():
        png = client.get(game_url(settled, view=True) + f"paycode/{code.pk}.png")
        assert png["Content-Type"] == "image/png"
        assert png["Cache-Control"] == "private, max-age=86400"
        found = zxingcpp.read_barcodes(Image.open(io.BytesIO(png.content)))
        assert [b.text for b in found] == [code.address]
        again = client.get(game_url(settled) + f"paycode/{code.pk}.png", HTTP_IF_NONE_MATCH=png["ETag"])
        assert again.status_code == 304


def test_a_paid_transfer_shows_no_code(client, settled):
    upload(client, game_url(settled) + "paycode", screenshot(WECHAT))
    for transfer in Transfer.objects.filter(payee=0):
        client.post(game_url(settled) + f"transfer/{transfer.id}/paid", {"paid": "1"})
    html = client.get(game_url(settled) + "settle").content.decode()
    assert "paycode-image" not in html
    assert "老王</bdi> · 微信" in html  # still listed, to remove


@pytest.mark.parametrize(
    ("data", "said"),
    [
        (screenshot(None), "图片里没有找到二维码：请截取整个收款码页面，二维码要清楚、完整。"),
        (
            screenshot("https://example.com/pay"),
            "这个二维码不是微信或支付宝的个人收款码（网址、商家码、红包码等都不行）。",
        ),
        (screenshot("https://qr.alipay.com/bax03431ljhokirwl38f00a7"), "这个二维码不是微信或支付宝的个人收款码"),
        (screenshot("wxp://f2f0short"), "这个二维码不是微信或支付宝的个人收款码"),
        (b"%PDF-1.4 not a picture at all", "这不是能读的图片：请上传收款码的截图（PNG、JPEG 或 WebP）。"),
        (screenshot(WECHAT, "GIF"), "这不是能读的图片"),
        (a_bomb(), "图片太大：最多 8 MB、20 百万像素。请上传收款码页面的截图。"),
        (b"\0" * (paycodes.MAX_BYTES + 1), "图片太大：最多 8 MB"),  # refused by its size, unread
        (None, "请选一张收款码的截图。"),
    ],
    ids=["no-qr", "web-link", "alipay-order", "wechat-too-short", "not-an-image", "gif", "bomb", "bytes", "none"],
)
def test_a_bad_upload_is_refused_with_its_reason_and_nothing_stored(client, settled, data, said):
    url = game_url(settled) + "paycode"
    fields = {"name": "老王"} if data is None else {"name": "老王", "image": SimpleUploadedFile("x.png", data)}
    response = client.post(url, fields, follow=True)
    assert response.status_code == 200
    assert len(messages_of(response)) == 1
    assert messages_of(response)[0].startswith(said)
    assert not PayCode.objects.exists()


def test_the_refusals_are_said_in_english_too(client, settled):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    response = upload(client, game_url(settled) + "paycode", screenshot("https://example.com/"))
    assert messages_of(response) == [
        "This QR code is not a personal WeChat or Alipay payment code (a web link, a shop's code or a red packet "
        "will not do)."
    ]


def test_the_formats_kept_are_the_personal_codes_of_each_app():
    assert paycodes.kind_of("wxp://f2f1OSloSEKlcOQdQKHKEIJqmVwfMgwzN9KK") == "wechat"
    assert paycodes.kind_of("wxp://f2f0KK6-_BOfY2KgKUYZRhYKZnMsaMTEhUkqkvuitS69EOI=") == "wechat"
    assert paycodes.kind_of("HTTPS://QR.ALIPAY.COM/FKX074142EKXD0OIMV8B60") == "alipay"  # as the app writes it
    assert paycodes.kind_of("https://qr.alipay.com/2m611628fhnturpr4p9bs96") == "alipay"
    assert paycodes.kind_of("https://qr.alipay.com/fkx13673gkz2fi4kwuvzjb9?t=1608010938119") == "alipay"
    for other in (
        "https://qr.alipay.com/c1x06611gnoczzqiklpka04",  # a red packet
        "https://qr.alipay.com.evil.example/fkx13673gkz2fi4kwuvzjb9",
        "wxp://wbf2f0JG_gcoclfMI3-WzmlCSo0YdqYimYL8",
        "https://payapp.weixin.qq.com/qr/AQH3",
        WECHAT + "\n",
    ):
        assert paycodes.kind_of(other) is None, other


def test_a_new_code_of_a_kind_replaces_the_old_and_its_picture_goes(client, settled):
    url = game_url(settled) + "paycode"
    upload(client, url, screenshot(WECHAT))
    old = PayCode.objects.get()
    upload(client, url, screenshot("wxp://f2f1OSloSEKlcOQdQKHKEIJqmVwfMgwzN9KK"))
    new = PayCode.objects.get()
    assert new.pk != old.pk
    assert new.address.startswith("wxp://f2f1")
    assert client.get(game_url(settled) + f"paycode/{old.pk}.png").status_code == 404
    client.post(game_url(settled) + f"paycode/{new.pk}/remove")
    assert not PayCode.objects.exists()


def test_a_code_is_only_for_a_person_of_the_game(client, settled):
    response = upload(client, game_url(settled) + "paycode", screenshot(WECHAT), name="陌生人")
    assert messages_of(response) == ["这个人不在这里（名单或这一场里没有这个名字）。"]
    assert not PayCode.objects.exists()


def test_the_view_link_can_neither_add_nor_remove(client, settled):
    view = game_url(settled, view=True)
    assert (
        client.post(
            view + "paycode", {"name": "老王", "image": SimpleUploadedFile("x.png", screenshot(WECHAT))}
        ).status_code
        == 403
    )
    assert not PayCode.objects.exists()
    upload(client, game_url(settled) + "paycode", screenshot(WECHAT))
    code = PayCode.objects.get()
    assert client.post(view + f"paycode/{code.pk}/remove").status_code == 403
    assert PayCode.objects.filter(pk=code.pk).exists()
    other = Game.objects.create(players=["甲", "乙", "丙", "丁"])
    assert client.get(game_url(other) + f"paycode/{code.pk}.png").status_code == 404  # another game's


def test_the_picture_for_the_chat_holds_no_code(client, settled):
    upload(client, game_url(settled) + "paycode", screenshot(WECHAT))
    svg = client.get(game_url(settled) + "picture.svg").content.decode()
    page = client.get(game_url(settled) + "picture").content.decode()
    for text in (svg, page):
        assert "wxp://" not in text
        assert "paycode" not in text


def test_uploads_spend_their_own_budget(client, settled, settings):
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "paycodes": 2}
    url = game_url(settled) + "paycode"
    for _ in range(2):
        upload(client, url, screenshot(None))
    response = client.post(url, {"name": "老王", "image": SimpleUploadedFile("x.png", screenshot(WECHAT))})
    assert response.status_code == 429
    assert "十分钟内上传的收款码太多了" in response.content.decode()
    assert not PayCode.objects.exists()


def test_a_backup_carries_the_codes_and_an_older_one_still_imports(client, settled):
    upload(client, game_url(settled) + "paycode", screenshot(WECHAT))
    upload(client, game_url(settled) + "paycode", screenshot(ALIPAY), name="小李")
    text = backup_text(stored_replay(settled, limit=None))
    data = json.loads(text)
    assert data["backup"]["format"] == 4
    restored = import_game(json.loads(text))
    assert {(c.name, c.kind, c.address) for c in restored.paycodes.all()} == {
        ("老王", "wechat", WECHAT),
        ("小李", "alipay", ALIPAY),
    }
    older = json.loads(text)
    older["backup"]["format"] = 3
    del older["backup"]["paycodes"]
    assert not import_game(older).paycodes.exists()
    forged = json.loads(text)
    forged["backup"]["paycodes"][0]["address"] = "https://example.com"
    with pytest.raises(ImportRefused) as refused:
        import_game(forged)
    assert refused.value.zh == "备份：收款码（老王）应为这一场里的人的微信或支付宝收款码，每人每种一个。"
    assert Game.objects.count() == 3  # the forged file made nothing


def test_a_groups_code_serves_every_evening_and_a_games_own_comes_first(client, settled):
    group = Group.objects.create(name="周五", roster=["老王", "小李", "阿华", "大刘"])
    client.post(game_url(settled) + "group", {"group": group.edit_token}, follow=True)
    response = upload(client, f"/group/{group.edit_token}/paycode", screenshot(WECHAT))
    assert messages_of(response) == ["已保存老王的微信收款码。"]
    code = PayCode.objects.get(group=group)
    html = client.get(game_url(settled, view=True) + "settle").content.decode()
    assert f"paycode/{code.pk}.png" in html
    assert "（牌友圈里的）" in html
    assert client.get(game_url(settled, view=True) + f"paycode/{code.pk}.png").status_code == 200
    assert client.get(f"/group/{group.view_token}/paycode/{code.pk}.png").status_code == 200
    assert client.post(f"/group/{group.view_token}/paycode/{code.pk}/remove").status_code == 403
    own = "wxp://f2f1OSloSEKlcOQdQKHKEIJqmVwfMgwzN9KK"
    upload(client, game_url(settled) + "paycode", screenshot(own))
    mine = PayCode.objects.get(game=settled)
    html = client.get(game_url(settled) + "settle").content.decode()
    assert f"paycode/{mine.pk}.png" in html
    assert f"paycode/{code.pk}.png" not in html
    roster = client.get(f"/group/{group.edit_token}/").content.decode()
    assert "老王</bdi> · 微信" in roster
    assert 'action="/group/' in roster


def test_a_groups_settle_up_shows_the_payees_code_under_its_transfers(client, settled):
    group = Group.objects.create(name="周五", roster=["老王", "小李", "阿华", "大刘"])
    client.post(game_url(settled) + "group", {"group": group.edit_token}, follow=True)
    later = settled_game(group)
    ids = list(Transfer.objects.values_list("pk", flat=True))
    services.settle_together(group, ids)
    upload(client, f"/group/{group.edit_token}/paycode", screenshot(WECHAT))
    code = PayCode.objects.get()
    page = client.get(f"/group/{group.view_token}/").content.decode()
    netted = SettleUpTransfer.objects.filter(payee="老王", paid_at__isnull=True)
    assert netted.exists()
    assert page.count(f"/group/{group.view_token}/paycode/{code.pk}.png") == netted.count()
    assert "长按识别二维码，付给<bdi>老王</bdi>" in page
    assert 'name="image"' not in page  # the view link adds none
    settle = client.get(game_url(later, view=True) + "settle").content.decode()  # the game's own settle-up
    assert f"paycode/{code.pk}.png" in settle

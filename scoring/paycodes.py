"""收款码: reading a person's WeChat or Alipay payment code from a screenshot, and drawing it again.

Only the decoded address is kept (docs/paycodes.md lists the accepted forms); the size is checked
from the header before any pixel is decoded, so a decompression bomb never is."""

import base64
import io
import re
import warnings

import segno

from scoring.engine.errors import BilingualError
from scoring.engine.seating import key

MAX_BYTES = 8 * 1024 * 1024  # a phone's screenshot is 0.2-5 MB
MAX_PIXELS = 20_000_000  # e.g. 4000 × 5000; a 1290 × 2796 screenshot is 3.6 million
READ_FORMATS = ("PNG", "JPEG", "WEBP")
WECHAT, ALIPAY = "wechat", "alipay"
FORMATS = {
    WECHAT: re.compile(r"wxp://f2f[01][A-Za-z0-9_-]{16,128}={0,2}"),
    ALIPAY: re.compile(r"https://qr\.alipay\.com/(fkx|tsx|2m6)[a-z0-9]{16,24}(\?[A-Za-z0-9_.=&-]{1,64})?", re.I),
}
APP_NAMES = {WECHAT: ("微信", "WeChat"), ALIPAY: ("支付宝", "Alipay")}


class PayCodeRefused(BilingualError):
    """An upload that is no 收款码 this app keeps; the message says why, Chinese first."""


def kind_of(address: str) -> str | None:
    """Which app's personal 收款码 ``address`` is (``WECHAT``, ``ALIPAY``), or None."""
    return next((kind for kind, pattern in FORMATS.items() if pattern.fullmatch(address)), None)


def too_large() -> PayCodeRefused:
    return PayCodeRefused(
        f"图片太大：最多 {MAX_BYTES // (1024 * 1024)} MB、{MAX_PIXELS // 1_000_000} 百万像素。请上传收款码页面的截图。",
        f"The image is too large: at most {MAX_BYTES // (1024 * 1024)} MB and {MAX_PIXELS // 1_000_000} million "
        "pixels. Upload a screenshot of the payment code page.",
        "image",
    )


def _image(data: bytes):
    """The picture in ``data``, its size checked from the header before its pixels are decoded."""
    from PIL import Image, UnidentifiedImageError

    if len(data) > MAX_BYTES:
        raise too_large()
    with warnings.catch_warnings():
        warnings.simplefilter("error", Image.DecompressionBombWarning)
        try:
            image = Image.open(io.BytesIO(data), formats=READ_FORMATS)
            if image.width * image.height > MAX_PIXELS:
                raise too_large()
            image.load()
            return image.convert("L")
        except (Image.DecompressionBombError, Image.DecompressionBombWarning):
            raise too_large() from None
        except (UnidentifiedImageError, OSError, ValueError, SyntaxError):
            raise PayCodeRefused(
                "这不是能读的图片：请上传收款码的截图（PNG、JPEG 或 WebP）。",
                "This is not an image that can be read: upload a screenshot of the code (PNG, JPEG or WebP).",
                "image",
            ) from None


def read_paycode(data: bytes) -> tuple[str, str]:
    """(kind, address) of the personal 收款码 in screenshot ``data``; ``PayCodeRefused`` says why not."""
    import zxingcpp

    image = _image(data)
    found = [code.text for code in zxingcpp.read_barcodes(image, formats=zxingcpp.BarcodeFormat.QRCode)]
    if not found:
        raise PayCodeRefused(
            "图片里没有找到二维码：请截取整个收款码页面，二维码要清楚、完整。",
            "No QR code was found in the image: take a screenshot of the whole payment code page, "
            "with the code sharp and whole.",
            "image",
        )
    for text in found:
        if (kind := kind_of(text)) is not None:
            return kind, text
    raise PayCodeRefused(
        "这个二维码不是微信或支付宝的个人收款码（网址、商家码、红包码等都不行）。",
        "This QR code is not a personal WeChat or Alipay payment code (a web link, a shop's code or a red "
        "packet will not do).",
        "image",
    )


def paycode_png(address: str) -> bytes:
    """The code drawn again by the app: a PNG large enough to read from a phone's screen."""
    uri = segno.make_qr(address, error="m").png_data_uri(scale=10, border=4)
    return base64.b64decode(uri.partition(",")[2])


# -- the pages' side: which codes a transfer shows, an upload read, its picture served ----------


def codes_by_person(*, game=None, group=None) -> dict[str, list]:
    """Each person's codes by ``key``, WeChat first: ``game``'s, else its group's of that kind; or ``group``'s. One query."""
    from django.db.models import Q

    from scoring.models import PayCode

    if game is not None:
        where = Q(game=game) | Q(group_id=game.group_id) if game.group_id is not None else Q(game=game)
    else:
        where = Q(group=group)
    chosen: dict[tuple[str, str], object] = {}
    for code in PayCode.objects.filter(where):
        mine = chosen.get((code.person, code.kind))
        if mine is None or (mine.game_id is None and code.game_id is not None):
            chosen[code.person, code.kind] = code
    out: dict[str, list] = {}
    for (person, _kind), code in sorted(chosen.items(), key=lambda item: (item[0][0], item[0][1] != WECHAT)):
        out.setdefault(person, []).append(code)
    return out


def listed(codes: dict, people: list[str]) -> list:
    """Every code of ``codes`` (``codes_by_person``), in the order of ``people``."""
    order = {key(name): n for n, name in enumerate(people)}
    return [code for person in sorted(codes, key=lambda p: (order.get(p, len(order)), p)) for code in codes[person]]


def served_png(request, paycode):
    """The code's picture, cached a day since its id never shows another code; 304 on its tag."""
    import hashlib

    from django.http import HttpResponse, HttpResponseNotModified

    tag = '"' + hashlib.blake2b(paycode.address.encode(), digest_size=12).hexdigest() + '"'
    if request.headers.get("If-None-Match") == tag:
        response = HttpResponseNotModified()
    else:
        response = HttpResponse(paycode_png(paycode.address), content_type="image/png")
        if request.GET.get("download") == "1":
            response["Content-Disposition"] = f'attachment; filename="paycode-{paycode.pk}.png"'
    response["ETag"] = tag
    response["Cache-Control"] = "private, max-age=86400"
    return response


def upload(request, **owner) -> None:
    """Read the posted screenshot and keep it as ``owner``'s (``game=`` or ``group=``), saying as a message what happened or why not."""
    from django.contrib import messages

    from scoring import services
    from scoring.access import spend_change, throttle
    from scoring.lang import pick, say

    throttle(request, "paycodes")  # each upload is decoded: counted before, refused or not
    spend_change(**owner)
    image, name = request.FILES.get("image"), request.POST.get("name", "")
    try:
        if image is None:
            raise PayCodeRefused("请选一张收款码的截图。", "Choose a screenshot of the payment code.", "image")
        if image.size > MAX_BYTES:
            raise too_large()  # refused unread
        kind, address = read_paycode(image.read())
        code = services.add_paycode(**owner, name=name, kind=kind, address=address)
    except (PayCodeRefused, services.Conflict) as refusal:
        messages.warning(request, say(refusal))
        return
    app = APP_NAMES[kind]
    messages.success(request, pick(f"已保存{code.name}的{app[0]}收款码。", f"{code.name}'s {app[1]} code is saved."))


def remove(request, paycode_id: int, **owner) -> None:
    """Remove ``owner``'s code ``paycode_id``, saying why not as a message."""
    from django.contrib import messages

    from scoring import services
    from scoring.access import spend_change
    from scoring.lang import say

    spend_change(**owner)
    try:
        services.remove_paycode(**owner, paycode_id=paycode_id)
    except services.Conflict as conflict:
        messages.warning(request, say(conflict))

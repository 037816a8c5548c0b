"""收款码: reading a person's WeChat or Alipay payment code from a screenshot, and drawing it again.

Only the decoded address is kept (docs/paycodes.md lists the accepted forms); the size is checked
from the header before any pixel is decoded, so a decompression bomb never is."""

import base64
import io
import re
import warnings

import segno
import zxingcpp
from PIL import Image, UnidentifiedImageError

from scoring.engine.errors import BilingualError

MAX_BYTES = 8 * 1024 * 1024  # a phone's screenshot is 0.2-5 MB
MAX_PIXELS = 20_000_000  # e.g. 4000 × 5000; a 1290 × 2796 screenshot is 3.6 million
READ_FORMATS = ("PNG", "JPEG", "WEBP")
WECHAT, ALIPAY = "wechat", "alipay"
# ASCII only: under Unicode case-folding ı and İ would count as i, ſ as s and K (Kelvin) as k.
FORMATS = {
    WECHAT: re.compile(r"wxp://f2f[01][A-Za-z0-9_-]{16,128}={0,2}", re.ASCII),
    ALIPAY: re.compile(
        r"https://qr\.alipay\.com/(fkx|tsx|2m6)[a-z0-9]{16,24}(\?[A-Za-z0-9_.=&-]{1,64})?", re.ASCII | re.I
    ),
}
# What a look-alike matches: the same forms case-folded over all of Unicode.
LOOK_ALIKES = [re.compile(pattern.pattern, re.I) for pattern in FORMATS.values()]
APP_NAMES = {WECHAT: ("微信", "WeChat"), ALIPAY: ("支付宝", "Alipay")}


class PayCodeRefused(BilingualError):
    """An upload that is no 收款码 this app keeps; the message says why, Chinese first."""


def kind_of(address: str) -> str | None:
    """Which app's personal 收款码 ``address`` is (``WECHAT``, ``ALIPAY``), or None; never a non-ASCII one."""
    if not address.isascii():
        return None
    return next((kind for kind, pattern in FORMATS.items() if pattern.fullmatch(address)), None)


def look_alike(address: str) -> bool:
    """An address made to pass for a 收款码 with letters that only look like its own (ı, İ, ſ, K)."""
    return not address.isascii() and any(pattern.fullmatch(address) for pattern in LOOK_ALIKES)


LOOK_ALIKE_WORDS = (
    "这个二维码的网址里有冒充英文字母的字符（例如 ı、İ、ſ、K），不是真的收款码，没有保存。请让本人打开微信或支付宝，重新截图收款码。",
    "This QR code's address has characters posing as English letters (such as ı, İ, ſ or K): it is not a real "
    "payment code and was not saved. Ask its owner to open WeChat or Alipay and take a new screenshot of the code.",
)


def too_large() -> PayCodeRefused:
    return PayCodeRefused(
        f"图片太大：最多 {MAX_BYTES // (1024 * 1024)} MB、{MAX_PIXELS // 1_000_000} 百万像素。请上传收款码页面的截图。",
        f"The image is too large: at most {MAX_BYTES // (1024 * 1024)} MB and {MAX_PIXELS // 1_000_000} million "
        "pixels. Upload a screenshot of the payment code page.",
        "image",
    )


def _image(data: bytes):
    """The picture in ``data``, its size checked from the header before its pixels are decoded."""
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
    if any(look_alike(text) for text in found):
        raise PayCodeRefused(*LOOK_ALIKE_WORDS, "image")
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

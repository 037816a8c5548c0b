"""Links to hand a friend: the LAN address under ``make run`` and a QR code of a link (the table's and the 牌友圈's share pages)."""

import segno
from django.conf import settings
from django.http import HttpRequest
from django.http.request import split_domain_port

LOCAL_HOSTS = ("127.0.0.1", "localhost", "::1", "[::1]")


def lan_base(request: HttpRequest, always: bool = False) -> str | None:
    """The address friends' phones can open under ``make run`` (http://192.168.1.23:8000): for a page opened on the machine itself unless ``always``."""
    addresses = getattr(settings, "LAN_ADDRESSES", [])
    if not addresses:
        return None
    host, port = split_domain_port(request.get_host())
    if not always and host not in LOCAL_HOSTS:
        return None  # the phone already came by an address it can open
    return f"http://{addresses[0]}:{port or request.get_port()}"


def qr_svg(url: str) -> str:
    return segno.make(url, error="m").svg_inline(scale=6, border=2, dark="#000")

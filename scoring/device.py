"""What this phone remembers, in signed cookies: the games it opened and who it is at each, the
groups (牌友圈) it opened, and whether it reads in 大字 (docs/manual.md)."""

import base64

from django.conf import settings
from django.http import HttpRequest, HttpResponse

from scoring.engine.seating import key

GAMES_COOKIE = "yiwu_games"
GROUPS_COOKIE = "yiwu_groups"
ME_COOKIE = "yiwu_me"
BIG_COOKIE = "yiwu_big"
MAX_GAMES = 60
YEAR = 365 * 24 * 3600
ME_CHARS = 3000  # 我是: a cookie stays under the 4096 bytes a browser keeps


def _read(request: HttpRequest, name: str) -> str:
    return request.get_signed_cookie(name, default="", salt=name)


def remembered_tokens(request: HttpRequest) -> list[str]:
    """Tokens of the games this device opened, most recent first."""
    return [t for t in _read(request, GAMES_COOKIE).split(",") if t]


def _set(response: HttpResponse, name: str, value: str) -> None:
    """Signed, a year long, out of scripts' reach, and HTTPS-only when the session cookie is."""
    response.set_signed_cookie(
        name,
        value,
        salt=name,
        max_age=YEAR,
        httponly=True,
        samesite="Lax",
        secure=settings.SESSION_COOKIE_SECURE,
    )


def remember_game(request: HttpRequest, response: HttpResponse, token: str) -> None:
    _remember(request, response, GAMES_COOKIE, token)


def remembered_groups(request: HttpRequest) -> list[str]:
    """Tokens of the groups this device opened, most recent first."""
    return [t for t in _read(request, GROUPS_COOKIE).split(",") if t]


def remember_group(request: HttpRequest, response: HttpResponse, token: str) -> None:
    _remember(request, response, GROUPS_COOKIE, token)


def _remember(request: HttpRequest, response: HttpResponse, name: str, token: str) -> None:
    tokens = [t for t in _read(request, name).split(",") if t]
    if tokens[:1] == [token]:
        return
    tokens = [token] + [t for t in tokens if t != token]
    _set(response, name, ",".join(tokens[:MAX_GAMES]))


def _me_items(request: HttpRequest) -> list[str]:
    return [i for i in _read(request, ME_COOKIE).split(",") if i]


def _name_of(value: str) -> str | None:
    """A name as the cookie holds it (``n`` and its UTF-8 in URL-safe base64, unpadded)."""
    try:
        name = base64.urlsafe_b64decode(value + "=" * (-len(value) % 4)).decode()
    except (ValueError, UnicodeDecodeError):
        return None
    return name or None


def my_name(request: HttpRequest, game) -> str | None:
    """The person this device said it is in ``game`` (我是…), by name; an older cookie's seat: who sits there now."""
    for item in _me_items(request):
        gid, _, value = item.partition(":")
        if gid != str(game.id):
            continue
        if value.startswith("n"):
            return _name_of(value[1:])
        seating = game.seating
        return seating[int(value)] if value in [str(s) for s in range(len(seating))] else None
    return None


def my_seat(request: HttpRequest, game) -> int | None:
    """The seat this device's person (``my_name``) sits at now, None if they sit out."""
    name = my_name(request, game)
    if name is None:
        return None
    return next((s for s, sitting in enumerate(game.seating) if key(sitting) == key(name)), None)


def set_my_name(request: HttpRequest, response: HttpResponse, game_id: int, name: str) -> None:
    """Remember ``name`` as this device's person in a game, newest first, within ``ME_CHARS`` and ``MAX_GAMES``."""
    item = f"{game_id}:n" + base64.urlsafe_b64encode(name.encode()).decode().rstrip("=")
    others = [i for i in _me_items(request) if not i.startswith(f"{game_id}:")]
    items = [item, *others[: MAX_GAMES - 1]]
    while len(",".join(items)) > ME_CHARS and len(items) > 1:
        items.pop()
    _set(response, ME_COOKIE, ",".join(items))


def big_text(request: HttpRequest) -> bool:
    """大字 (长辈模式): this phone asked for larger text and 60 px controls (static/css/app.css ``html.big``)."""
    return _read(request, BIG_COOKIE) == "1"


def set_big_text(response: HttpResponse, on: bool) -> None:
    if on:
        _set(response, BIG_COOKIE, "1")
    else:
        response.delete_cookie(BIG_COOKIE, samesite="Lax")


def context(request: HttpRequest) -> dict:
    """For base.html: the class on ``<html>`` is rendered with the page, so it never flashes small."""
    return {"big_text": big_text(request)}

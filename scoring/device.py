"""What this phone remembers, in signed cookies: the games it opened and who it is at each, and
the groups (牌友圈) it opened."""

from django.conf import settings
from django.http import HttpRequest, HttpResponse

GAMES_COOKIE = "yiwu_games"
GROUPS_COOKIE = "yiwu_groups"
ME_COOKIE = "yiwu_me"
MAX_GAMES = 60
YEAR = 365 * 24 * 3600


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


def my_seat(request: HttpRequest, game_id: int, seats: int) -> int | None:
    """The seat this device said it sits at in a game (我是…), if any and if the game has it."""
    for item in _read(request, ME_COOKIE).split(","):
        gid, _, seat = item.partition(":")
        if gid == str(game_id) and seat in [str(s) for s in range(seats)]:
            return int(seat)
    return None


def set_my_seat(request: HttpRequest, response: HttpResponse, game_id: int, seat: int) -> None:
    items = [i for i in _read(request, ME_COOKIE).split(",") if i and not i.startswith(f"{game_id}:")]
    items = [f"{game_id}:{seat}", *items][:MAX_GAMES]
    _set(response, ME_COOKIE, ",".join(items))

"""Who may open a game: its two link tokens, and rate limits per client.

A wrong or missing token answers 404, exactly like a game that does not exist. A client that
keeps guessing gets 429 for the rest of a 10-minute window. Anonymous POSTs to the JSON doors
and import, and sign-up attempts, are counted the same way. The counts live in the database,
so every gunicorn worker and host sees the same ones.
"""

import ipaddress
import re
import time

from django.conf import settings
from django.core.exceptions import PermissionDenied
from django.db import IntegrityError, connection, transaction
from django.db.models import F, Q
from django.http import Http404, HttpRequest
from django.utils.translation import gettext as _

from scoring.models import AccessMiss, Game, SavedGame

TOKEN_SHAPE = re.compile(r"[A-Za-z0-9_-]{1,64}", re.ASCII)  # secrets.token_urlsafe's alphabet
WINDOW_SECONDS = 600
# Per client and 10-minute window: wrong game tokens, anonymous POSTs to /api/score,
# /api/settle and /import (one budget), and sign-up attempts; and sign-up attempts per
# username from every client together (a botnet trying one name from many addresses).
LIMITS = {"miss": 30, "anon": 60, "signup": 10, "signupname": 5}


class TooManyAttempts(Exception):
    """Answered with 429 by scoring.middleware.TooManyAttemptsMiddleware."""


def client_of(request: HttpRequest) -> str:
    header = getattr(settings, "CLIENT_IP_HEADER", "")
    value = request.META.get(header, "") if header else ""
    return (value.split(",")[0].strip() or request.META.get("REMOTE_ADDR", "") or "unknown")[:64]


def client_ip(request: HttpRequest) -> str | None:
    """``client_of`` when it is an IP address (django-axes stores it in an IP column, which
    PostgreSQL checks), else REMOTE_ADDR if that is one, else None."""
    for value in (client_of(request), request.META.get("REMOTE_ADDR", "")):
        try:
            return str(ipaddress.ip_address(value))
        except ValueError:
            continue
    return None


def _window() -> int:
    return int(time.time()) // WINDOW_SECONDS


def _check_not_blocked(client: str, kind: str = "miss") -> None:
    if AccessMiss.objects.filter(kind=kind, client=client, window=_window(), count__gte=LIMITS[kind]).exists():
        raise TooManyAttempts


def _record_miss(client: str, kind: str = "miss") -> None:
    window = _window()
    counts = AccessMiss.objects.filter(kind=kind, client=client, window=window)
    if not counts.update(count=F("count") + 1):
        try:
            with transaction.atomic():
                AccessMiss.objects.create(kind=kind, client=client, window=window, count=1)
        except IntegrityError:  # another request created it first
            counts.update(count=F("count") + 1)
        AccessMiss.objects.filter(window__lt=window - 1).delete()


def throttle(request: HttpRequest, kind: str, key: str | None = None) -> None:
    """Count one anonymous request of ``kind`` for its client (or for ``key``, e.g. a username);
    TooManyAttempts (429) once the window's budget is used up. Signed-in people are not counted."""
    user = getattr(request, "user", None)
    if user is not None and user.is_authenticated:
        return
    client = client_of(request) if key is None else key[:64]
    _check_not_blocked(client, kind)
    _record_miss(client, kind)


def well_formed(token: str) -> bool:
    """Could this be a link token? Anything else (NUL, control characters, too long) is a
    wrong token without asking the database, which PostgreSQL would refuse with an error."""
    return TOKEN_SHAPE.fullmatch(token) is not None


def find_game(request: HttpRequest, token: str) -> Game:
    """The game ``token`` opens (edit or view link), or 404; 429 after too many misses."""
    client = client_of(request)
    game = Game.objects.filter(Q(edit_token=token) | Q(view_token=token)).first() if well_formed(token) else None
    if game is None:
        _check_not_blocked(client)
        _record_miss(client)
        raise Http404(_("没有这个牌局"))
    return game


def game_version(request: HttpRequest, token: str) -> int:
    """Only the version of the game a token opens: the polling fast path, one indexed lookup
    without building a model (404 and the rate limit as for ``find_game``)."""
    if not well_formed(token):
        find_game(request, token)  # records the miss and raises 404 (or 429)
    table = Game._meta.db_table
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT version FROM {table} WHERE edit_token = %s OR view_token = %s", [token, token])
        row = cursor.fetchone()
    if row is None:
        find_game(request, token)  # records the miss and raises 404 (or 429)
    return row[0]


def claim(request: HttpRequest, game: Game, token: str) -> None:
    """A signed-in person who opens a link keeps the game in 「我的牌局」 (edit beats view)."""
    user = request.user
    if not user.is_authenticated:
        return
    saved, created = SavedGame.objects.get_or_create(user=user, game=game, defaults={"token": token})
    if not created and saved.token != token and token == game.edit_token:
        saved.token = token
        saved.save(update_fields=["token"])


def load_game(request: HttpRequest, token: str) -> tuple[Game, bool]:
    """The game a link's token opens, and whether the link may write. 404 for anything else."""
    game = find_game(request, token)
    return game, game.edit_token == token


def writable_game(request: HttpRequest, token: str) -> Game:
    """The game an edit link opens; a view link on a write URL gets the app's 403 page."""
    game, can_edit = load_game(request, token)
    if not can_edit:
        raise PermissionDenied(_("只读链接不能记分或修改。"))
    return game

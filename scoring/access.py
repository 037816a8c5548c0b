"""Who may open a game: its two link tokens, and budgets per client, account and game.

A wrong or missing token answers 404, exactly like a game that does not exist. A client that
keeps guessing gets 429 for the rest of a 10-minute window. POSTs to the JSON doors and import,
sign-ups, new games and imports are counted the same way, and so are the confirmed writes of
each game per minute. The counts live where every gunicorn worker and host sees the same ones,
and where no traffic can push them out: in the database (``AccessMiss`` rows), or with
settings.SHARED_BUDGETS in a Redis of their own that evicts nothing (a counter per window that
expires with it), never in the cache of pages. A count's key is never raw input: an address, an
account or a game (``key_of``).
"""

import functools
import hashlib
import ipaddress
import time
from contextlib import nullcontext

from django.conf import settings
from django.core.cache import caches
from django.core.exceptions import PermissionDenied
from django.db import connection, transaction
from django.http import Http404, HttpRequest
from django.utils.translation import gettext as _

from scoring import live
from scoring.live import well_formed  # a link token's shape: live's middleware checks it too
from scoring.models import AccessMiss, Game, SavedGame

WINDOW_SECONDS = 600
WINDOWS = {"hands": 60, "changes": 60}  # kinds counted per minute; every other per WINDOW_SECONDS
# The budgets per window, by kind (settings.RATE_LIMITS, each with its DJANGO_LIMIT_* variable).
LIMITS = settings.RATE_LIMITS
# What the 429 page says for a budget (Chinese, English); any other kind says TOO_MANY.
TOO_MANY = ("请求太多，请稍后再试。", "Too many attempts: try again in a few minutes.")
SAID = {
    "games": (
        "十分钟内新开的牌局太多了，请过几分钟再开。",
        "Too many new games in ten minutes: try again in a few minutes.",
    ),
    "imports": (
        "十分钟内导入的牌局太多了，请过几分钟再导入。",
        "Too many imports in ten minutes: try again in a few minutes.",
    ),
    "hands": (
        "这一桌一分钟内记了太多局，请过一会儿再确认。",
        "Too many hands recorded at this table in one minute: wait a moment and confirm again.",
    ),
    "paycodes": (
        "十分钟内上传的收款码太多了，请过几分钟再试。",
        "Too many payment codes uploaded in ten minutes: try again in a few minutes.",
    ),
    "changes": (
        "一分钟内改动太多了（记分、下注、换座、标已付……），请过一会儿再试。",
        "Too many changes in one minute (hands, bets, seats, paid marks…): wait a moment and try again.",
    ),
}


class TooManyAttempts(Exception):
    """Answered by scoring.middleware.TooManyAttemptsMiddleware with the 429 page (or ``status``)
    saying ``zh`` and ``en``. Nothing has changed."""

    def __init__(self, zh: str = TOO_MANY[0], en: str = TOO_MANY[1], status: int = 429, kind: str = ""):
        super().__init__(en)
        self.zh, self.en, self.status, self.kind = zh, en, status, kind


def key_of(value: str) -> str:
    """A throttle key for an address read from a request: the address as Python writes it (one
    key however it is spelled), or for anything else a digest of it, never the text itself."""
    try:
        address = ipaddress.ip_address(value)
    except ValueError:
        address = None
    if address is not None and getattr(address, "scope_id", None) is None:  # fe80::1%<any text> is not one
        return str(address)
    if not value:
        return "unknown"
    return "h:" + hashlib.sha256(value.encode("utf-8", "surrogatepass")).hexdigest()[:40]


def client_of(request: HttpRequest) -> str:
    """The client's address. Behind proxies (``CLIENT_IP_HEADER``), the entry the outermost of
    the ``TRUSTED_PROXIES`` wrote, counted from the right: each proxy appends the address it
    was reached from, so every entry to the left of those is whatever the client sent. A header
    with fewer entries (a request that did not come through them) counts the connection."""
    header = settings.CLIENT_IP_HEADER
    entries = [entry.strip() for entry in request.META.get(header, "").split(",")] if header else []
    proxies = settings.TRUSTED_PROXIES
    if entries != [""] and len(entries) >= proxies:
        return key_of(entries[-proxies])
    return key_of(request.META.get("REMOTE_ADDR", ""))


def client_ip(request: HttpRequest) -> str | None:
    """``client_of`` when it is an IP address (django-axes stores it in an IP column, which
    PostgreSQL checks), else REMOTE_ADDR if that is one, else None."""
    for value in (client_of(request), request.META.get("REMOTE_ADDR", "")):
        try:
            return str(ipaddress.ip_address(value))
        except ValueError:
            continue
    return None


def _window(kind: str = "miss") -> int:
    return int(time.time()) // WINDOWS.get(kind, WINDOW_SECONDS)


def _take(kind: str, key: str) -> bool:
    """One more of ``kind`` for ``key`` if its budget in this window allows it. One statement
    (an upsert, the same on PostgreSQL and SQLite), atomic however many workers ask at once;
    a window's first count also clears the windows before the last."""
    table, window_column = AccessMiss._meta.db_table, connection.ops.quote_name("window")
    window = _window(kind)
    sql = (
        f"INSERT INTO {table} (kind, client, {window_column}, count) VALUES (%s, %s, %s, 1) "
        f"ON CONFLICT (kind, client, {window_column}) DO UPDATE SET count = {table}.count + 1 "
        f"WHERE {table}.count < %s RETURNING count"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, [kind, key, window, settings.RATE_LIMITS[kind]])
        row = cursor.fetchone()
    if row is not None and row[0] == 1:
        AccessMiss.objects.filter(kind=kind, window__lt=window - 1).delete()
    return row is not None


def _take_shared(kind: str, key: str) -> str | None:
    """``_take`` in the shared cache: one counter per kind, key and window, created at 0 and
    expiring once its window is over; a count past the budget is taken back. The counter's
    name when counted, None when the budget is spent."""
    counter, seconds = f"budget:{kind}:{key}:{_window(kind)}", 2 * WINDOWS.get(kind, WINDOW_SECONDS)
    cache = caches["budgets"]
    cache.add(counter, 0, timeout=seconds)
    try:
        count = cache.incr(counter)
    except ValueError:  # expired between the two calls: this window's first count
        cache.add(counter, 0, timeout=seconds)
        count = cache.incr(counter)
    if count > settings.RATE_LIMITS[kind]:
        cache.decr(counter)
        return None
    return counter


def _spend(kinds: tuple[str, ...], keys: list[str]) -> None:
    """Count one of each kind for every key, or nothing at all (TooManyAttempts) when one of
    them is spent."""
    if settings.SHARED_BUDGETS:
        taken = []
        for kind in kinds:
            for key in keys:
                if (counter := _take_shared(kind, key)) is None:
                    for counted in taken:  # nothing at all: the counts already taken go back
                        caches["budgets"].decr(counted)
                    zh, en = SAID.get(kind, TOO_MANY)
                    raise TooManyAttempts(zh, en, kind=kind)
                taken.append(counter)
        return
    with transaction.atomic() if len(kinds) * len(keys) > 1 else nullcontext():
        for kind in kinds:
            for key in keys:
                if not _take(kind, key):
                    zh, en = SAID.get(kind, TOO_MANY)
                    raise TooManyAttempts(zh, en, kind=kind)


def _account(request: HttpRequest) -> str | None:
    user = getattr(request, "user", None)
    return f"user:{user.pk}" if user is not None and user.is_authenticated else None


def throttle(request: HttpRequest, kind: str) -> None:
    """Count one request of ``kind``: a signed-in person's for their account (wherever they
    are), anyone else's for their client address. TooManyAttempts (429) once it is spent."""
    _spend((kind,), [_account(request) or client_of(request)])


def spend_new_game(request: HttpRequest, *, imported: bool = False) -> None:
    """Before a game is created (开新牌局 or an import): the account's cap on games, then the
    budget of new games (and of imports) of the client and of the account, if signed in."""
    account = _account(request)
    if account is not None:
        cap = settings.MAX_GAMES_PER_ACCOUNT
        if SavedGame.objects.filter(user=request.user).count() >= cap:
            raise TooManyAttempts(
                f"这个账号已有 {cap} 个牌局，到了上限，不能再开新牌局。",
                f"This account already keeps {cap} games, its limit: no new game can be added.",
                status=403,
            )
    keys = [client_of(request)] + ([account] if account else [])
    _spend(("imports", "games") if imported else ("games",), keys)


def spend_hand_write(*, game: Game) -> None:
    """Before a confirmed record, edit or void: the game's budget of writes per minute, whoever
    writes (a table records one hand in a few minutes)."""
    _spend(("hands",), [f"game:{game.pk}"])


def spend_change(*, game: Game | None = None, group=None) -> None:
    """Before any write that phones see other than a hand's (``spend_hand_write``): a bet, a
    settle, 已付, 归档, a group's roster or settle-ups. The budget of changes per minute of the
    game, or the group, whoever writes: each raises a version, and every phone of the table then
    fetches a fresh page and step bundle."""
    _spend(("changes",), [f"game:{game.pk}"] if game is not None else [f"group:{group.pk}"])


def missed(request: HttpRequest) -> None:
    """One more wrong token from this client (a game's or a group's): 429 once too many."""
    _spend(("miss",), [client_of(request)])


@functools.cache
def _game_by_token() -> str:
    """The game a token opens, as ``Game.objects.filter(Q(edit_token=token) | Q(view_token=token))
    .first()`` asks for it, written out once: every page with a token runs it, and building it
    through the ORM each time took three times as long (0.26 ms against 0.09 here, with
    ``Game.objects.raw``; read as ``_game_of`` reads it, 0.08)."""
    quote = connection.ops.quote_name
    columns = ", ".join(quote(field.column) for field in Game._meta.concrete_fields)
    table = quote(Game._meta.db_table)
    return f"SELECT {columns} FROM {table} WHERE edit_token = %s OR view_token = %s ORDER BY {quote('id')} LIMIT 1"


def _game_of(row: tuple) -> Game:
    """The ``Game`` of a row of ``_game_by_token``, each value through the converters the ORM
    applies to it (the database's, then the field's: JSON decoded, SQLite's datetimes read)."""
    fields, values = Game._meta.concrete_fields, []
    for field, value in zip(fields, row, strict=True):
        column = field.get_col(Game._meta.db_table)
        for convert in connection.ops.get_db_converters(column) + field.get_db_converters(connection):
            value = convert(value, column, connection)
        values.append(value)
    return Game.from_db(connection.alias, [field.attname for field in fields], values)


def find_game(request: HttpRequest, token: str) -> Game:
    """The game ``token`` opens (edit or view link), or 404; 429 after too many misses."""
    client = client_of(request)
    row = None
    if well_formed(token):
        with connection.cursor() as cursor:
            cursor.execute(_game_by_token(), [token, token])
            row = cursor.fetchone()
    if row is None:
        _spend(("miss",), [client])
        raise Http404(_("没有这个牌局"))
    return _game_of(row)


def game_version(request: HttpRequest, token: str) -> int:
    """Only the version of the game a token opens: the polling fast path. From the shared cache
    when there is one (no query: scoring/live.py), else one indexed lookup without building a
    model (404 and the rate limit as for ``find_game``)."""
    if not well_formed(token):
        find_game(request, token)  # records the miss and raises 404 (or 429)
    if live.shared() and (version := live.cached_version(token)) is not None:
        return version
    table = Game._meta.db_table
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT version FROM {table} WHERE edit_token = %s OR view_token = %s", [token, token])
        row = cursor.fetchone()
    if row is None:
        find_game(request, token)  # records the miss and raises 404 (or 429)
    if live.shared():
        live.remember(token, row[0])
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

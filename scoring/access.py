"""Who may open a game: its two link tokens, and budgets per client, account and game (docs/manual.md, "Sharing a game").

A wrong token answers 404, like a missing game. Counts live where every worker sees them and no
traffic evicts them: ``AccessMiss`` rows, or settings.SHARED_BUDGETS' own Redis; never raw input as a key."""

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
WINDOWS = {"hands": 60, "changes": 60, "checks": 60}  # kinds counted per minute; every other per WINDOW_SECONDS
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
    "checks": (
        "一分钟内核对的次数太多了，请过一会儿再试。",
        "Too many checks in one minute: wait a moment and try again.",
    ),
    "changes": (
        "一分钟内改动太多了（记分、下注、换座、标已付……），请过一会儿再试。",
        "Too many changes in one minute (hands, bets, seats, paid marks…): wait a moment and try again.",
    ),
}


class TooManyAttempts(Exception):
    """The 429 page (or ``status``) saying ``zh`` and ``en``, raised before anything changed."""

    def __init__(self, zh: str = TOO_MANY[0], en: str = TOO_MANY[1], status: int = 429, kind: str = ""):
        super().__init__(en)
        self.zh, self.en, self.status, self.kind = zh, en, status, kind

    @property
    def seconds(self) -> int:
        """Seconds until the budget's window turns (when a try may pass again)."""
        window = WINDOWS.get(self.kind, WINDOW_SECONDS)
        return window - int(time.time()) % window


def key_of(value: str) -> str:
    """A throttle key for an address (one key however it is spelled), or a digest of anything else, never the text."""
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
    """The client's address: behind ``TRUSTED_PROXIES``, the entry the outermost wrote, counted from the right.

    Entries further left are whatever the client sent; a header with fewer entries counts the connection."""
    header = settings.CLIENT_IP_HEADER
    entries = [entry.strip() for entry in request.META.get(header, "").split(",")] if header else []
    proxies = settings.TRUSTED_PROXIES
    if entries != [""] and len(entries) >= proxies:
        return key_of(entries[-proxies])
    return key_of(request.META.get("REMOTE_ADDR", ""))


def client_ip(request: HttpRequest) -> str | None:
    """``client_of`` when it is an IP address (django-axes' IP column), else REMOTE_ADDR if one, else None."""
    for value in (client_of(request), request.META.get("REMOTE_ADDR", "")):
        try:
            return str(ipaddress.ip_address(value))
        except ValueError:
            continue
    return None


def _window(kind: str = "miss") -> int:
    return int(time.time()) // WINDOWS.get(kind, WINDOW_SECONDS)


def _take(kind: str, key: str) -> bool:
    """Count one of ``kind`` for ``key`` if the window's budget allows: one atomic upsert on PostgreSQL and SQLite."""
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
    """``_take`` in the shared Redis: the counter's name when counted, None when the budget is spent."""
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
    """Count one of each kind for every key, or nothing (TooManyAttempts) when one is spent."""
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
    """Count one request of ``kind``, by account when signed in, else by client address."""
    _spend((kind,), [_account(request) or client_of(request)])


def spend_new_game(request: HttpRequest, *, imported: bool = False) -> None:
    """Before a game is created: the account's cap on games, then the client's and account's budgets."""
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
    """Before a confirmed record, edit or void: the game's budget of writes per minute, whoever writes."""
    _spend(("hands",), [f"game:{game.pk}"])


def spend_change(*, game: Game | None = None, group=None) -> None:
    """Before any other write phones see: the game's or group's changes per minute, since each sends every phone a fresh page."""
    _spend(("changes",), [f"game:{game.pk}"] if game is not None else [f"group:{group.pk}"])


def spend_check(*, game: Game, person: str) -> None:
    """Before a 核对 write (对, 有误, 撤回): the person's own budget in the game, apart from its changes."""
    _spend(("checks",), [f"game:{game.pk}:" + key_of(person)])


def missed(request: HttpRequest) -> None:
    """One more wrong token from this client (a game's or a group's): 429 once too many."""
    _spend(("miss",), [client_of(request)])


@functools.cache
def _game_by_token() -> str:
    """The game a token opens, as raw SQL because every token page runs it and the ORM's build is slower."""
    quote = connection.ops.quote_name
    columns = ", ".join(quote(field.column) for field in Game._meta.concrete_fields)
    table = quote(Game._meta.db_table)
    return f"SELECT {columns} FROM {table} WHERE edit_token = %s OR view_token = %s ORDER BY {quote('id')} LIMIT 1"


def _game_of(row: tuple) -> Game:
    """The ``Game`` of a ``_game_by_token`` row, each value through the ORM's converters."""
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
    """Only the version a token opens, for polls: from the shared cache, else one indexed lookup (404 and limits as ``find_game``)."""
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

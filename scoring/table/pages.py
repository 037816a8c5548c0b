"""Helpers the table's and 牌友圈's views share: the game page's answer, confirms and refusals, the LAN address, QR codes."""

import re
from urllib.parse import urlencode

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.translation import gettext as _
from django_htmx.http import push_url

from scoring import circle, device, services
from scoring.access import claim, load_game
from scoring.forms import ASCII_DIGITS, ascii_int
from scoring.handform import hand_title
from scoring.lang import say
from scoring.models import Game
from scoring.pagecache import game_stamp, render_page
from scoring.people import person_nets
from scoring.replay import PAGE_HANDS, RECENT_HANDS, ReplayError, stored_replay
from scoring.table.presenters import game_context

FORM_TOKEN = re.compile(r"[A-Za-z0-9_-]{0,40}", re.ASCII)  # secrets.token_urlsafe(16), or none
# What a stale confirm's fresh preview leaves out of the form it re-asks, the outbox's fields (static/js/offline.js) too.
ONE_TIME = (
    "csrfmiddlewaretoken",
    "confirm",
    "form_token",
    "next_seq",
    "version",
    "revision",
    "kept",
    "queued",
    "waited",
)


def finished(request: HttpRequest, game: Game, token: str) -> HttpResponse | None:
    """Hands of a finished game stay as they were settled: reopen it first."""
    if game.status == Game.FINISHED:
        messages.info(request, _("牌局已结束；要修改请先在结算页重新打开。"))
        return redirect("settle", token=token)
    return None


def to_game(request: HttpRequest, token: str) -> HttpResponse:
    """The game page after a write: a 302 for a plain POST, the page itself with ``HX-Push-Url`` for htmx (one round trip)."""
    url = reverse("game", args=[token])
    if not request.htmx:
        return redirect(url)
    game, can_edit = load_game(request, token)
    return push_url(game_response(request, game, token, can_edit, here=url), url)


def signed(request: HttpRequest, game: Game, by: str) -> dict:
    """Who writes (this phone's 「我是」, by name, sitting or not) and the game version the confirmed preview was made at."""
    return {by: device.my_name(request, game) or "", "version": posted_version(request)}


def confirming(request: HttpRequest) -> bool:
    """A POST without 「确认」 only refreshes the preview."""
    return request.method == "POST" and request.POST.get("confirm") == "1"


def posted_version(request: HttpRequest) -> int:
    """The game's version the confirmed preview was made at (``unstamped`` has refused a form without one)."""
    return ascii_int(request.POST.get("version", ""), -1)


def unstamped(request: HttpRequest, *names: str) -> str | None:
    """Refuse a confirm lacking ``version`` (or ``revision``): without it a stale preview cannot be told from a fresh one."""
    if all(ASCII_DIGITS.fullmatch(request.POST.get(name, "")) for name in names):
        return None
    return _("这个表单缺少版本信息（可能是旧的页面），什么都没有改。请看新的预览，再确认。")


def people_change(preview: services.Preview) -> list[tuple]:
    """(name, before, after, difference) per person of the evening, 0 where a change brings them in or takes them out."""
    before, after = dict(preview.people_before), dict(preview.people_after)
    names = [*before, *(name for name in after if name not in before)]
    return [(n, before.get(n, 0), after.get(n, 0), after.get(n, 0) - before.get(n, 0)) for n in names]


def other_hands(game: Game, preview: services.Preview, people: list[str]) -> list[dict]:
    """Each other hand a change moves: its 第N局, title and (before, after) per person (None where absent)."""
    rows = []
    for o in preview.others:
        before = person_nets(people, o.names_before, o.before)
        after = person_nets(people, o.names_after, o.after)
        amounts = [None if b is None and a is None else (b or 0, a or 0) for b, a in zip(before, after, strict=True)]
        rows.append(
            {"number": o.number, "title": hand_title(game, o.hand.entry, None, o.names_before), "amounts": amounts}
        )
    return rows


def confirm(request: HttpRequest, token: str, write, done: str, page=None) -> HttpResponse:
    """Run a service write: success or refusal as a message on the game page, a stale preview re-asked, a rules refusal on ``page``."""
    try:
        written = write()
    except ReplayError as error:
        if page is None:
            messages.warning(request, error.message())
            return to_game(request, token)
        page.refuse(error)
        return page.render()
    except services.StalePreview as stale:
        messages.warning(request, say(stale))
        return redirect(answers_url(request))
    except services.Conflict as conflict:
        messages.warning(request, say(conflict))
    else:
        messages.success(request, done)
        if left := getattr(written, "roster_left", None):
            messages.warning(request, circle.roster_full(left))
    return to_game(request, token)


def answers_url(request: HttpRequest) -> str:
    """The entry page's address with the posted answers, less its one-time and empty fields."""
    query = [(k, v) for k in request.POST for v in request.POST.getlist(k) if k not in ONE_TIME and v != ""]
    return f"{request.path}?{urlencode(query)}"


def ledger_context(request: HttpRequest, game: Game, token: str, can_edit: bool, page: int | None) -> dict:
    """The page's ledger from the replay cache: two queries, however long the game."""
    limit, offset = (RECENT_HANDS, 0) if page is None else (PAGE_HANDS, (page - 1) * PAGE_HANDS)
    try:
        ledger, broken = stored_replay(game, limit, offset), None
    except ReplayError as error:  # only if a stored game stopped replaying
        ledger, broken = None, error
    return {**game_context(request, game, token, can_edit, ledger), "broken": broken, "page": page}


def list_page(request: HttpRequest, game: Game) -> int | None:
    """The hand list's page asked for (``?page=N``; ``?all=1`` is 1), or None for the latest; past the last is the last."""
    raw = request.GET.get("page") or ("1" if request.GET.get("all") else "")
    if not (raw.isascii() and raw.isdigit() and 0 < len(raw) <= 6):
        return None
    last_seq = (game.state or {}).get("last_seq")  # none yet: a game stored before the replay cache
    return max(1, int(raw)) if last_seq is None else min(max(1, int(raw)), max(1, -(-last_seq // PAGE_HANDS)))


def ledger_page(
    request: HttpRequest, template: str, game: Game, token: str, can_edit: bool, here: str = ""
) -> HttpResponse:
    """``template`` with the ledger, cached until the game changes, keyed by nothing a query string can vary."""
    me, page = device.my_name(request, game), list_page(request, game)
    here = here or (f"{request.path}?page={page}" if page is not None else request.path)

    def context() -> dict:
        return {**ledger_context(request, game, token, can_edit, page), "here": here}

    box = circle.page_inputs(request, game) if template == "table/game.html" else []  # its 牌友圈 box
    return render_page(request, template, [game_stamp(game), me, here, page, *box], context)


def game_response(request: HttpRequest, game: Game, token: str, can_edit: bool, here: str = "") -> HttpResponse:
    """The game page: its own address's answer, and a write's answer to htmx (``to_game``) at ``here``."""
    response = ledger_page(request, "table/game.html", game, token, can_edit, here)
    device.remember_game(request, response, token)
    claim(request, game, token)
    return response

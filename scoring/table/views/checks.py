"""核对 on the game page: 「到第N局都对」 in one tap, 有误 (with a note) on one hand, and 撤回 of one's own say.

Checks spend the person's own budget (``spend_check``), never the game's changes; a GET of these addresses
(a reload after a refusal) lands on the game page, never on 405."""

import re

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.utils.translation import gettext as _

from scoring import device, services
from scoring.access import spend_check, writable_game
from scoring.forms import CheckForm, refusal
from scoring.lang import pick, say
from scoring.table.outbox import queued_write
from scoring.table.pages import finished, to_game

SEEN = re.compile(r"(?:\d{1,6}\.\d{1,6}(?:,\d{1,6}\.\d{1,6}){0,1999})?", re.ASCII)  # "seq.revision,…" as shown


def checker(request: HttpRequest, token: str) -> tuple[HttpResponse | None, object, str | None]:
    """(an answer that ends here, the game, this phone's 「我是」): a GET, a finished game or no 我是 end here."""
    if request.method != "POST":
        return redirect("game", token=token), None, None
    game = writable_game(request, token)
    if stop := finished(request, game, token):
        return stop, game, None
    me = device.my_name(request, game)
    if me is None:
        messages.warning(request, _("先在页面下方选「我是」，再核对。"))
        return to_game(request, token), game, None
    spend_check(game=game, person=me)  # 429 past this person's checks per minute (never the game's changes)
    return None, game, me


@queued_write
def check(request: HttpRequest, token: str, seq: int) -> HttpResponse:
    """有误 with a note (or 对) on one hand, as this phone's 「我是」."""
    stop, game, me = checker(request, token)
    if stop:
        return stop
    form = CheckForm(request.POST)
    if not form.is_valid():
        messages.warning(request, refusal(form))
        return to_game(request, token)
    try:
        services.check_hand(game=game, seq=seq, person=me, **form.cleaned_data)
    except services.Conflict as conflict:
        messages.warning(request, say(conflict))
    return to_game(request, token)


@queued_write
def check_up_to(request: HttpRequest, token: str) -> HttpResponse:
    """「到第N局都对」: every hand shown up to seq ``upto`` that I played and have not checked, in one write."""
    stop, game, me = checker(request, token)
    if stop:
        return stop
    raw, upto = request.POST.get("seen", ""), request.POST.get("upto", "")
    if not SEEN.fullmatch(raw) or not (upto.isascii() and upto.isdigit() and len(upto) <= 6):
        messages.warning(request, _("这个表单缺少版本信息（可能是旧的页面），什么都没有改。"))
        return to_game(request, token)
    seen = {int(s): int(r) for s, r in (pair.split(".") for pair in raw.split(",") if pair)}
    try:
        done, moved = services.check_hands_up_to(game=game, person=me, upto=int(upto), seen=seen)
    except services.Conflict as conflict:
        messages.warning(request, say(conflict))
        return to_game(request, token)
    if moved:
        numbers = "、".join(map(str, moved))
        messages.warning(
            request, pick(f"第{numbers}局刚被改过，请看新的金额再核对。", f"Hand {numbers} changed: check it again.")
        )
    if done:
        messages.success(request, pick(f"已核对 {len(done)} 局。", f"{len(done)} hands checked."))
    elif not moved:
        messages.info(request, _("没有要核对的局了。"))  # a second tap, or another phone's
    return to_game(request, token)


@queued_write
def take_back(request: HttpRequest, token: str, seq: int) -> HttpResponse:
    """撤回: my 对 or 有误 of hand ``seq`` (a second tap finds nothing and changes nothing)."""
    stop, game, me = checker(request, token)
    if stop:
        return stop
    if services.take_back_check(game=game, seq=seq, person=me):
        messages.info(request, _("已撤回。"))
    return to_game(request, token)

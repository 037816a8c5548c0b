"""Recording a hand (a kept one from offline goes to scoring/table/offline.py) and 下注: every write previews first, and a stale preview's confirm is refused."""

from functools import partial

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from scoring import device, services
from scoring.access import spend_change, spend_hand_write, writable_game
from scoring.forms import BetForm, ascii_int, refusal
from scoring.handform import form_side_for, form_side_of
from scoring.handform.base import BetRefused
from scoring.lang import say
from scoring.replay import ReplayError, table
from scoring.table.handpage import answers, new_hand, no_form, record_page
from scoring.table.offline import record_queued
from scoring.table.outbox import queued_write
from scoring.table.pages import FORM_TOKEN, confirm, confirming, finished, signed, unstamped
from scoring.table.presenters import bet_words


def record(request: HttpRequest, token: str) -> HttpResponse:
    game = writable_game(request, token)
    if queued(request):
        return record_queued(request, game, token)
    form_side = form_side_of(game, request.POST or request.GET)  # looked up once, passed along
    if stop := finished(request, game, token) or no_form(token, form_side):
        return stop
    before, seq = table(game)  # from the replay cache: a new hand is scored on its own
    page = record_page(request, game, token, before, seq, answers(request, game, before, form_side), form_side)
    if page.incomplete():
        return page.render()
    entry, form_token = page.entry(), page.context["form_token"]
    if not FORM_TOKEN.fullmatch(form_token):
        page.form.add_error(None, _("表单已损坏，请重新打开记分页。"))
        return page.render()
    if confirming(request) and (refused := unstamped(request, "version")):
        page.form.add_error(None, refused)
    elif confirming(request):
        spend_hand_write(game=game)  # 429 past the game's writes per minute
        next_seq = ascii_int(request.POST.get("next_seq", ""), 0)
        write = partial(services.record_hand, game=game, entry=entry, fix=page.fix, next_seq=next_seq)
        write = partial(write, form_token=form_token, **signed(request, game, "entered_by"))
        return confirm(request, token, write, _("已记录第%(seq)s局。") % {"seq": page.context["number"]}, page)
    try:
        page.show(services.preview_record(game=game, state=page.state, entry=entry), new_hand(game, seq, entry))
    except ReplayError as error:
        page.refuse(error)
    return page.render()


@require_POST
@queued_write
def bet(request: HttpRequest, token: str) -> HttpResponse:
    """下注 for the next hand from the game page: place or withdraw one 买子/下子 (one tap)."""
    game = writable_game(request, token)
    if stop := finished(request, game, token):
        return stop
    form = BetForm(request.POST, seats=len(game.players))
    if not form.is_valid():
        messages.warning(request, refusal(form))
        return redirect("game", token=token)
    change = partial(form_side_for(game).change_bet, **form.cleaned_data)
    spend_change(game=game)  # 429 past the game's changes per minute
    try:
        services.change_pending(game=game, change=change, what=bet_words(game.seating, **form.cleaned_data))
    except BetRefused as refused:
        messages.warning(request, say(refused))
    except services.Conflict as conflict:
        messages.warning(request, say(conflict))
    return redirect("game", token=token)


@require_POST
@queued_write
def play_on(request: HttpRequest, token: str) -> HttpResponse:
    """接着打 at the agreed length's end: one more 圈 (``services.play_on``); the question goes on every phone."""
    game = writable_game(request, token)
    if stop := finished(request, game, token):
        return stop
    spend_change(game=game)  # 429 past the game's changes per minute
    try:
        length = services.play_on(game=game, by=device.my_name(request, game) or "")
    except services.Conflict as conflict:
        messages.warning(request, say(conflict))
        return redirect("game", token=token)
    if length is None:
        messages.success(request, _("接着打：不再限圈数。"))
    else:
        messages.success(request, _("接着打：共 %(n)s 圈。") % {"n": length})
    return redirect("game", token=token)


def queued(request: HttpRequest) -> bool:
    """A confirm the phone kept offline and sends now (static/js/offline.js): answered in JSON, never a page."""
    return confirming(request) and request.POST.get("queued") == "1"

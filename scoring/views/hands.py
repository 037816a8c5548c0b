"""Recording, editing and voiding hands. Every write previews first, then confirms."""

import re
import secrets
from copy import deepcopy
from urllib.parse import urlencode

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _

from scoring import device, services
from scoring.access import writable_game
from scoring.cache import table
from scoring.engine import ScoringError, score
from scoring.entry import entry_for
from scoring.entry.base import EntryForm
from scoring.forms import VoidForm, ascii_int
from scoring.lang import pick
from scoring.ledger import LedgerError, build
from scoring.models import Game, Hand
from scoring.presenters import hand_row

# Engine field names → the form field that shows the message.
FIELD_OF = {"piao": "piao_player", "piao.player": "piao_player", "feeders": "feeder1"}
FORM_TOKEN = re.compile(r"[A-Za-z0-9_-]{0,40}", re.ASCII)  # secrets.token_urlsafe(16), or none


def finished(request: HttpRequest, game: Game, token: str) -> HttpResponse | None:
    """Hands of a finished game stay as they were settled: reopen it first."""
    if game.status == Game.FINISHED:
        messages.info(request, _("牌局已结束；要修改请先在结算页重新打开。"))
        return redirect("settle", token=token)
    return None


def who(request: HttpRequest, game: Game) -> str:
    seat = device.my_seat(request, game.id)
    return game.players[seat] if seat is not None else ""


def form_error(form: EntryForm, error: LedgerError) -> None:
    field = FIELD_OF.get(error.field, error.field)
    form.add_error(field if field in form.fields else None, error.message())


def state_for(form: EntryForm, before):
    """The table the hand is played at: the derived state, with the form's correction."""
    state = deepcopy(before)
    fix = form.fix(before)
    if fix:
        state.correct(*fix)
    return state, fix


def totals_change(names: list[str], before: list, after: list) -> list[tuple]:
    """(name, total before, total after, difference) for each seat."""
    return [(names[s], before[s], after[s], after[s] - before[s]) for s in range(len(names))]


def render_form(request: HttpRequest, context: dict) -> HttpResponse:
    """The entry page at its step: a question with big buttons, or the preview form."""
    game, form, state = context["game"], context["form"], context["state"]
    kind = entry_for(game)
    names = game.players
    data = form.cleaned_data if hasattr(form, "cleaned_data") else {}
    winner = data.get("winner")
    context.setdefault("step", form.step() if form.is_valid() and request.method == "GET" else "preview")
    context.update(
        kind_template=kind.TEMPLATE,
        dealer_name=names[state.dealer],
        all_seats=list(enumerate(names)),
        winner_name=names[winner] if winner is not None else "",
        **kind.context(game, form, state, game.engine_rules()),
    )
    return render(request, "scoring/hand_form.html", context)


def incomplete(request: HttpRequest, form: EntryForm, missing: dict) -> bool:
    """Not yet a whole hand. A GET walks the tap-by-tap questions; a POST comes from the
    preview form itself, which stays on screen with the missing answer marked."""
    if not form.is_valid():
        return True
    step = form.step()
    if step == "preview":
        return False
    if request.method == "POST":
        form.add_error(step if step in form.fields else None, missing[step])
    return True


def write_then_back(request: HttpRequest, token: str, write, done: str) -> HttpResponse:
    """Run a service write; a refusal (another phone was first, a later hand would break)
    becomes a message on the fresh game page, and so does success."""
    try:
        write()
    except services.Conflict as conflict:
        messages.warning(request, pick(conflict.zh, conflict.en))
    except LedgerError as error:  # the table changed between preview and confirm
        messages.warning(request, error.message())
    else:
        messages.success(request, done)
    return redirect("game", token=token)


def confirming(request: HttpRequest) -> bool:
    """A POST without 「确认」 only refreshes the preview."""
    return request.method == "POST" and request.POST.get("confirm") == "1"


def record(request: HttpRequest, token: str) -> HttpResponse:
    game = writable_game(request, token)
    if stop := finished(request, game, token):
        return stop
    before, seq = table(game)  # from the replay cache: a new hand is scored on its own
    kind = entry_for(game)
    form = kind.Form(request.POST if request.method == "POST" else request.GET, players=game.players)
    url = reverse("record", args=[token])
    context = {
        "game": game,
        "token": token,
        "form": form,
        "mode": "record",
        "state": before,
        "form_url": url,
        "next_seq": seq,
    }
    if incomplete(request, form, kind.MISSING):
        return render_form(request, context)
    state, fix = state_for(form, before)
    context["state"] = state
    entry = form.entry(state, game.engine_rules())
    hand = Hand(game=game, seq=seq, entry=entry, dealer_fix=fix[0] if fix else None, streak_fix=fix[1] if fix else None)
    after = deepcopy(state)
    try:
        result = score(game.engine, game.engine_rules(), after, game.engine.parse_hand(entry))
    except ScoringError as error:
        form_error(form, LedgerError(seq, error))
        return render_form(request, context)
    form_token = request.POST.get("form_token", "")[:40]
    if not FORM_TOKEN.fullmatch(form_token):
        form.add_error(None, _("表单已损坏，请重新打开记分页。"))
        return render_form(request, context)
    if confirming(request):

        def write():
            services.record_hand(
                game=game,
                entry=entry,
                fix=fix,
                next_seq=ascii_int(request.POST.get("next_seq", ""), 0),
                form_token=form_token,
                entered_by=who(request, game),
            )

        return write_then_back(request, token, write, _("已记录第%(seq)s局。") % {"seq": seq})
    context.update(
        row=hand_row(game, hand, result),
        change=totals_change(game.players, before.totals, after.totals),
        next_seq=request.POST.get("next_seq") or seq,
        form_token=request.POST.get("form_token") or secrets.token_urlsafe(16),
    )
    return render_form(request, context)


class VoidedMeanwhile(Exception):
    """The hand to edit or void was voided (on another phone) since this page was opened."""


def stored_hand(hands: list[Hand], seq: int) -> Hand:
    hand = next((h for h in hands if h.seq == seq), None)
    if hand is None:
        raise Http404(_("没有这一局"))
    if hand.voided:
        raise VoidedMeanwhile
    return hand


def voided_meanwhile(request: HttpRequest, token: str, seq: int) -> HttpResponse:
    messages.warning(request, _("第%(seq)s局已被作废。") % {"seq": seq})
    return redirect("game", token=token)


def load_hand(request: HttpRequest, token: str, seq: int):
    """The writable game, its hands, the counted hand ``seq`` (or 404) and the ledger now."""
    game = writable_game(request, token)
    hands = list(game.hands.all())
    return game, hands, stored_hand(hands, seq), build(game, hands)


def posted_revision(data, hand: Hand) -> int:
    return ascii_int(data.get("revision", hand.revision), -1)


def edit(request: HttpRequest, token: str, seq: int) -> HttpResponse:
    try:
        game, hands, hand, ledger = load_hand(request, token, seq)
    except VoidedMeanwhile:
        return voided_meanwhile(request, token, seq)
    if stop := finished(request, game, token):
        return stop
    before = build(game, [h for h in hands if h.seq < seq]).state
    kind = entry_for(game)
    data = request.POST if request.method == "POST" else (request.GET or kind.initial(hand.entry, hand.fix()))
    form = kind.Form(data, players=game.players)
    url = reverse("edit-hand", args=[token, seq])
    context = {
        "game": game,
        "token": token,
        "form": form,
        "ledger": ledger,
        "mode": "edit",
        "hand": hand,
        "state": before,
        "form_url": url,
    }
    context["revision"] = posted_revision(data, hand)
    if incomplete(request, form, kind.MISSING):
        return render_form(request, context)
    state, fix = state_for(form, before)
    context["state"] = state
    changed = services.copy_hand(hand)
    changed.entry = form.entry(state, game.engine_rules())
    changed.dealer_fix, changed.streak_fix = fix if fix else (None, None)
    try:
        after = build(game, hands, changed=changed)
    except LedgerError as error:
        form_error(form, error)
        return render_form(request, context)
    if confirming(request):

        def write():
            services.edit_hand(
                game=game,
                seq=seq,
                revision=context["revision"],
                entry=changed.entry,
                fix=fix,
                edited_by=who(request, game),
            )

        return write_then_back(request, token, write, _("已修改第%(seq)s局，之后的每一局都已重算。") % {"seq": seq})
    context.update(
        row=hand_row(game, changed, after.row(seq).result),
        change=totals_change(game.players, ledger.totals, after.totals),
    )
    return render_form(request, context)


def void(request: HttpRequest, token: str, seq: int) -> HttpResponse:
    try:
        game, hands, hand, ledger = load_hand(request, token, seq)
    except VoidedMeanwhile:
        return voided_meanwhile(request, token, seq)
    if stop := finished(request, game, token):
        return stop
    form = VoidForm(request.POST or None, initial={"reason": request.GET.get("reason", _("记错了"))})
    changed = services.copy_hand(hand)
    changed.voided_at = hand.created_at  # any time: it only marks the hand void for the preview
    context = {
        "game": game,
        "token": token,
        "form": form,
        "hand": hand,
        "row": hand_row(game, hand, ledger.row(seq).result),
    }
    try:
        after = build(game, hands, changed=changed)
    except LedgerError as error:
        return render(request, "scoring/void.html", {**context, "blocked": error.message()})
    context["change"] = totals_change(game.players, ledger.totals, after.totals)
    if request.method == "POST" and form.is_valid():

        def write():
            reason = form.cleaned_data["reason"] or _("作废")
            revision = posted_revision(request.POST, hand)
            services.void_hand(game=game, seq=seq, revision=revision, reason=reason, voided_by=who(request, game))

        return write_then_back(request, token, write, _("第%(seq)s局已作废，之后的每一局都已重算。") % {"seq": seq})
    return render(request, "scoring/void.html", context)


def undo(request: HttpRequest, token: str) -> HttpResponse:
    """撤销上一局: the void page of the last hand that counts."""
    game = writable_game(request, token)
    if stop := finished(request, game, token):
        return stop
    last = game.hands.filter(voided_at__isnull=True).order_by("-seq").first()
    if last is None:
        messages.info(request, _("还没有可以撤销的局。"))
        return redirect("game", token=token)
    return redirect(reverse("void-hand", args=[token, last.seq]) + "?" + urlencode({"reason": _("撤销上一局")}))

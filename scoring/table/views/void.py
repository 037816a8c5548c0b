"""作废 a hand (alone, or with the edits carried from the hand it would break) and 撤销上一局."""

from functools import partial
from urllib.parse import urlencode

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _

from scoring import services
from scoring.access import spend_hand_write, writable_game
from scoring.engine.seating import is_seating
from scoring.forms import VoidForm, ascii_int
from scoring.lang import say
from scoring.models import Game, Hand
from scoring.replay import PAGE_HANDS, RECENT_HANDS, ReplayError, build, number_in, result_from_json
from scoring.table.handpage import gone, load_hand
from scoring.table.outbox import queued_write
from scoring.table.pages import confirm, finished, other_hands, people_change, signed, unstamped
from scoring.table.presenters import bets_text, hand_row
from scoring.table.together import TOGETHER, broken, numbers, opened


def void_alone(request: HttpRequest, token: str, seq: int) -> HttpResponse:
    """作废 on its own: the hand as it stands, with or without its bets kept, and the totals after."""
    game, hands, hand = load_hand(request, token, seq)
    if hand is None or game.status == Game.FINISHED:
        return gone(request, game, token, seq)
    form = VoidForm(request.POST or None, initial={"reason": request.GET.get("reason", _("记错了"))})
    keep = (request.POST if request.method == "POST" else request.GET).get("keep_bets", "1") != "0"
    context = {"game": game, "token": token, "form": form, "hand": hand, "version": game.version, "keep": keep}
    context.update(void_context(game, hands, hand))
    try:
        preview = void_preview(game, hands, hand, before=context["before"], moved=context["moved"] if keep else None)
    except ReplayError as error:
        return render(request, "table/void.html", {**context, **void_blocked(token, hands, error)})
    change = people_change(preview)
    people = [name for name, *_rest in change]
    context.update(change=change, other_hands=other_hands(game, preview, people), other_people=people)
    if request.method == "POST" and form.is_valid():
        if refused := unstamped(request, "version", "revision"):
            form.add_error(None, refused)
            return render(request, "table/void.html", context)
        spend_hand_write(game=game)  # 429 past the game's writes per minute
        revision = ascii_int(request.POST["revision"], -1)
        reason = form.cleaned_data["reason"] or _("作废")
        write = partial(services.void_hand, game=game, seq=seq, revision=revision, reason=reason, keep_bets=keep)
        done = voided_message(hands, hand) % {"seq": context["number"]}
        return confirm(request, token, partial(write, **signed(request, game, "voided_by")), done)
    return render(request, "table/void.html", context)


def void_context(game: Game, hands: list[Hand], hand: Hand) -> dict:
    """The hand as it stands, its 第N局, the table before it and the bets placed before it."""
    before = build(game, [h for h in hands if h.seq < hand.seq]).state
    moved = services.moved_bets(game=game, hands=hands, hand=hand, before=before)
    names = list(before.seating)
    return {
        "row": hand_row(game, hand, result_from_json(hand.result, game.plugin) if hand.result else None, None, names),
        "number": number_in(hands, hand.seq),
        "before": before,
        "moved": moved,
        "bets": bets_text(names, moved.bets) if moved else "",
        "seating": is_seating(hand.entry),
    }


def void_blocked(token: str, hands: list[Hand], error: ReplayError) -> dict:
    """Why the void is refused: the later hand it would break, and the link to that hand."""
    return {"blocked": error.message(), "blocked_seq": error.number, "blocked_url": hand_link(token, hands, error.seq)}


def void_preview(game: Game, hands: list[Hand], hand: Hand, *, before, moved) -> services.Preview:
    """The totals after voiding ``hand``, with or without ``moved`` (its bets kept). Raises ``ReplayError``."""
    changed = services.copy_hand(hand)
    changed.voided_at = hand.created_at  # any time: it only marks the hand void for the preview
    return services.preview_change(game=game, hands=hands, changed=changed, before=before, moved=moved)


def hand_link(token: str, hands: list[Hand], seq: int) -> str:
    """The game page's row of hand ``seq`` (#hand-N), on the whole list's page that holds it when it is older."""
    last = max((h.seq for h in hands), default=0)
    url = reverse("game", args=[token])
    if last - seq >= RECENT_HANDS:
        url += f"?page={(last - seq) // PAGE_HANDS + 1}"
    return f"{url}#hand-{seq}"


def voided_message(hands: list[Hand], hand: Hand) -> str:
    later = any(h.seq > hand.seq and not h.voided for h in hands)
    if is_seating(hand.entry):
        return _("这次换人/换位已作废，之后的每一局都已重算。") if later else _("这次换人/换位已作废。")
    if later:
        return _("第%(seq)s局已作废，之后的每一局都已重算。")
    return _("第%(seq)s局已作废。")


@queued_write
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


@queued_write
def void(request: HttpRequest, token: str, seq: int) -> HttpResponse:
    """作废: alone (the void page), or with the edits carried from the hand it would break."""
    data = request.POST if request.method == "POST" else request.GET
    if not data.get(TOGETHER):
        return void_alone(request, token, seq)
    game, hands, hand = load_hand(request, token, seq)
    if hand is None or game.status == Game.FINISHED:
        return gone(request, game, token, seq)
    if not (earlier := opened(token, data)):
        return broken(request, token, seq, "void-hand")
    keep = data.get("keep_bets", "1") != "0"
    form = VoidForm(request.POST or None, initial={"reason": _("记错了")})
    context = void_together_context(request, game, hands, hand, earlier, keep, form=form, token=token)
    if context.get("blocked") or not (request.method == "POST" and form.is_valid()):
        return render(request, "table/void.html", context)
    if refused := unstamped(request, "version", "revision"):
        form.add_error(None, refused)
        return render(request, "table/void.html", context)
    spend_hand_write(game=game)  # 429 past the game's writes per minute
    reason = form.cleaned_data["reason"] or _("作废")
    mine = services.Change(seq, ascii_int(request.POST["revision"], -1), None, reason=reason, keep_bets=keep)
    changes = [*earlier, mine]
    write = partial(services.change_hands, game=game, changes=changes, **signed(request, game, "by"))
    done = _("已修改第%(edited)s局并作废第%(seq)s局。") % {"edited": numbers(hands, earlier), "seq": context["number"]}
    return confirm(request, token, write, done)


def void_together_context(request, game, hands, hand, earlier, keep, **context) -> dict:
    """The void page's context with the ``earlier`` edits previewed with the void."""
    context.update(game=game, hand=hand, version=game.version, keep=keep, together=numbers(hands, earlier))
    context.update(void_context(game, hands, hand), with_changes=request.GET.get(TOGETHER) or request.POST[TOGETHER])
    changes = [*earlier, services.Change(hand.seq, hand.revision, None, keep_bets=keep)]
    try:
        preview = services.preview_changes(game=game, hands=hands, changes=changes)
    except ReplayError as error:
        return {**context, **void_blocked(context["token"], hands, error)}
    except services.Conflict as conflict:
        return {**context, "blocked": say(conflict), "blocked_seq": number_in(hands, hand.seq), "blocked_url": ""}
    change = people_change(preview)
    people = [name for name, *_rest in change]
    return {**context, "change": change, "other_hands": other_hands(game, preview, people), "other_people": people}

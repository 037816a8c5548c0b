"""A hand kept offline and sent now (docs/offline.md "On the server"): recorded after whatever is there, or held; answered in JSON."""

from django.db.models import Q
from django.http import HttpRequest, JsonResponse
from django.utils.translation import gettext as _

from scoring import device, services
from scoring.access import TooManyAttempts, spend_hand_write
from scoring.engine.points import from_json
from scoring.engine.seating import is_seating
from scoring.forms import ascii_int
from scoring.handform import form_side_of
from scoring.handform.seating import recordable
from scoring.lang import pick, say, table_words
from scoring.models import Game, Hand
from scoring.replay import ReplayError, build, table
from scoring.table import kept
from scoring.table.handpage import HandPage, prefilled
from scoring.table.held import answer_refused, drop_queued, held_json
from scoring.table.pages import FORM_TOKEN


def record_queued(request: HttpRequest, game: Game, token: str) -> JsonResponse:
    """A hand entered offline, recorded after whatever is there now or held (docs/offline.md "On the server")."""
    form_side = form_side_of(game, request.POST)  # looked up once, passed along
    if refused := queued_refusal(request, game, form_side):
        return refused
    form_token, answer = request.POST.get("form_token", ""), request.POST.get("answer", "")
    agreed = kept.agreed_of(request.POST, game, form_token)
    if answer == "drop":
        return drop_queued(game, form_token, agreed)
    if answer and (answer not in kept.ANSWERS or agreed is None or kept.ANSWERS[answer] != agreed.kind):
        return answer_refused()
    before, _seq = table(game)
    data = queued_answers(request, game, before, form_side)
    page = HandPage(request, game, before, data, form_side, token=token, mode="record")
    if page.incomplete():
        return refused_json(form_reasons(page.form))
    entry = page.entry()
    try:
        spend_hand_write(game=game)  # past the game's writes per minute: said on the hand's row
    except TooManyAttempts as budget:
        return JsonResponse({"ok": False, "reason": pick(budget.zh, budget.en), "budget": True}, status=429)
    next_seq = ascii_int(request.POST.get("next_seq", ""), 0)
    at = kept_table(request, game, before, next_seq, form_side)
    hold = kept.Hold(entry, at, agreed if answer else None)
    by = device.my_name(request, game) or ""
    try:
        hand = services.record_hand(
            game=game,
            entry=entry,
            fix=page.fix,
            next_seq=next_seq,
            form_token=form_token,
            entered_by=by,
            queued=True,
            hold=hold,
        )
    except services.Held as held:
        return held_json(request, game, token, entry, at, held, hold, form_side)
    except ReplayError as error:
        return refused_json(table_words(error.message()))
    except services.AlreadyRecorded as done:
        return already_json(game, done.hand)
    except services.Conflict as conflict:
        return refused_json(say(conflict))
    number = game.number_of(hand.seq)
    words = queued_words(game, hand, waited=request.POST.get("waited") != "0")
    return JsonResponse({"ok": True, "already": False, "seq": hand.seq, "number": number, **words})


def kept_table(request: HttpRequest, game: Game, now, next_seq: int, form_side) -> kept.Kept:
    """The table a queued hand was kept at: its stamp's, else the table at its ``next_seq`` as the hands stand now."""
    post, last = request.POST, game.state["last_seq"] + 1
    seq = next_seq if 0 < next_seq <= last else last
    data = kept.stamp_of(post, game)
    since = data["s"] if data and 0 < data["s"] <= seq else seq
    mine = kept.seqs(post.get("mine", ""))
    own = sorted(n for n in mine if since <= n < last)
    if own:  # the phone's own hands landed since its stamp: the table it knew is the stamp's and those
        return known_table(request, game, since, own, mine, form_side)
    if data and "n" in data:  # the amounts the phone showed on its preview
        return kept.Kept(since, data["w"], data["w"][data["d"]], [from_json(n) for n in data["n"]], mine)
    state = now if seq == last else build(game, list(game.hands.filter(seq__lt=seq))).state
    pending = data["p"] if data and isinstance(data.get("p"), dict) and data["s"] == seq else game.pending
    names = list(state.seating)
    return kept.Kept(since, names, names[state.dealer], amounts_at(request, game, state, pending, form_side), mine)


def known_table(request: HttpRequest, game: Game, since: int, own: list[int], mine: set[int], form_side) -> kept.Kept:
    """The table a phone knew when it kept a hand behind its own (docs/offline.md "Held"): the hands before
    its stamp and its own hands landed since, never another phone's; the bets are the table's now."""
    hands = game.hands.filter(Q(seq__lt=since) | Q(seq__in=own)).order_by("seq")
    state = build(game, list(hands)).state
    names = list(state.seating)
    amounts = amounts_at(request, game, state, game.pending, form_side)
    return kept.Kept(since, names, names[state.dealer], amounts, mine)


def amounts_at(request: HttpRequest, game: Game, state, pending, form_side) -> list | None:
    """Each seat's amount of the posted hand at ``state`` with bets ``pending``; None when it is no hand there."""
    data = request.POST
    if data.get("from_link") == "1":
        data = form_side.prefill(data, pending, state, game.house_rules())
    page = HandPage(request, game, state, data, form_side, drawn=False, mode="record")
    if page.incomplete():
        return None
    try:
        return services.preview_record(game=game, state=page.state, entry=page.entry()).result.net
    except ReplayError:
        return None


def queued_refusal(request: HttpRequest, game: Game, form_side) -> JsonResponse | None:
    """Why a queued hand is refused before its answers are read (finished, a seating, a broken token), else None."""
    if game.status == Game.FINISHED:
        return refused_json(_("牌局已结束；要修改请先在结算页重新打开。"))
    if not recordable(form_side):
        return refused_json(_("换人/换位需要联网，在换人/换位页上做。"))
    form_token = request.POST.get("form_token", "")
    if not form_token or not FORM_TOKEN.fullmatch(form_token):
        return refused_json(_("表单已损坏，请重新打开记分页。"))
    return None


def already_json(game: Game, hand: Hand) -> JsonResponse:
    """A queued hand sent again (its form token made ``hand``): named, not recorded twice."""
    number = game.number_of(hand.seq)
    message = _("这台手机存着的第%(seq)s局已经记上了，没有重复记录。") % {"seq": number}
    return JsonResponse({"ok": True, "already": True, "seq": hand.seq, "number": number, "message": message})


def queued_answers(request: HttpRequest, game: Game, before, form_side):
    """A queued hand's answers; one kept from a link (``from_link=1``) gets the game page's bets, as a GET would."""
    if request.POST.get("from_link") == "1":
        return prefilled(game, before, request.POST, form_side)
    return request.POST


def queued_words(game: Game, hand: Hand, waited: bool = True) -> dict:
    """What the phone says once its hand is in, naming the hands recorded meanwhile (``passed``);
    ``waited``: the hand was kept on the phone a while (a failure, no network), else it went at once."""
    number = game.number_of(hand.seq)
    if not hand.passed and not waited:
        return {"message": _("已记录第%(seq)s局。") % {"seq": number}, "moved": False}
    if not hand.passed:
        return {"message": _("存在这台手机上的一局已记上，是第%(seq)s局。") % {"seq": number}, "moved": False}
    done = []
    for other in hand.passed:
        if is_seating(other.entry):
            words = _("%(name)s换了人/换了位") if other.entered_by else _("别的手机换了人/换了位")
        else:
            words = _("%(name)s记了第%(seq)s局") if other.entered_by else _("别的手机记了第%(seq)s局")
        done.append(words % {"name": other.entered_by, "seq": game.number_of(other.seq)})
    who = pick("、", ", ").join(done)
    if not waited:
        return {"message": _("刚才%(who)s；你记的排在第%(seq)s局。") % {"who": who, "seq": number}, "moved": True}
    return {
        "message": _("这一局存在你手机上时，%(who)s；你记的已排在第%(seq)s局。") % {"who": who, "seq": number},
        "moved": True,
    }


def refused_json(reason: str) -> JsonResponse:
    """A queued hand the server will not record: the phone keeps it, with ``reason``."""
    return JsonResponse({"ok": False, "reason": reason}, status=409)


def form_reasons(form) -> str:
    """Every refusal of an entry form, as one line."""
    return " ".join(str(e) for errors in form.errors.values() for e in errors) or _("这一局还没填完。")

"""Recording, editing and voiding hands: every write previews first, and a stale preview's confirm is refused."""

import secrets
from copy import deepcopy
from functools import partial
from urllib.parse import urlencode

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.cache import patch_vary_headers
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from scoring import device, services
from scoring.access import spend_change, spend_hand_write, writable_game
from scoring.engine.points import from_json
from scoring.engine.seating import is_seating
from scoring.forms import BetForm, VoidForm, ascii_int, refusal
from scoring.handform import form_side_for, form_side_of
from scoring.handform.base import BetRefused
from scoring.handform.seating import recordable
from scoring.lang import pick, say, table_words
from scoring.models import Game, Hand
from scoring.partial import wants_part
from scoring.replay import PAGE_HANDS, RECENT_HANDS, ReplayError, build, number_in, result_from_json, table
from scoring.table import kept
from scoring.table.pages import (
    FORM_TOKEN,
    answers_url,
    confirm,
    confirming,
    finished,
    other_hands,
    people_change,
    signed,
    unstamped,
)
from scoring.table.presenters import bet_words, bets_text, hand_row
from scoring.table.views.held import answer_refused, drop_queued, held_json

# How long the phone's own cache keeps a step of the record flow fetched by htmx (see render).
PRELOAD_SECONDS = 30


class HandPage:
    """The entry page of one hand (record or edit): its form at the step its answers reach, and the preview once whole."""

    def __init__(self, request: HttpRequest, game: Game, before, data, drawn: bool = True, **context):
        """``drawn``: the page may be drawn (else its form is only validated and read)."""
        self.request, self.game, self.module = request, game, form_side_of(game, data)
        self.names = list(before.seating)  # who sits at the hand's table
        self.form = self.module.Form(data, players=self.names, streak=before.streak, drawn=drawn)
        self.before, self.state, self.fix = before, before, None
        self.context = {"game": game, "form": self.form, **context}

    def incomplete(self) -> bool:
        """Not yet a whole hand: a GET walks the questions; a POST keeps the preview form with the missing answer marked."""
        if not self.form.is_valid():
            return True
        step = self.form.step()
        if step != "preview" and self.request.method == "POST":
            self.form.add_error(step if step in self.form.fields else None, self.module.MISSING[step])
        return step != "preview"

    def entry(self) -> dict:
        """The contract entry, at the table with the form's dealer/连庄 correction applied."""
        self.fix = self.form.fix(self.before)
        if self.fix:
            self.state = deepcopy(self.before)
            self.state.correct(*self.fix)
        return self.form.entry(self.state, self.game.house_rules())

    def refuse(self, error: ReplayError) -> None:
        """The reason beside the field it marks; on a preview an unmet ``REQUIREMENTS`` entry is a plain note instead."""
        if not confirming(self.request) and error.field in self.module.REQUIREMENTS:
            self.context["requirement"] = table_words(say(error.error))
            return
        field = self.module.FIELD_OF.get(error.field, error.field)
        self.form.add_error(field if field in self.form.fields else None, error.message())

    def show(self, preview: services.Preview, hand: Hand) -> None:
        row = hand_row(self.game, hand, preview.result, names=self.names)
        change = people_change(preview)
        people = [name for name, *_rest in change]
        others = other_hands(self.game, preview, people)
        self.context.update(row=row, change=change, other_hands=others, other_people=people, version=self.game.version)
        if self.context.get("mode") == "record":  # what a phone keeping it offline showed (scoring/table/kept.py)
            self.context["kept"] = kept.stamp(self.game, self.context["next_seq"], self.state, preview.result.net)

    def choice(self) -> bool:
        """A question answered by a tap on a plain link, which scoring/table/views/steps.py sends ahead."""
        return self.form.is_valid() and self.form.step() not in self.form.FORM_STEPS

    def fill(self) -> str:
        """The page's context at the step its answers reach, and that step."""
        valid = self.form.is_valid()  # validated once, whoever asks first
        names, data = self.names, getattr(self.form, "cleaned_data", {})  # none when unbound
        winner = data.get("winner")
        step = self.form.step() if valid and self.request.method == "GET" else "preview"
        self.context.update(
            step=step,
            state=self.state,
            entry_template=self.module.TEMPLATE,
            dealer_name=names[self.state.dealer],
            all_seats=list(enumerate(names)),
            winner_name=names[winner] if winner is not None else "",
            **self.module.context(self.game, self.form, self.state, self.game.house_rules()),
        )
        return step

    def render(self) -> HttpResponse:
        """A question or the preview form; 「更新预览」 (a boosted POST) gets the whole page at its answers' address."""
        step = self.fill()
        posted = self.request.method == "POST"
        part = posted and step == "preview" and wants_part(self.request)
        response = render(self.request, self.module.PARTIAL if part else "table/hand_form.html", self.context)
        if posted and not part and self.request.htmx:
            response["HX-Push-Url"] = answers_url(self.request)
        if self.preloadable():
            # Lets htmx's click find the step the preload extension fetched on touchstart; safe since ``v`` changes on every write.
            response["Cache-Control"] = f"private, max-age={PRELOAD_SECONDS}"
            patch_vary_headers(response, ["HX-Request", "Cookie"])
        return response

    def preloadable(self) -> bool:
        request = self.request
        return (
            request.method == "GET"
            and bool(request.htmx)
            and self.context.get("mode") == "record"
            and request.GET.get("v") == str(self.game.version)
        )


def no_form(request: HttpRequest, game: Game, token: str, data) -> HttpResponse | None:
    """The seating page, for an entry module with no form here (换人/换位 has its own: scoring/table/views/seating.py)."""
    if recordable(form_side_of(game, data)):
        return None
    return redirect("seating", token=token)


def record_page(
    request: HttpRequest,
    game: Game,
    token: str,
    before,
    seq: int,
    data,
    form_url: str | None = None,
    drawn: bool = True,
) -> HandPage:
    """The record page of hand ``seq`` at ``before``; ``form_url`` spares the step bundle a reverse per page."""
    form_token = data.get("form_token") or secrets.token_urlsafe(16)
    page = HandPage(request, game, before, data, drawn, token=token, mode="record", next_seq=seq, form_token=form_token)
    page.context.update(form_url=form_url or reverse("record", args=[token]), number=game.state["active"] + 1)
    return page


def record(request: HttpRequest, token: str) -> HttpResponse:
    game = writable_game(request, token)
    if queued(request):
        return record_queued(request, game, token)
    if stop := finished(request, game, token) or no_form(request, game, token, request.POST or request.GET):
        return stop
    before, seq = table(game)  # from the replay cache: a new hand is scored on its own
    page = record_page(request, game, token, before, seq, answers(request, game, before))
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


def queued(request: HttpRequest) -> bool:
    """A confirm the phone kept offline and sends now (static/js/offline.js): answered in JSON, never a page."""
    return confirming(request) and request.POST.get("queued") == "1"


def record_queued(request: HttpRequest, game: Game, token: str) -> JsonResponse:
    """A hand entered offline, recorded after whatever is there now or held (docs/offline.md "On the server")."""
    if refused := queued_refusal(request, game):
        return refused
    form_token, answer = request.POST.get("form_token", ""), request.POST.get("answer", "")
    agreed = kept.agreed_of(request.POST, game, form_token)
    if answer == "drop":
        return drop_queued(game, form_token, agreed)
    if answer and (answer not in kept.ANSWERS or agreed is None or kept.ANSWERS[answer] != agreed.kind):
        return answer_refused()
    before, _seq = table(game)
    page = HandPage(request, game, before, queued_answers(request, game, before), token=token, mode="record")
    if page.incomplete():
        return refused_json(form_reasons(page.form))
    entry = page.entry()
    spend_hand_write(game=game)  # 429 past the game's writes per minute: the phone tries later
    next_seq = ascii_int(request.POST.get("next_seq", ""), 0)
    at = kept_table(request, game, before, next_seq)
    check = kept.Check(entry, at, agreed if answer else None)
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
            hold=check,
        )
    except services.Held as held:
        return held_json(request, game, token, entry, at, held, check)
    except ReplayError as error:
        return refused_json(table_words(error.message()))
    except services.AlreadyRecorded as done:
        return already_json(game, done.hand)
    except services.Conflict as conflict:
        return refused_json(say(conflict))
    number = game.number_of(hand.seq)
    return JsonResponse({"ok": True, "already": False, "seq": hand.seq, "number": number, **queued_words(game, hand)})


def kept_table(request: HttpRequest, game: Game, now, next_seq: int) -> kept.Kept:
    """The table a queued hand was kept at: its stamp's, else the table at its ``next_seq`` as the hands stand now."""
    post, last = request.POST, game.state["last_seq"] + 1
    seq = next_seq if 0 < next_seq <= last else last
    data = kept.stamp_of(post, game)
    since = data["s"] if data and 0 < data["s"] <= seq else seq
    mine = kept.seqs(post.get("mine", ""))
    if data and "n" in data:  # the amounts the phone showed on its preview
        return kept.Kept(since, data["w"], data["w"][data["d"]], [from_json(n) for n in data["n"]], mine)
    state = now if seq == last else build(game, list(game.hands.filter(seq__lt=seq))).state
    pending = data["p"] if data and isinstance(data.get("p"), dict) and data["s"] == seq else game.pending
    names = list(state.seating)
    return kept.Kept(since, names, names[state.dealer], amounts_at(request, game, state, pending), mine)


def amounts_at(request: HttpRequest, game: Game, state, pending) -> list | None:
    """Each seat's amount of the posted hand at ``state`` with bets ``pending``; None when it is no hand there."""
    data = request.POST
    if data.get("from_link") == "1":
        data = form_side_of(game, data).prefill(data, pending, state, game.house_rules())
    page = HandPage(request, game, state, data, drawn=False, mode="record")
    if page.incomplete():
        return None
    try:
        return services.preview_record(game=game, state=page.state, entry=page.entry()).result.net
    except ReplayError:
        return None


def queued_refusal(request: HttpRequest, game: Game) -> JsonResponse | None:
    """Why a queued hand is refused before its answers are read (finished, a seating, a broken token), else None."""
    if game.status == Game.FINISHED:
        return refused_json(_("牌局已结束；要修改请先在结算页重新打开。"))
    if not recordable(form_side_of(game, request.POST)):
        return refused_json(_("换人/换位需要联网，在换人/换位页上做。"))
    form_token = request.POST.get("form_token", "")
    if not form_token or not FORM_TOKEN.fullmatch(form_token):
        return refused_json(_("表单已损坏，请重新打开记分页。"))
    return None


def already_json(game: Game, hand: Hand) -> JsonResponse:
    """A queued hand sent again (its form token made ``hand``): named, not recorded twice."""
    number = game.number_of(hand.seq)
    message = _("离线时记的第%(seq)s局已经同步过了，没有重复记录。") % {"seq": number}
    return JsonResponse({"ok": True, "already": True, "seq": hand.seq, "number": number, "message": message})


def queued_answers(request: HttpRequest, game: Game, before):
    """A queued hand's answers; one kept from a link (``from_link=1``) gets the game page's bets, as a GET would."""
    if request.POST.get("from_link") == "1":
        return prefilled(game, before, request.POST)
    return request.POST


def queued_words(game: Game, hand: Hand) -> dict:
    """What the phone says once its offline hand is in, naming the hands recorded meanwhile (``passed``)."""
    number = game.number_of(hand.seq)
    if not hand.passed:
        return {"message": _("离线时记的一局已同步，是第%(seq)s局。") % {"seq": number}, "moved": False}
    done = []
    for other in hand.passed:
        if is_seating(other.entry):
            words = _("%(name)s换了人/换了位") if other.entered_by else _("别的手机换了人/换了位")
        else:
            words = _("%(name)s记了第%(seq)s局") if other.entered_by else _("别的手机记了第%(seq)s局")
        done.append(words % {"name": other.entered_by, "seq": game.number_of(other.seq)})
    who = pick("、", ", ").join(done)
    return {"message": _("在你离线时，%(who)s；你记的已排在第%(seq)s局。") % {"who": who, "seq": number}, "moved": True}


def refused_json(reason: str) -> JsonResponse:
    """A queued hand the server will not record: the phone keeps it, with ``reason``."""
    return JsonResponse({"ok": False, "reason": reason}, status=409)


def form_reasons(form) -> str:
    """Every refusal of an entry form, as one line."""
    return " ".join(str(e) for errors in form.errors.values() for e in errors) or _("这一局还没填完。")


def answers(request: HttpRequest, game: Game, before):
    """The form's answers: a POST's, or a GET's with the bets placed on the game page filled in."""
    if request.method == "POST":
        return request.POST
    return prefilled(game, before, request.GET)


def prefilled(game: Game, before, query):
    """A GET's answers ``query`` with the bets placed on the game page filled in."""
    return form_side_of(game, query).prefill(query, game.pending, before, game.house_rules())


@require_POST
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


def new_hand(game: Game, seq: int, entry: dict) -> Hand:
    return Hand(game=game, seq=seq, entry=entry)


def load_hand(request: HttpRequest, token: str, seq: int) -> tuple[Game, list[Hand], Hand | None]:
    """The writable game, its hands and hand ``seq``, or None when another phone voided it meanwhile (404 if none)."""
    game = writable_game(request, token)
    hands = list(game.hands.all())
    hand = next((h for h in hands if h.seq == seq), None)
    if hand is None:
        raise Http404(_("没有这一局"))
    return game, hands, None if hand.voided else hand


def gone(request: HttpRequest, game: Game, token: str, seq: int) -> HttpResponse | None:
    """The page to answer instead, when the hand was voided meanwhile or the game finished."""
    if stop := finished(request, game, token):
        return stop
    messages.warning(request, _("第%(seq)s局已被作废。") % {"seq": game.number_of(seq)})
    return redirect("game", token=token)


def edited_message(hands: list[Hand], seq: int) -> str:
    if any(h.seq > seq and not h.voided for h in hands):
        return _("已修改第%(seq)s局，之后的每一局都已重算。")
    return _("已修改第%(seq)s局。")


def void(request: HttpRequest, token: str, seq: int) -> HttpResponse:
    game, hands, hand = load_hand(request, token, seq)
    if hand is None or game.status == Game.FINISHED:
        return gone(request, game, token, seq)
    form = VoidForm(request.POST or None, initial={"reason": request.GET.get("reason", _("记错了"))})
    keep = (request.POST if request.method == "POST" else request.GET).get("keep_bets", "1") != "0"
    context = {"game": game, "token": token, "form": form, "hand": hand, "version": game.version, "keep": keep}
    context.update(void_context(game, hands, hand))
    try:
        preview = void_preview(game, hands, hand, before=context["before"], carry=context["carry"] if keep else None)
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
    carry = services.carried_bets(game=game, hands=hands, hand=hand, before=before)
    names = list(before.seating)
    return {
        "row": hand_row(game, hand, result_from_json(hand.result, game.plugin) if hand.result else None, None, names),
        "number": number_in(hands, hand.seq),
        "before": before,
        "carry": carry,
        "bets": bets_text(names, carry.bets) if carry else "",
        "seating": is_seating(hand.entry),
    }


def void_blocked(token: str, hands: list[Hand], error: ReplayError) -> dict:
    """Why the void is refused: the later hand it would break, and the link to that hand."""
    return {"blocked": error.message(), "blocked_seq": error.number, "blocked_url": hand_link(token, hands, error.seq)}


def void_preview(game: Game, hands: list[Hand], hand: Hand, *, before, carry) -> services.Preview:
    """The totals after voiding ``hand``, with or without ``carry`` (its bets kept). Raises ``ReplayError``."""
    changed = services.copy_hand(hand)
    changed.voided_at = hand.created_at  # any time: it only marks the hand void for the preview
    return services.preview_change(game=game, hands=hands, changed=changed, before=before, carry=carry)


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

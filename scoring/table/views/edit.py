"""修改 a hand: the record flow started from the stored answers (marked 原来), ending in the same preview.

An edit that breaks a later hand offers to fix or void it too: the changes so far ride signed in
``with``, and the last page confirms them at once (``services.change_hands``)."""

from functools import partial
from urllib.parse import urlencode

from django.contrib import messages
from django.core import signing
from django.http import HttpRequest, HttpResponse, QueryDict
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _

from scoring import services
from scoring.access import spend_hand_write
from scoring.engine.seating import is_seating
from scoring.forms import VoidForm, ascii_int
from scoring.handform import form_side_of
from scoring.lang import pick, say
from scoring.models import Game, Hand
from scoring.replay import ReplayError, build, number_in
from scoring.table.pages import confirm, confirming, other_hands, people_change, signed, unstamped
from scoring.table.views import hands as hand_views
from scoring.table.views.seating import seating

TOGETHER = "with"  # the field of the changes confirmed together with this page's
SALT = "scoring.edit.together"


class EditPage(hand_views.HandPage):
    """The entry page of a stored hand, with the changes confirmed with it (``earlier``) and a broken later hand (``blocked``)."""

    def __init__(self, request, game, before, data, *, hands, hand, earlier, **context):
        super().__init__(request, game, before, data, **context)
        self.hands, self.hand, self.earlier = hands, hand, earlier
        module = form_side_of(game, hand.entry)
        self.context.update(original=module.initial(hand.entry, hand.fix()), together=numbers(hands, earlier))
        self.context["with_changes"] = data.get(TOGETHER, "") if earlier else ""

    def change(self) -> services.Change:
        return services.Change(self.hand.seq, self.context["revision"], self.entry(), self.fix)

    def refuse(self, error: ReplayError) -> None:
        """A later hand this edit breaks: named, with the two ways on; anything else as entry says it."""
        token, changes = self.context["token"], [*self.earlier, self.change()]
        later = error.seq > self.hand.seq and all(c.seq != error.seq for c in changes)
        if not later or len(changes) >= services.MAX_TOGETHER:
            return super().refuse(error)
        query = "?" + urlencode({TOGETHER: sealed(token, changes)})
        self.context["blocked"] = {
            "message": error.message(),
            "number": error.number,
            "fix_url": reverse("edit-hand", args=[token, error.seq]) + query,
            "void_url": reverse("void-hand", args=[token, error.seq]) + query,
        }


def sealed(token: str, changes: list[services.Change]) -> str:
    rows = [[c.seq, c.revision, c.entry, list(c.fix) if c.fix else None, c.reason, c.keep_bets] for c in changes]
    return signing.dumps(rows, salt=f"{SALT}:{token}", compress=True)


def opened(token: str, data) -> list[services.Change] | None:
    """The changes ``data`` carries to confirm together ([] for none), or None when they are broken."""
    raw = data.get(TOGETHER, "")
    if not raw:
        return []
    try:
        rows = signing.loads(raw, salt=f"{SALT}:{token}")
        if len(rows) >= services.MAX_TOGETHER:
            return None
        return [services.Change(s, r, e, tuple(f) if f else None, reason, keep) for s, r, e, f, reason, keep in rows]
    except (signing.BadSignature, TypeError, ValueError):
        return None


def numbers(hands: list[Hand], changes: list[services.Change]) -> str:
    """「1、3」: the 第N局 of ``changes``, as the confirm says them."""
    return pick("、", ", ").join(str(number_in(hands, c.seq)) for c in changes)


def answers(request: HttpRequest, game: Game, hand: Hand):
    """A POST's or GET's answers, or for the first question the stored hand's less those asked again."""
    query = request.POST if request.method == "POST" else request.GET
    if set(query) - {TOGETHER}:
        return query
    module = form_side_of(game, hand.entry)
    start = QueryDict(mutable=True)
    for key, value in module.edit_start(module.initial(hand.entry, hand.fix())).items():
        start.setlist(key, [str(v) for v in value] if isinstance(value, list) else [str(value)])
    if TOGETHER in query:
        start[TOGETHER] = query[TOGETHER]
    return start


def table_before(game: Game, hands: list[Hand], seq: int, earlier: list[services.Change]):
    """The table hand ``seq`` is played at, with the ``earlier`` changes made. Raises ``Conflict``."""
    now = services.changed_hands(game, hands, earlier)[0] if earlier else hands
    return build(game, [h for h in now if h.seq < seq]).state


def broken(request: HttpRequest, token: str, seq: int, view: str = "edit-hand") -> HttpResponse:
    messages.warning(request, _("一起修改的链接已损坏或过期，什么都没有改。请重新打开这一局。"))
    return redirect(view, token=token, seq=seq)


def edit(request: HttpRequest, token: str, seq: int) -> HttpResponse:
    game, hands, hand = hand_views.load_hand(request, token, seq)
    if hand is None or game.status == Game.FINISHED:
        return hand_views.gone(request, game, token, seq)
    if is_seating(hand.entry):  # 换人/换位 is changed on its own page
        return seating(request, token, hand=hand, game=game, hands=hands)
    data = answers(request, game, hand)
    if (earlier := opened(token, data)) is None:
        return broken(request, token, seq)
    try:
        before = table_before(game, hands, seq, earlier)
    except services.Conflict as conflict:
        messages.warning(request, say(conflict))
        return redirect("edit-hand", token=token, seq=seq)
    revision = ascii_int(data.get("revision", hand.revision), -1)
    page = EditPage(request, game, before, data, hands=hands, hand=hand, earlier=earlier, token=token, mode="edit")
    page.context.update(
        revision=revision, form_url=reverse("edit-hand", args=[token, seq]), number=number_in(hands, seq)
    )
    if page.incomplete():
        return page.render()
    if confirming(request) and (refused := unstamped(request, "version", "revision")):
        page.form.add_error(None, refused)
    elif confirming(request):
        return confirm_edit(request, token, page)
    return preview_edit(page)


def confirm_edit(request: HttpRequest, token: str, page: EditPage) -> HttpResponse:
    """确认修改: this hand alone (``services.edit_hand``), or with the changes carried, at once."""
    spend_hand_write(game=page.game)  # 429 past the game's writes per minute
    game, hands, change = page.game, page.hands, page.change()
    if page.earlier:
        changes = [*page.earlier, change]
        write = partial(services.change_hands, game=game, changes=changes, **signed(request, game, "by"))
        done = _("已一起修改第%(seqs)s局，之后的每一局都已重算。") % {"seqs": numbers(hands, changes)}
    else:
        write = partial(services.edit_hand, game=game, seq=change.seq, revision=change.revision, entry=change.entry)
        write = partial(write, fix=change.fix, **signed(request, game, "edited_by"))
        done = hand_views.edited_message(hands, change.seq) % {"seq": page.context["number"]}
    return confirm(request, token, write, done, page)


def preview_edit(page: EditPage) -> HttpResponse:
    """The preview of this edit, with the changes carried; a refusal says why (or offers the way on)."""
    change = page.change()
    changed = services.copy_hand(page.hand)
    changed.entry, (changed.dealer_fix, changed.streak_fix) = change.entry, change.fix or (None, None)
    game, hands = page.game, page.hands
    try:
        if page.earlier:
            preview = services.preview_changes(game=game, hands=hands, changes=[*page.earlier, change])
        else:
            preview = services.preview_change(game=game, hands=hands, changed=changed, before=page.before)
        page.show(preview, changed)
    except ReplayError as error:
        page.refuse(error)
    except services.Conflict as conflict:
        page.form.add_error(None, say(conflict))
    return page.render()


def void(request: HttpRequest, token: str, seq: int) -> HttpResponse:
    """作废: alone (the void page), or with the edits carried from the hand it would break."""
    data = request.POST if request.method == "POST" else request.GET
    if not data.get(TOGETHER):
        return hand_views.void(request, token, seq)
    game, hands, hand = hand_views.load_hand(request, token, seq)
    if hand is None or game.status == Game.FINISHED:
        return hand_views.gone(request, game, token, seq)
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
    context.update(
        hand_views.void_context(game, hands, hand), with_changes=request.GET.get(TOGETHER) or request.POST[TOGETHER]
    )
    changes = [*earlier, services.Change(hand.seq, hand.revision, None, keep_bets=keep)]
    try:
        preview = services.preview_changes(game=game, hands=hands, changes=changes)
    except ReplayError as error:
        return {**context, **hand_views.void_blocked(context["token"], hands, error)}
    except services.Conflict as conflict:
        return {**context, "blocked": say(conflict), "blocked_seq": number_in(hands, hand.seq), "blocked_url": ""}
    change = people_change(preview)
    people = [name for name, *_rest in change]
    return {**context, "change": change, "other_hands": other_hands(game, preview, people), "other_people": people}

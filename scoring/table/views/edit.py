"""修改 a hand: the record flow started from the stored answers (marked 原来), ending in the same preview.

An edit that breaks a later hand offers to fix or void it too: the changes so far ride signed in
``with``, and the last page confirms them at once (``services.change_hands``)."""

from functools import partial
from urllib.parse import urlencode

from django.contrib import messages
from django.http import HttpRequest, HttpResponse, QueryDict
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.translation import gettext as _

from scoring import services
from scoring.access import spend_hand_write
from scoring.engine.seating import is_seating
from scoring.forms import ascii_int
from scoring.handform import form_side_of
from scoring.lang import say
from scoring.models import Game, Hand
from scoring.replay import ReplayError, build, number_in
from scoring.table.handpage import HandPage, gone, load_hand
from scoring.table.outbox import queued_write
from scoring.table.pages import confirm, confirming, signed, unstamped
from scoring.table.seatingpage import seating_page
from scoring.table.together import TOGETHER, broken, numbers, opened, sealed


class EditPage(HandPage):
    """The entry page of a stored hand, with the changes confirmed with it (``earlier``) and a broken later hand (``blocked``)."""

    def __init__(self, request, game, before, data, *, hands, hand, earlier, stored, **context):
        """``stored``: the stored hand's form side; the answers' (``data``'s) is looked up here, once."""
        super().__init__(request, game, before, data, form_side_of(game, data), mode="edit", **context)
        self.hands, self.hand, self.earlier = hands, hand, earlier
        self.context.update(original=stored.initial(hand.entry, hand.fix()), together=numbers(hands, earlier))
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


def answers(request: HttpRequest, hand: Hand, stored):
    """A POST's or GET's answers, or for the first question the stored hand's less those asked again (``stored``: its form side)."""
    query = request.POST if request.method == "POST" else request.GET
    if set(query) - {TOGETHER}:
        return query
    start = QueryDict(mutable=True)
    for key, value in stored.edit_start(stored.initial(hand.entry, hand.fix())).items():
        start.setlist(key, [str(v) for v in value] if isinstance(value, list) else [str(value)])
    if TOGETHER in query:
        start[TOGETHER] = query[TOGETHER]
    return start


def table_before(game: Game, hands: list[Hand], seq: int, earlier: list[services.Change]):
    """The table hand ``seq`` is played at, with the ``earlier`` changes made. Raises ``Conflict``."""
    now = services.changed_hands(game, hands, earlier)[0] if earlier else hands
    return build(game, [h for h in now if h.seq < seq]).state


@queued_write
def edit(request: HttpRequest, token: str, seq: int) -> HttpResponse:
    game, hands, hand = load_hand(request, token, seq)
    if hand is None or game.status == Game.FINISHED:
        return gone(request, game, token, seq)
    if is_seating(hand.entry):  # 换人/换位 is changed on its own page
        return seating_page(request, game, token, hand=hand, hands=hands)
    stored = form_side_of(game, hand.entry)  # the stored hand's form side, looked up once
    data = answers(request, hand, stored)
    if (earlier := opened(token, data)) is None:
        return broken(request, token, seq)
    try:
        before = table_before(game, hands, seq, earlier)
    except services.Conflict as conflict:
        messages.warning(request, say(conflict))
        return redirect("edit-hand", token=token, seq=seq)
    revision = ascii_int(data.get("revision", hand.revision), -1)
    page = EditPage(request, game, before, data, hands=hands, hand=hand, earlier=earlier, stored=stored, token=token)
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
        done = edited_message(hands, change.seq) % {"seq": page.context["number"]}
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


def edited_message(hands: list[Hand], seq: int) -> str:
    if any(h.seq > seq and not h.voided for h in hands):
        return _("已修改第%(seq)s局，之后的每一局都已重算。")
    return _("已修改第%(seq)s局。")

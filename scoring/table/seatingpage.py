"""换人/换位 between hands (docs/contract.md "People and seats"): a new person, a swap, or a new order (扳位).

Every step is a plain GET whose address holds the answers so far (``p``, ``dealer``, ``how``, ``seat``,
``name``, ``a``, ``o``); 确认 records the seating as a hand through ``services.record_hand``, and 修改
through ``services.edit_hand``. The page both the seating and the edit views answer with (``seating_page``)."""

import secrets
from copy import deepcopy
from functools import partial
from urllib.parse import urlencode

from django import forms
from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from scoring import circle, services
from scoring.access import spend_hand_write
from scoring.engine import SEATS_ZH, score
from scoring.engine.seating import OUTCOME, SeatingEntry, key, next_deal
from scoring.forms import NAME_LIMIT, ascii_int, no_control_characters, refusal
from scoring.handform import form_side_for
from scoring.lang import say, table_words
from scoring.models import Game, Hand
from scoring.people import draw, names_to_offer
from scoring.replay import ReplayError, build, played, table
from scoring.table.pages import (
    FORM_TOKEN,
    confirm,
    confirming,
    finished,
    other_hands,
    people_change,
    signed,
    unstamped,
)

HOWS = ("sub", "swap", "order", "draw")


class NameForm(forms.Form):
    """A new name typed in for a seat (换人): what the new-game form takes."""

    name = forms.CharField(
        label=gettext_lazy("新名字"),
        max_length=NAME_LIMIT,
        strip=True,
        validators=[no_control_characters],
        error_messages={
            "required": gettext_lazy("请填名字。"),
            "max_length": gettext_lazy("名字最多 %(limit_value)d 个字。"),
        },
    )


class SeatingPage:
    """The seating page of a game (``hand`` None) or of a stored seating's 修改: before, the proposal, the step."""

    def __init__(self, request: HttpRequest, game: Game, token: str, before, hand: Hand | None = None):
        self.request, self.game, self.token, self.before, self.hand = request, game, token, before, hand
        self.data = request.POST if request.method == "POST" else request.GET
        self.seats = game.plugin.seats
        self.url = reverse("seating", args=[token]) if hand is None else reverse("edit-hand", args=[token, hand.seq])
        self.errors: list[str] = []
        self.start = list(before.seating)  # who sits now (before this seating)
        stored = hand.entry if hand is not None else None
        self.proposal = self._names(self.data.getlist("p")) or (list(stored["players"]) if stored else None)
        raw_dealer = self.data.get("dealer", "")
        if "p" in self.data or stored is None:
            self.dealer = ascii_int(raw_dealer, -1) if raw_dealer != "" else None
        else:
            self.dealer = stored.get("dealer")
        if self.dealer is not None and not 0 <= self.dealer < self.seats:
            self.dealer = None
        self.how = self.data.get("how") if self.data.get("how") in HOWS else None

    def _names(self, names: list[str]) -> list[str] | None:
        names = [name.strip() for name in names]
        return names if len(names) == self.seats and all(names) else None

    # --- the addresses of the steps --------------------------------------------------------

    def link(self, proposal: list[str] | None = None, **params) -> str:
        """This page with ``proposal`` (the one so far by default) and ``params``."""
        proposal = self.proposal if proposal is None else proposal
        items = [("p", name) for name in proposal or []]
        if "dealer" not in params and self.dealer is not None and proposal == self.proposal:
            items.append(("dealer", self.dealer))
        for name, value in params.items():
            for v in value if isinstance(value, list) else [value]:
                if v is not None and v != "":
                    items.append((name, v))
        return f"{self.url}?{urlencode(items)}" if items else self.url

    @property
    def base(self) -> list[str]:
        """The names the steps change: the proposal so far, or who sits now."""
        return list(self.proposal or self.start)

    def offered(self) -> list[str]:
        """Names to bring in: the evening's people not in ``base``, and who sits now but not in the proposal."""
        taken = {key(name) for name in self.base}
        names = [*self.start, *names_to_offer(self.game, self.before)]
        seen, out = set(), []
        for name in names:
            if key(name) not in taken and key(name) not in seen:
                seen.add(key(name))
                out.append(name)
        return out

    def winds(self) -> list[str]:
        return [_(SEATS_ZH[s]) for s in range(self.seats)]

    # --- each step ---------------------------------------------------------------------------

    def step(self) -> dict:
        """The question the address is at, with a link for every answer."""
        base, winds = self.base, self.winds()
        if self.how == "sub":
            seat = ascii_int(self.data.get("seat", ""), -1)
            if not 0 <= seat < self.seats:
                return {
                    "question": _("谁下场？"),
                    "choices": [(f"{winds[s]} {name}", self.link(how="sub", seat=s)) for s, name in enumerate(base)],
                }
            form = NameForm(self.data if "name" in self.data else None)
            if form.is_bound and form.is_valid():
                return {"proposal": [form.cleaned_data["name"] if s == seat else n for s, n in enumerate(base)]}
            if form.is_bound:
                self.errors.append(refusal(form))
            choices = [
                (name, self.link([name if s == seat else n for s, n in enumerate(base)])) for name in self.offered()
            ]
            return {
                "question": _("谁坐%(wind)s，换下%(name)s？") % {"wind": winds[seat], "name": base[seat]},
                "choices": choices,
                "name_form": form,
                "seat": seat,
            }
        if self.how == "swap":
            first = ascii_int(self.data.get("a", ""), -1)
            if not 0 <= first < self.seats:
                return {
                    "question": _("哪两位换位？先点一位"),
                    "choices": [(f"{winds[s]} {name}", self.link(how="swap", a=s)) for s, name in enumerate(base)],
                }
            choices = []
            for s, name in enumerate(base):
                if s != first:
                    swapped = list(base)
                    swapped[first], swapped[s] = base[s], base[first]
                    choices.append((f"{winds[s]} {name}", self.link(swapped)))
            return {"question": _("%(name)s和谁换位？") % {"name": base[first]}, "choices": choices}
        if self.how == "order":
            chosen = [name.strip() for name in self.data.getlist("o") if name.strip()][: self.seats]
            taken = {key(name) for name in chosen}
            candidates = [n for n in [*base, *self.offered()] if key(n) not in taken]
            if not candidates or len(chosen) >= self.seats:  # nothing left to pick: start again
                chosen, candidates = [], [*base, *self.offered()]
            last = len(chosen) == self.seats - 1
            choices = [
                (name, self.link([*chosen, name]) if last else self.link(how="order", o=[*chosen, name]))
                for name in candidates
            ]
            return {
                "question": _("谁坐%(wind)s？") % {"wind": winds[len(chosen)]},
                "chosen": list(zip(winds, chosen, strict=False)),
                "choices": choices,
            }
        if self.proposal is None:
            return {"menu": True}
        return {"proposal": self.proposal}

    def entry(self, proposal: list[str]) -> dict:
        entry = {"outcome": OUTCOME, "players": list(proposal)}
        if self.dealer is not None:
            entry["dealer"] = self.dealer
        return entry


def what_ends(game: Game, before, after, pending: dict) -> list[str]:
    """What a seating ends: the marks and bets the table after it no longer shows, and a 连庄 that restarts."""
    marks = form_side_for(game).marks
    ended = []
    for s, name in enumerate(before.seating):
        kept = marks(after, s, {})
        gone_marks = [text for css, text in marks(before, s, pending) if (css, text) not in kept]
        if gone_marks:
            ended.append(f"{name} {' '.join(gone_marks)}")
    dealing, deals_next = before.seating[before.dealer], after.seating[after.dealer]
    if before.streak and (key(deals_next), after.streak) != (key(dealing), before.streak):
        ended.append(_("%(name)s的连庄（连%(n)s）") % {"name": dealing, "n": before.streak})
    return ended


def deal_note(before, after, entry: dict, drawn: bool) -> str:
    """Why this person deals next when it is not plain (docs/contract.md "People and seats")."""
    if drawn:
        return _("扳位：东家坐庄")
    if "dealer" in entry:
        return ""
    dealing = before.seating[before.dealer]
    if key(after.seating[after.dealer]) != key(dealing):
        return _("%(name)s不在桌上，换坐这个位子的人坐庄") % {"name": dealing}
    return _("庄跟着人走") if after.dealer != before.dealer else ""


def seating_changes(before, after) -> list[dict]:
    """Each seat: its wind, who sits there now and who after (``moved`` when another person)."""
    return [
        {"wind": _(SEATS_ZH[s]), "now": now, "after": then, "moved": key(now) != key(then)}
        for s, (now, then) in enumerate(zip(before.seating, after.seating, strict=True))
    ]


def seating_page(request: HttpRequest, game: Game, token: str, *, hand: Hand | None = None, hands=None):
    """换人/换位 on the writable ``game``: record one (``hand`` None), or 修改 a stored one among ``hands`` (the edit view's)."""
    if stop := finished(request, game, token):
        return stop
    before, next_seq = table_before(game, hand, hands)
    page = SeatingPage(request, game, token, before, hand)
    if page.how == "draw":  # 扳位: the server draws, and the preview's address holds what it drew
        return redirect(page.link(draw(page.base, page.start), dealer=0, drawn=1))
    step = page.step()
    context = step_context(page, step)
    proposal = step.get("proposal")
    if proposal is None:
        return render(request, "table/seating.html", context)
    entry = page.entry(proposal)
    context.update(proposal_context(page, proposal))
    if hand is None:
        return record_seating(request, game, token, page, context, entry, before, next_seq)
    return edit_seating(request, game, token, page, context, entry, before, hands, hand)


def table_before(game: Game, hand: Hand | None, hands) -> tuple:
    """The table the seating is made at, and the next hand's seq (None for a stored seating's 修改)."""
    if hand is None:
        return table(game)
    return build(game, [h for h in hands if h.seq < hand.seq]).state, None


def step_context(page: SeatingPage, step: dict) -> dict:
    """The page at its step: who sits now, the question (or the menu) and where each answer goes."""
    before, hand = page.before, page.hand
    return {
        "game": page.game,
        "token": page.token,
        "step": step,
        "mode": "edit" if hand else "record",
        "hand": hand,
        "form_url": page.url,
        "errors": page.errors,
        "start": list(zip(page.winds(), page.start, strict=True)),
        "dealer_name": before.seating[before.dealer],
        "streak": before.streak,
        "drawn": page.data.get("drawn") == "1",
        "proposal_so_far": page.proposal or [],
        "back_url": page.link(),
        "menu": [
            (_("换人"), _("有人走了，换一位坐进来（或者轮空的人回来）"), page.link(how="sub")),
            (_("两人换位"), _("两个人交换座位"), page.link(how="swap")),
            (_("随机抽位"), _("扳位：系统随机排座位，东家坐庄"), page.link(how="draw")),
            (_("按顺序重新坐"), _("一个一个点：谁坐东、谁坐南……"), page.link(how="order")),
        ],
    }


def proposal_context(page: SeatingPage, proposal: list[str]) -> dict:
    """A whole proposal: who may deal, a fresh draw, and the steps that change it again."""
    chosen = page.dealer if page.dealer is not None else next_deal(page.before, SeatingEntry(tuple(proposal)))[0]
    return {
        "proposal": proposal,
        "dealers": [(name, page.link(proposal, dealer=s), s == chosen) for s, name in enumerate(proposal)],
        "dealer": page.dealer,
        "redraw_url": page.link(proposal, how="draw"),
        "change_steps": [
            (_("换人"), page.link(proposal, how="sub")),
            (_("两人换位"), page.link(proposal, how="swap")),
            (_("按顺序重新坐"), page.link(proposal, how="order")),
        ],
    }


class Shown:
    """The seating page as ``confirm`` shows it again when the engine refuses the confirmed seating."""

    def __init__(self, request: HttpRequest, context: dict):
        self.request, self.context = request, context

    def refuse(self, error: ReplayError) -> None:
        """The engine's reason, without a 第N局 (a seating is no hand)."""
        self.context["errors"].append(table_words(say(error.error)))
        self.context.pop("preview", None)

    def render(self) -> HttpResponse:
        return render(self.request, "table/seating.html", self.context)


def onto_roster(request: HttpRequest, game: Game, write):
    """``write``, then who now played a hand joins the game's 牌友圈 roster (a full roster says so); one
    seated and replaced before any hand does not (docs/manual.md "牌友圈")."""

    def run():
        write()
        if left := services.played_onto_roster(game):
            messages.warning(request, circle.roster_full(left))

    return run


def record_seating(request, game, token, page, context, entry, before, next_seq) -> HttpResponse:
    form_token = page.data.get("form_token") or secrets.token_urlsafe(16)
    context.update(form_token=form_token, next_seq=next_seq, version=game.version)
    shown = Shown(request, context)
    if not FORM_TOKEN.fullmatch(form_token):
        context["errors"].append(_("表单已损坏，请重新打开记分页。"))
        return shown.render()
    if confirming(request) and (refused := unstamped(request, "version")):
        context["errors"].append(refused)
    elif confirming(request):
        spend_hand_write(game=game)  # 429 past the game's writes per minute
        next_seq = ascii_int(request.POST.get("next_seq", ""), 0)
        write = partial(services.record_hand, game=game, entry=entry, fix=None, next_seq=next_seq)
        write = partial(write, form_token=form_token, **signed(request, game, "entered_by"))
        return confirm(request, token, onto_roster(request, game, write), _("已换人/换位。"), shown)
    try:
        preview = services.preview_record(game=game, state=before, entry=entry)
    except ReplayError as error:
        shown.refuse(error)
        return shown.render()
    show(context, game, before, preview, entry, pending=game.pending or {})
    return shown.render()


def edit_seating(request, game, token, page, context, entry, before, hands, hand) -> HttpResponse:
    revision = ascii_int(page.data.get("revision", hand.revision), -1)
    context.update(revision=revision, version=game.version)
    shown = Shown(request, context)
    changed = services.copy_hand(hand)
    changed.entry = entry
    changed.dealer_fix = changed.streak_fix = None
    if confirming(request) and (refused := unstamped(request, "version", "revision")):
        context["errors"].append(refused)
    elif confirming(request):
        spend_hand_write(game=game)  # 429 past the game's writes per minute
        write = partial(services.edit_hand, game=game, seq=hand.seq, revision=revision, entry=entry, fix=None)
        later = any(h.seq > hand.seq and not h.voided for h in hands)
        done = _("已修改这次换人/换位，之后的每一局都已重算。") if later else _("已修改这次换人/换位。")
        write = onto_roster(request, game, partial(write, **signed(request, game, "edited_by")))
        return confirm(request, token, write, done, shown)
    try:
        preview = services.preview_change(game=game, hands=hands, changed=changed, before=before)
    except ReplayError as error:
        shown.refuse(error)
        return shown.render()
    show(context, game, before, preview, entry, pending={})
    return shown.render()


def show(context: dict, game: Game, before, preview: services.Preview, entry: dict, pending: dict) -> None:
    """The preview: seats before → after, dealer, who sits out, what ends, and an edit's changed totals and hands."""
    after = deepcopy(before)
    score(game.plugin, game.house_rules(), after, game.plugin.parse_hand(entry))  # the preview scored it
    seated = {key(name) for name in after.seating}
    sat_in = played(game)  # who sits out only after playing a hand
    change = people_change(preview)
    context.update(
        preview=True,
        seats=seating_changes(before, after),
        new_dealer=after.seating[after.dealer],
        new_streak=after.streak,
        deal_note=deal_note(before, after, entry, context.get("drawn")),
        ended=what_ends(game, before, after, pending),
        out=[(name, total) for name, total in after.people() if key(name) not in seated and key(name) in sat_in],
        change=[c for c in change if c[3]],
        other_hands=other_hands(game, preview, [name for name, *_rest in change]),
        other_people=[name for name, *_rest in change],
    )

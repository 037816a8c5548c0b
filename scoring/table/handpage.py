"""The entry page of one hand (record or edit) that the record, edit, step and offline code build on, and the lookups they share."""

import secrets
from copy import deepcopy

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.cache import patch_vary_headers
from django.utils.translation import gettext as _

from scoring import services
from scoring.access import writable_game
from scoring.handform.seating import recordable
from scoring.lang import say, table_words
from scoring.models import Game, Hand
from scoring.partial import wants_part
from scoring.replay import ReplayError
from scoring.table import kept
from scoring.table.pages import answers_url, confirming, finished, other_hands, people_change
from scoring.table.presenters import hand_row

# How long the phone's own cache keeps a step of the record flow fetched by htmx (see render).
PRELOAD_SECONDS = 30


class HandPage:
    """The entry page of one hand (record or edit): its form at the step its answers reach, and the preview once whole."""

    def __init__(self, request: HttpRequest, game: Game, before, data, form_side, drawn: bool = True, **context):
        """``form_side``: ``data``'s, looked up once by the view; ``drawn``: the page may be drawn (else its form is only validated and read)."""
        self.request, self.game, self.form_side = request, game, form_side
        self.names = list(before.seating)  # who sits at the hand's table
        self.form = form_side.Form(data, players=self.names, streak=before.streak, drawn=drawn)
        self.before, self.state, self.fix = before, before, None
        self.context = {"game": game, "form": self.form, **context}

    def incomplete(self) -> bool:
        """Not yet a whole hand: a GET walks the questions; a POST keeps the preview form with the missing answer marked."""
        if not self.form.is_valid():
            return True
        step = self.form.step()
        if step != "preview" and self.request.method == "POST":
            self.form.add_error(step if step in self.form.fields else None, self.form_side.MISSING[step])
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
        if not confirming(self.request) and error.field in self.form_side.REQUIREMENTS:
            self.context["requirement"] = table_words(say(error.error))
            return
        field = self.form_side.FIELD_OF.get(error.field, error.field)
        self.form.add_error(field if field in self.form.fields else None, error.message())

    def show(self, preview: services.Preview, hand: Hand) -> None:
        row = hand_row(self.game, hand, preview.result, names=self.names, form_side=self.form_side)
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
            entry_template=self.form_side.TEMPLATE,
            dealer_name=names[self.state.dealer],
            all_seats=list(enumerate(names)),
            winner_name=names[winner] if winner is not None else "",
            **self.form_side.context(self.game, self.form, self.state, self.game.house_rules()),
        )
        return step

    def render(self) -> HttpResponse:
        """A question or the preview form; 「更新预览」 (a boosted POST) gets the whole page at its answers' address."""
        step = self.fill()
        posted = self.request.method == "POST"
        part = posted and step == "preview" and wants_part(self.request)
        response = render(self.request, self.form_side.PARTIAL if part else "table/hand_form.html", self.context)
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


def no_form(token: str, form_side) -> HttpResponse | None:
    """The seating page, for a form side with no form here (换人/换位 has its own: scoring/table/seatingpage.py)."""
    if recordable(form_side):
        return None
    return redirect("seating", token=token)


def record_page(
    request: HttpRequest,
    game: Game,
    token: str,
    before,
    seq: int,
    data,
    form_side,
    form_url: str | None = None,
    drawn: bool = True,
) -> HandPage:
    """The record page of hand ``seq`` at ``before``; ``form_url`` spares the step bundle a reverse per page."""
    form_token = data.get("form_token") or secrets.token_urlsafe(16)
    page = HandPage(
        request, game, before, data, form_side, drawn, token=token, mode="record", next_seq=seq, form_token=form_token
    )
    page.context.update(form_url=form_url or reverse("record", args=[token]), number=game.state["active"] + 1)
    return page


def answers(request: HttpRequest, game: Game, before, form_side):
    """The form's answers: a POST's, or a GET's with the bets placed on the game page filled in."""
    if request.method == "POST":
        return request.POST
    return prefilled(game, before, request.GET, form_side)


def prefilled(game: Game, before, query, form_side):
    """A GET's answers ``query`` with the bets placed on the game page filled in (``form_side``: the query's)."""
    return form_side.prefill(query, game.pending, before, game.house_rules())


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

"""The table's other writes sent by the phone's outbox (docs/offline.md "The other writes"):
the same views, answered in JSON, exactly once per form token.

``queued_write`` wraps a write view. A POST with ``queued=1`` runs the view as a plain POST would, in one
transaction with its receipt (``WriteReceipt``), and answers what the view flashed instead of a page: done
(200), refused (409, kept as the receipt too) or a budget spent (429, nothing kept: sent again later). A
resend of the form token is answered from the receipt and changes nothing. Anything else goes to the view."""

import functools
from html.parser import HTMLParser
from urllib.parse import urlsplit

from django.contrib.messages import constants
from django.contrib.messages.storage.base import BaseStorage
from django.core.exceptions import PermissionDenied
from django.db import IntegrityError, transaction
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.urls import reverse
from django.utils.translation import gettext as _

from scoring import services
from scoring.access import TooManyAttempts, load_game
from scoring.lang import pick
from scoring.table.pages import FORM_TOKEN, answers_url

REASON_LIMIT = 500  # characters of a page's refusal said on the phone


def queued_write(view):
    """``view`` as it is, and for a POST with ``queued=1`` the outbox's JSON answer (``send``)."""

    @functools.wraps(view)
    def wrapped(request: HttpRequest, token: str, *args, **kwargs) -> HttpResponse:
        if request.method != "POST" or request.POST.get("queued") != "1":
            return view(request, token, *args, **kwargs)
        return send(view, request, token, *args, **kwargs)

    return wrapped


def send(view, request: HttpRequest, token: str, *args, **kwargs) -> HttpResponse:
    """Run ``view`` once per (game, form token): its answer, or the receipt's when the token was done before."""
    try:
        game, can_edit = load_game(request, token)  # a wrong link's miss counts outside the write's transaction
    except Http404 as error:
        return refused(str(error), status=404)
    except TooManyAttempts as budget:
        return spent(budget)
    if not can_edit:
        return refused(_("只读链接不能记分或修改。"), status=403)
    form_token = request.POST.get("form_token", "")
    if not (form_token and FORM_TOKEN.fullmatch(form_token)):
        return refused(_("表单已损坏，什么都没有改。请重新打开页面。"), status=400)
    try:
        with transaction.atomic():
            if (answer := services.receipt_for(game=game, form_token=form_token)) is not None:
                return replayed(answer)
            response, heard = run(view, request, token, *args, **kwargs)
            answer = classify(request, token, response, heard)
            if answer is None:  # a 5xx: nothing done, nothing kept
                transaction.set_rollback(True)
                return response
            services.keep_receipt(game=game, form_token=form_token, answer=answer)
    except TooManyAttempts as budget:  # rolled back: nothing written, nothing kept
        return spent(budget)
    except IntegrityError:  # another send of this token committed first: this one rolled back whole
        if (answer := services.receipt_of(game=game, form_token=form_token)) is None:
            raise
        return replayed(answer)
    return JsonResponse(answer, status=200 if answer["ok"] else 409)


class Heard(BaseStorage):
    """Where a queued write's view leaves its messages: read into the JSON answer, never shown on a page."""

    def _get(self, *args, **kwargs):
        return [], True

    def _store(self, messages, response, *args, **kwargs):
        return []


def run(view, request: HttpRequest, token: str, *args, **kwargs) -> tuple[HttpResponse | None, list]:
    """The view's response (None when it raised 404 or 403) and the messages it added, in its own savepoint.

    Django's ``messages.add_message`` writes to ``request._messages`` (MessageMiddleware's storage, a
    private attribute and the only way in): swapped for ``Heard`` while the view runs, so the messages
    of this request alone are read and none waits for the phone's next page."""
    own, request._messages = request._messages, Heard(request)
    try:
        with transaction.atomic():
            response = view(request, token, *args, **kwargs)
    except (Http404, PermissionDenied) as error:
        response = None
        request._messages.add(constants.WARNING, str(error) or nothing_changed())
    finally:
        heard, request._messages = list(request._messages), own
    return response, heard


def classify(request: HttpRequest, token: str, response: HttpResponse | None, heard: list) -> dict | None:
    """The JSON answer of the view's ``response`` and messages ``heard``; None for a 5xx.

    A success message: done (a 核对 that also names hands changed meanwhile, a seating that fills the roster).
    Else a warning: refused. Else the game page: done (「已撤回。」, or nothing to do). Else any other
    page or address: refused, sent there (a finished game's settlement, the void page of 撤销上一局)."""
    if response is not None and response.status_code >= 500:
        return None
    levels = [m.level for m in heard]
    target = where(response)
    to_game = target is not None and urlsplit(target).path == reverse("game", args=[token])
    if constants.SUCCESS in levels:
        said = sorted(heard, key=lambda m: m.level != constants.SUCCESS)  # the write's own words first
        return {"ok": True, "already": False, "message": words(said)}
    if response is not None and to_game and not any(level >= constants.WARNING for level in levels):
        return {"ok": True, "already": False, "message": words(heard)}
    reason = words([m for m in heard if m.level >= constants.WARNING]) or words(heard)
    if not reason and response is not None and response.status_code < 300:
        reason = page_reason(response)
    if response is None or to_game:
        url = None
    else:
        url = target or answers_url(request)  # a page re-rendered: the write's address with its answers
    return {"ok": False, "refused": True, "reason": reason or nothing_changed(), "url": url}


def where(response: HttpResponse | None) -> str | None:
    """Where the response sends the phone: a redirect's address, or the address an htmx answer pushes."""
    if response is None:
        return None
    if 300 <= response.status_code < 400:
        return response["Location"]
    pushed = response.headers.get("HX-Push-Url", "")
    return pushed if pushed.startswith("/") else None


def words(messages: list) -> str:
    return " ".join(str(m.message) for m in messages)


def nothing_changed() -> str:
    return _("没有改：请打开页面再看一次。")


class Alerts(HTMLParser):
    """The text of a page's ``alert-danger`` boxes: the refusals a re-rendered write page shows."""

    def __init__(self):
        super().__init__()
        self.depth, self.texts = 0, []

    def handle_starttag(self, tag, attrs):
        if self.depth:
            self.depth += tag not in ("br", "img", "input", "hr", "meta", "link")
        elif "alert-danger" in (dict(attrs).get("class") or "").split():
            self.depth = 1

    def handle_endtag(self, tag):
        if self.depth:
            self.depth -= 1

    def handle_data(self, data):
        if self.depth and data.strip():
            self.texts.append(data.strip())


def page_reason(response: HttpResponse) -> str:
    """What a page the view answered with says is wrong, on one line, or "" when it says nothing."""
    if "html" not in response.get("Content-Type", ""):
        return ""
    alerts = Alerts()
    alerts.feed(response.content.decode(response.charset or "utf-8", "replace"))
    return " ".join(" ".join(alerts.texts).split())[:REASON_LIMIT]


def replayed(answer: dict) -> JsonResponse:
    """A resend's answer: the first send's, said as already done when it was done."""
    if answer["ok"]:
        return JsonResponse({**answer, "already": True})
    return JsonResponse(answer, status=409)


def refused(reason: str, status: int) -> JsonResponse:
    """Refused before the write's transaction: nothing kept (no game, or no form token to keep it under)."""
    return JsonResponse({"ok": False, "refused": True, "reason": reason, "url": None}, status=status)


def spent(budget: TooManyAttempts) -> JsonResponse:
    """A budget spent: said, nothing written or kept; the outbox sends it again later."""
    answer = {"ok": False, "reason": pick(budget.zh, budget.en), "budget": True}
    response = JsonResponse(answer, status=budget.status)
    response.headers["Retry-After"] = str(budget.seconds)
    return response

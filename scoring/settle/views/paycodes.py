"""收款码 on the settle page: added or removed by the edit link; its picture served to every link, since payers need it."""

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from scoring import paycode_requests
from scoring.access import load_game, writable_game
from scoring.models import PayCode


def back(token: str):
    return redirect(reverse("settle", args=[token]) + "#paycodes")


@require_POST
def add(request: HttpRequest, token: str) -> HttpResponse:
    """A screenshot of a person's 收款码, read here; only its address is kept."""
    paycode_requests.upload(request, game=writable_game(request, token))
    return back(token)


@require_POST
def remove(request: HttpRequest, token: str, paycode_id: int) -> HttpResponse:
    paycode_requests.remove(request, paycode_id, game=writable_game(request, token))
    return back(token)


def png(request: HttpRequest, token: str, paycode_id: int) -> HttpResponse:
    """A code of this game, or of its group, as a PNG (view link too)."""
    game, _can_edit = load_game(request, token)
    found = PayCode.objects.filter(pk=paycode_id, game=game).first()
    if found is None and game.group_id is not None:
        found = PayCode.objects.filter(pk=paycode_id, group_id=game.group_id).first()
    if found is None:
        raise Http404(_("没有这个收款码"))
    return paycode_requests.served_png(request, found)

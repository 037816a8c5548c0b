"""算牌: read a hand from its tiles (docs/analysis.md), at this table's current state."""

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext as _

from scoring.access import load_game
from scoring.analyse.sheet import build_page, offers_analysis, read_query
from scoring.partial import wants_part
from scoring.replay import table


def analyse(request: HttpRequest, token: str) -> HttpResponse:
    """Every tap is a plain GET link; htmx swaps ``#sanpai``, static/js/analyse.js asks for ``#answer`` alone."""
    game, can_edit = load_game(request, token)
    if not offers_analysis(game):
        raise Http404(_("这个玩法没有算牌"))
    state, _seq = table(game)
    query = read_query(request.GET, game.ruleset, game.plugin.seats)
    base = reverse("analyse", args=[token])
    page = build_page(game, query, state, can_edit, base, reverse("record", args=[token]))
    context = {"game": game, "token": token, "can_edit": can_edit, **page}
    if wants_part(request) and request.htmx.target == "answer":
        # A query the page never makes (no flip, a bad tile) is said where the answer goes.
        context.setdefault("answer", {"kind": "error", "text": query.error or _("先点翻出的那张牌")})
        context.setdefault("count", len(query.tiles))
        return render(request, "analyse/analyse.html#answer", context)
    return render(request, "analyse/analyse.html", context)

"""算牌: read a hand from its tiles (docs/analysis.md), at this table's current state."""

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse

from scoring import sanpai
from scoring.access import load_game
from scoring.cache import table


def analyse(request: HttpRequest, token: str) -> HttpResponse:
    """Every tap is a plain GET link; htmx swaps only ``#sanpai``. A view link looks but cannot record."""
    game, can_edit = load_game(request, token)
    state, _seq = table(game)
    query = sanpai.read_query(request.GET, game.ruleset, game.engine.seats)
    base = reverse("analyse", args=[token])
    page = sanpai.build_page(game, token, query, state, can_edit, base, reverse("record", args=[token]))
    context = {"game": game, "token": token, "can_edit": can_edit, **page}
    return render(request, "scoring/analyse.html", context)

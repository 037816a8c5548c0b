"""晒图: the evening as a picture to send to the group chat (scoring/settle/picture.py draws it)."""

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from scoring.access import load_game
from scoring.models import Settlement
from scoring.settle.picture import facts_of, picture_svg


def _facts(request: HttpRequest, token: str):
    game, _can_edit = load_game(request, token)
    return game, facts_of(game, Settlement.objects.filter(game=game).first())


def picture(request: HttpRequest, token: str) -> HttpResponse:
    """The picture's page: the image (a PNG the phone draws from the SVG), 长按保存, 下载, 发送."""
    game, facts = _facts(request, token)
    context = {"game": game, "token": token, "facts": facts, "file_stem": f"{facts.date}-{game.ruleset}"}
    return render(request, "settle/picture.html", context)


def picture_file(request: HttpRequest, token: str) -> HttpResponse:
    """The picture as SVG, private and no-store like every token page (scoring/middleware.py)."""
    _game, facts = _facts(request, token)
    return HttpResponse(picture_svg(facts), content_type="image/svg+xml; charset=utf-8")

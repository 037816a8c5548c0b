"""The home page, a new game, the game page (the ledger) and its rules page."""

from django.db.models import Count, Q
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from scoring import device
from scoring.engine import COMMON_ORDER, RULE_INFO, WIN_TYPES
from scoring.forms import NewGameForm
from scoring.ledger import LedgerError, build
from scoring.models import Game
from scoring.presenters import game_context


def load_game(token: str) -> tuple[Game, bool]:
    """The game a link's token opens, and whether the link may write. 404 for anything else."""
    game = Game.objects.filter(Q(edit_token=token) | Q(view_token=token)).first()
    if game is None:
        raise Http404(_("没有这个牌局"))
    return game, game.edit_token == token


def home(request: HttpRequest) -> HttpResponse:
    tokens = device.remembered_tokens(request)
    games = (
        Game.objects.filter(Q(edit_token__in=tokens) | Q(view_token__in=tokens))
        .annotate(hand_count=Count("hands", filter=Q(hands__voided_at__isnull=True)))
        .order_by("-updated_at")
    )
    rows = [(g, g.edit_token if g.edit_token in tokens else g.view_token) for g in games]
    return render(request, "scoring/home.html", {"rows": rows})


def new_game(request: HttpRequest) -> HttpResponse:
    form = NewGameForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        game = Game.objects.create(
            players=form.names(),
            first_dealer=form.cleaned_data["first_dealer"],
            preset=form.cleaned_data["preset"],
            rules=form.rules().to_dict(),
        )
        response = redirect("game", token=game.edit_token)
        device.remember_game(request, response, game.edit_token)
        return response
    return render(request, "scoring/new_game.html", {"form": form})


def game_page(request: HttpRequest, token: str) -> HttpResponse:
    game, can_edit = load_game(token)
    try:
        ledger, broken = build(game), None
    except LedgerError as error:  # only if the rules of a stored game changed under it
        ledger, broken = None, error
    context = game_context(request, game, token, can_edit, ledger)
    response = render(request, "scoring/game.html", {**context, "broken": broken})
    device.remember_game(request, response, token)
    return response


@require_POST
def set_me(request: HttpRequest, token: str, seat: int) -> HttpResponse:
    game, _ = load_game(token)
    if not 0 <= seat <= 3:
        raise Http404(_("没有这个座位"))
    response = redirect("game", token=token)
    device.set_my_seat(request, response, game.id, seat)
    return response


def rules_page(request: HttpRequest, token: str) -> HttpResponse:
    game, _ = load_game(token)
    rules = game.engine_rules().to_dict()
    house = [(info, rules[name]) for name, info in RULE_INFO.items()]
    win_types = [WIN_TYPES[code] for code in COMMON_ORDER]
    return render(request, "scoring/rules.html", {"game": game, "token": token, "house": house, "win_types": win_types})

"""归档 and 删除 a game: only its edit link may; a view link gets the 403 page."""

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from scoring import services
from scoring.access import spend_change, writable_game
from scoring.listing import lines


def _back(request: HttpRequest) -> HttpResponse:
    """To the list the button was on (home or 历史牌局), never elsewhere."""
    url = request.POST.get("next", "")
    if not url_has_allowed_host_and_scheme(url, allowed_hosts={request.get_host()}) or not url.startswith("/"):
        url = "/"
    return redirect(url)


@require_POST
def archive(request: HttpRequest, token: str) -> HttpResponse:
    """归档 (``archived=1``) or 取消归档 (``archived=0``), then back to the list."""
    game = writable_game(request, token)
    archived = request.POST.get("archived") != "0"
    spend_change(game=game)  # 429 past the game's changes per minute
    services.archive_game(game=game, archived=archived)
    names = " · ".join(game.players)
    if archived:
        messages.success(request, _("已归档：%(names)s。在「历史牌局 → 已归档」里可以找回。") % {"names": names})
    else:
        messages.success(request, _("已取消归档：%(names)s。") % {"names": names})
    return _back(request)


def delete(request: HttpRequest, token: str) -> HttpResponse:
    """删除: a confirm screen showing what goes, then the game is gone for every phone."""
    game = writable_game(request, token)
    if request.method == "POST":
        spend_change(game=game)
        services.delete_game(game=game)
        messages.success(request, _("已删除牌局：%(names)s。") % {"names": " · ".join(game.players)})
        return redirect("home")
    line = next(iter(lines([game], [token])), None)  # None: a game that no longer replays
    return render(request, "records/delete.html", {"game": game, "line": line, "token": token})

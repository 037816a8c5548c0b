"""核对 on the game page: each player of a hand says its amounts are right (对) or wrong (有误)."""

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from scoring import device, services
from scoring.access import spend_change, writable_game
from scoring.forms import CheckForm, refusal
from scoring.lang import say
from scoring.table.pages import finished, to_game


@require_POST
def check(request: HttpRequest, token: str, seq: int) -> HttpResponse:
    """One 核对 tap, as this phone's 「我是」, counted against the game's budget of changes."""
    game = writable_game(request, token)
    if stop := finished(request, game, token):
        return stop
    form, me = CheckForm(request.POST), device.my_name(request, game)
    if me is None:
        messages.warning(request, _("先在页面下方选「我是」，再核对。"))
    elif not form.is_valid():
        messages.warning(request, refusal(form))
    else:
        spend_change(game=game)  # 429 past the game's changes per minute
        try:
            services.check_hand(game=game, seq=seq, person=me, **form.cleaned_data)
        except services.Conflict as conflict:
            messages.warning(request, say(conflict))
    return to_game(request, token)

"""结算: finish a game, see who pays whom, tick transfers off, reopen."""

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from scoring import services
from scoring.access import load_game, writable_game
from scoring.cache import snapshot
from scoring.charts import ledger_chart
from scoring.engine.money import needs_rounding
from scoring.engine.points import from_json
from scoring.forms import SettleForm
from scoring.lang import pick
from scoring.models import Settlement
from scoring.settlement import settlement_plan


def context_points(settlement: Settlement) -> list:
    return [from_json(p) for p in settlement.points]


def yuan(fen: int) -> str:
    return f"{fen / 100:.2f}"


def settle(request: HttpRequest, token: str) -> HttpResponse:
    """The settle-up screen: a form and its live preview while playing, the transfers after."""
    game, can_edit = load_game(request, token)
    ledger = snapshot(game, limit=None)
    names = game.players
    context = {"game": game, "token": token, "can_edit": can_edit, "ledger": ledger, "chart": ledger_chart(ledger)}
    settlement = Settlement.objects.filter(game=game).first()
    if settlement is not None:
        transfers = list(settlement.transfers.all())
        context.update(
            settlement=settlement,
            transfers=[(t, names[t.payer], names[t.payee], yuan(t.amount_fen)) for t in transfers],
        )
        context["balances"] = [
            (names[s], from_json(settlement.points[s]), yuan(settlement.balances_fen[s]), settlement.balances_fen[s])
            for s in range(len(names))
        ]
        context["rounded"] = needs_rounding(context_points(settlement), settlement.rate_fen)
        return render(request, "scoring/settle.html", context)
    form = SettleForm(request.GET or None, players=names)
    if form.is_bound and form.is_valid():
        plan = settlement_plan(
            ledger.totals,
            rate_fen=form.rate_fen(),
            fee_fen=form.fee_fen(),
            fee_mode=form.cleaned_data["fee_mode"],
            fee_payee=form.cleaned_data["fee_payee"],
        )
        context["preview"] = [(names[t.payer], names[t.payee], yuan(t.amount_fen)) for t in plan.transfers]
        context["balances"] = [
            (names[s], ledger.totals[s], yuan(plan.balances_fen[s]), plan.balances_fen[s]) for s in range(len(names))
        ]
        context["rounded"] = needs_rounding(ledger.totals, form.rate_fen())
    context["form"] = form
    return render(request, "scoring/settle.html", context)


@require_POST
def finish(request: HttpRequest, token: str) -> HttpResponse:
    game = writable_game(request, token)
    form = SettleForm(request.POST, players=game.players)
    if not form.is_valid():
        messages.warning(request, " ".join(str(e) for errors in form.errors.values() for e in errors))
        return redirect("settle", token=token)
    try:
        services.finish_game(
            game=game,
            rate_fen=form.rate_fen(),
            fee_fen=form.fee_fen(),
            fee_mode=form.cleaned_data["fee_mode"],
            fee_payee=form.cleaned_data["fee_payee"],
        )
    except services.Conflict as conflict:
        messages.warning(request, pick(conflict.zh, conflict.en))
    return redirect("settle", token=token)


@require_POST
def reopen(request: HttpRequest, token: str) -> HttpResponse:
    game = writable_game(request, token)
    services.reopen_game(game=game)
    messages.success(request, _("牌局已重新打开，可以继续记分。"))
    return redirect("game", token=token)


@require_POST
def toggle_paid(request: HttpRequest, token: str, transfer_id: int) -> HttpResponse:
    game = writable_game(request, token)
    try:
        services.mark_paid(game=game, transfer_id=transfer_id, paid=request.POST.get("paid") == "1")
    except services.Conflict as conflict:
        messages.warning(request, pick(conflict.zh, conflict.en))
    return redirect("settle", token=token)

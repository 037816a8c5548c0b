"""结算: finish a game, see who pays whom, tick transfers off, reopen."""

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from scoring import device, handchecks, paycode_requests, services
from scoring.access import load_game, spend_change, writable_game
from scoring.charts import game_chart
from scoring.engine.money import needs_rounding, settlement_plan
from scoring.engine.points import from_json
from scoring.engine.seating import key
from scoring.engine.transfers import proven_fewest
from scoring.forms import SettleForm, refusal
from scoring.lang import chinese, say
from scoring.models import Settlement
from scoring.partial import wants_part
from scoring.replay import stored_replay, who_played
from scoring.share import share_text
from scoring.yuan import money, yuan, yuan_text


def balances(names: list[str], points: list, balances_fen: list[int]) -> list[tuple]:
    """(name, points, 元 as text, 分) per person."""
    return [(name, p, yuan(fen), fen) for name, p, fen in zip(names, points, balances_fen, strict=True)]


def fee_advance(names: list[str], fee_fen: int, fee_payee: int) -> dict:
    """Who pays the venue first (「老王 垫付台费 40 元（已算入）」): their balance already counts it."""
    return {"fee_payer": names[fee_payee], "fee_paid": money(fee_fen, chinese())} if fee_fen else {}


def moves(names: list[str], moved: list[int] | None) -> dict:
    """抹零's line (「抹零：老王 −0.50，阿明 +0.50」): each person the rounding moved, by how much."""
    if moved is None:
        return {}
    return {"round_moves": [(name, yuan(fen, signed=True)) for name, fen in zip(names, moved, strict=True) if fen]}


def settled(settlement: Settlement, names: list[str]) -> dict:
    """A finished game: the transfers (with 已付) and the balances as they were frozen."""
    points = [from_json(p) for p in settlement.points]
    return {
        **fee_advance(names, settlement.fee_fen, settlement.fee_payee),
        **moves(names, settlement.rounded_away()),
        "settlement": settlement,
        "transfers": [
            (t, names[t.payer], names[t.payee], money(t.amount_fen, chinese()))
            for t in settlement.transfers.select_related("settle_up_part")
        ],
        "balances": balances(names, points, settlement.balances_fen),
        "fewest": proven_fewest(settlement.balances_fen),
        "rounded": needs_rounding(points, settlement.rate_fen),
        "rate_yuan": yuan_text(settlement.rate_fen),
        "fee_yuan": yuan_text(settlement.fee_fen),
    }


def planned(form: SettleForm, totals: list, names: list[str]) -> dict:
    """While playing: what settling now with the form's rate and fee would give."""
    data = form.cleaned_data
    terms = {"rate_fen": form.rate_fen(), "fee_fen": form.fee_fen(), "fee_mode": data["fee_mode"]}
    plan = settlement_plan(totals, **terms, fee_payee=data["fee_payee"], round_yuan=data["round_yuan"])
    return {
        **fee_advance(names, form.fee_fen(), data["fee_payee"]),
        **moves(names, plan.rounded_away),
        "plan": plan,
        "preview": [(names[t.payer], names[t.payee], money(t.amount_fen, chinese())) for t in plan.transfers],
        "fewest": plan.fewest,
        "balances": balances(names, totals, plan.balances_fen),
        "rounded": needs_rounding(totals, form.rate_fen()),
    }


def paycodes_context(codes: dict, people: list[str]) -> dict:
    """The 收款码 each transfer's payee has, the list of them all and whose a new one may be."""
    return {"paycodes": codes, "paycode_list": paycode_requests.listed(codes, people), "paycode_people": people}


def mine_first(transfers: list[tuple], me: str | None, codes: dict) -> list[tuple]:
    """This phone's person's transfers first (「我是」); each payee's 收款码 once, under the first unpaid
    transfer to them (``show_code``); a later one to them says it is above (``code_above``)."""
    if me is not None:
        transfers = sorted(transfers, key=lambda item: key(item[1]) != key(me))
    shown: set[str] = set()
    for t, _payer, payee, _amount in transfers:
        t.show_code = t.code_above = False
        if t.paid_at is not None or hasattr(t, "settle_up_part"):
            continue
        if key(payee) in shown:
            t.code_above = bool(codes.get(key(payee)))
        else:
            shown.add(key(payee))
            t.show_code = True
    return transfers


def settle(request: HttpRequest, token: str) -> HttpResponse:
    """The settle screen by person: the form and its live preview while playing, the transfers after."""
    game, can_edit = load_game(request, token)
    ledger = stored_replay(game, limit=1)  # its totals and counts come from the game's row: no hand list here
    context = {"game": game, "token": token, "can_edit": can_edit, "ledger": ledger}
    settlement = Settlement.objects.filter(game=game).first()
    if settlement is not None:
        context.update(settled(settlement, settlement.people()), chart=game_chart(game))
        context.update(paycodes_context(paycode_requests.codes_by_person(game=game), settlement.people()))
        context["transfers"] = mine_first(context["transfers"], device.my_name(request, game), context["paycodes"])
        context["share"] = share_text(ledger, settlement)
        return render(request, "settle/settle.html", context)
    people = who_played(game)
    names, totals = [name for name, _t in people], [total for _name, total in people]
    context["form"] = form = SettleForm(request.GET or None, players=names)
    context["not_checked"] = handchecks.not_checked(game)  # said before 结束并结算 (or it refuses)
    if form.is_bound and form.is_valid():
        context.update(planned(form, totals, names))
    if wants_part(request):
        return render(request, "settle/settle.html#preview", context)
    context["chart"] = game_chart(game)
    return render(request, "settle/settle.html", context)


@require_POST
def finish(request: HttpRequest, token: str) -> HttpResponse:
    game = writable_game(request, token)
    people = who_played(game)
    form = SettleForm(request.POST, players=[name for name, _total in people])
    if not form.is_valid():
        messages.warning(request, refusal(form))
        return redirect("settle", token=token)
    spend_change(game=game)  # 429 past the game's changes per minute
    try:
        services.finish_game(
            game=game,
            rate_fen=form.rate_fen(),
            fee_fen=form.fee_fen(),
            fee_mode=form.cleaned_data["fee_mode"],
            fee_payee=form.cleaned_data["fee_payee"],
            round_yuan=form.cleaned_data["round_yuan"],
        )
    except services.Conflict as conflict:
        messages.warning(request, say(conflict))
    return redirect("settle", token=token)


@require_POST
def reopen(request: HttpRequest, token: str) -> HttpResponse:
    game = writable_game(request, token)
    spend_change(game=game)
    try:
        services.reopen_game(game=game)
    except services.Conflict as conflict:
        messages.warning(request, say(conflict))
        return redirect("settle", token=token)
    messages.success(request, _("牌局已重新打开，可以继续记分。"))
    return redirect("game", token=token)


@require_POST
def toggle_paid(request: HttpRequest, token: str, transfer_id: int) -> HttpResponse:
    game = writable_game(request, token)
    spend_change(game=game)
    try:
        services.mark_paid(game=game, transfer_id=transfer_id, paid=request.POST.get("paid") == "1")
    except services.Conflict as conflict:
        messages.warning(request, say(conflict))
    return redirect("settle", token=token)

"""今晚几桌's pages: open a night, its board (live on every phone), 换桌, and the night's settle-up.

Only the night's edit link writes; its view link gets the 403 page. Every page reads at most
``TableNight.MAX_TABLES`` tables from their stored replays (scoring/night.py)."""

import json

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.core.serializers.json import DjangoJSONEncoder
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from scoring import circle, device, live, night, paycode_requests, services
from scoring.access import spend_change, spend_new_game
from scoring.forms import refusal
from scoring.lang import say
from scoring.links import lan_base
from scoring.models import PayCode, TableNight
from scoring.nights.backup import loads_backup, night_backup, restore_night
from scoring.nights.forms import MoveForm, NightForm, NightSettleForm
from scoring.nights.pages import board_context, board_data, settle_context
from scoring.records.exports import ImportRefused
from scoring.replay import ReplayError
from scoring.services import nights as writes

MAX_NIGHT_BYTES = TableNight.MAX_TABLES * 10 * 1024 * 1024  # each table as large as a game's backup may be


def writable_night(request: HttpRequest, token: str) -> TableNight:
    found, can_edit = night.load_night(request, token)
    if not can_edit:
        raise PermissionDenied(_("只读链接不能修改今晚的牌局。"))
    return found


def new_night(request: HttpRequest, token: str) -> HttpResponse:
    """开今晚: who comes, how many tables (each its ruleset), how they draw; then the board."""
    group = circle.writable_group(request, token)
    form = NightForm(request.POST or None, group=group)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        for _table in range(data["tables"]):
            spend_new_game(request)  # each table is a new game: the budget of new games (scoring/access.py)
        try:
            opened = writes.open_night(group, people=data["people"], tables=form.table_terms(), how=data["how"])
        except night.NightConflict as conflict:
            form.add_error(None, say(conflict))
        else:
            response = redirect("night", token=opened.edit_token)
            device.remember_group(request, response, token)
            return response
    return render(request, "nights/new.html", {"group": group, "token": token, "form": form})


def board(request: HttpRequest, token: str) -> HttpResponse:
    """今晚: everyone's totals across the tables, where each sits, each table's progress; polled live."""
    found, can_edit = night.load_night(request, token)
    context = board_context(found, token, can_edit)
    base = lan_base(request)
    context["view_url"] = (base or request.build_absolute_uri("/")[:-1]) + reverse("night", args=[found.view_token])
    return render(request, "nights/board.html", context)


def poll(request: HttpRequest, token: str) -> HttpResponse:
    """Has any table changed since ``v``? 204, or the fresh board (the game page's pattern, scoring/live.py)."""
    found, can_edit = night.load_night(request, token)
    version = night.poll_version(found)
    if (quiet := live.quiet_answer(request, version)) is not None:
        return quiet
    response = render(request, "nights/board.html#live", board_context(found, token, can_edit, version))
    response.headers["ETag"] = live.etag(version)
    return response


def board_json(request: HttpRequest, token: str) -> HttpResponse:
    """今晚的榜 as JSON (docs/contract.md 「今晚的榜」), on either link; 304/204 when unchanged, as the poll."""
    found, _can_edit = night.load_night(request, token)
    version = night.poll_version(found)
    if (quiet := live.quiet_answer(request, version)) is not None:
        return quiet
    response = JsonResponse(board_data(found, version), json_dumps_params={"ensure_ascii": False})
    response.headers["ETag"] = live.etag(version)
    return response


def night_write(request: HttpRequest, token: str, form_class, to: str, write, done, refused=()) -> HttpResponse:
    """A POST of the night's edit link: ``form_class`` checked, the change's budget spent, ``write(found, form)``
    run and ``done(form)`` said, or its refusal (a ``NightConflict``, a ``Conflict`` or one of ``refused``); then ``to``."""
    found = writable_night(request, token)
    form = form_class(request.POST, people=found.people)
    if not form.is_valid():
        messages.warning(request, refusal(form))
        return redirect(to, token=token)
    spend_change(group=found.group)
    try:
        write(found, form)
    except (night.NightConflict, services.Conflict, *refused) as conflict:
        messages.warning(request, say(conflict))
    else:
        messages.success(request, done(form))
    return redirect(to, token=token)


@require_POST
def move(request: HttpRequest, token: str) -> HttpResponse:
    """换桌 between hands: two people change places, each table's seating recorded."""

    def changed(found, form):
        writes.change_tables(found, form.cleaned_data["mover"], form.cleaned_data["other"])

    def said(form):
        return _("已换桌：%(a)s ⇄ %(b)s") % {"a": form.cleaned_data["mover"], "b": form.cleaned_data["other"]}

    return night_write(request, token, MoveForm, "night", changed, said, refused=(ReplayError,))


def settle(request: HttpRequest, token: str) -> HttpResponse:
    """今晚结算: each table's settlement, every table settled at once with the night's fee, the fewest transfers."""
    found, can_edit = night.load_night(request, token)
    context = settle_context(found, token, can_edit)
    context["form"] = NightSettleForm(initial={"rate": "100"}, people=found.people)
    return render(request, "nights/settle.html", context)


@require_POST
def settle_tables(request: HttpRequest, token: str) -> HttpResponse:
    """结算每一桌 at one rate (and 抹零), then 一起结清 the night with its one fee, if any."""

    def settled(found, form):
        terms = {"rate_fen": form.rate_fen(), "round_yuan": form.cleaned_data["round_yuan"], **form.fee_terms()}
        writes.settle_all(found, **terms)

    return night_write(
        request,
        token,
        NightSettleForm,
        "night-settle",
        settled,
        lambda _form: _("每一桌都结算了，今晚合并成最少的转账。"),
    )


@require_POST
def paid(request: HttpRequest, token: str, transfer_id: int) -> HttpResponse:
    """已付 on one of the night's netted transfers."""
    found = writable_night(request, token)
    spend_change(group=found.group)
    up = night.settle_up_of(found)
    if up is None or not up.transfers.filter(pk=transfer_id).exists():
        raise Http404(_("没有这笔转账"))
    try:
        services.settle_up_paid(found.group, transfer_id, request.POST.get("paid") == "1")
    except circle.GroupConflict as conflict:
        messages.warning(request, say(conflict))
    return redirect("night-settle", token=token)


def backup(request: HttpRequest, token: str) -> HttpResponse:
    """备份今晚: the night and every table's game, one JSON file (scoring/nights/backup.py)."""
    found, _can_edit = night.load_night(request, token)
    text = json.dumps(night_backup(found), cls=DjangoJSONEncoder, ensure_ascii=False, separators=(",", ":"))
    response = HttpResponse(text, content_type="application/json")
    stamp = timezone.localtime(found.created_at)
    response["Content-Disposition"] = f'attachment; filename="mahjong-night-{stamp:%Y%m%d-%H%M}.json"'
    return response


def restore(request: HttpRequest, token: str) -> HttpResponse:
    """恢复今晚的备份 into this 牌友圈: every table and the night, or nothing and why."""
    group = circle.writable_group(request, token)
    error = None
    if request.method == "POST":
        spend_new_game(request, imported=True)  # the imports and new games allowed (scoring/access.py)
        upload = request.FILES.get("file")
        raw = upload.read(MAX_NIGHT_BYTES + 1) if upload else b""
        try:
            if not raw or len(raw) > MAX_NIGHT_BYTES:
                raise ImportRefused(
                    "请选一个今晚的备份文件（不超过 80 MB）。", "Choose a night's backup (80 MB at most)."
                )
            restored = restore_night(group, loads_backup(raw))
        except (ImportRefused, night.NightConflict) as problem:
            error = say(problem)
        else:
            messages.success(request, _("已恢复今晚的 %(n)s 桌。") % {"n": restored.tables.count()})
            return redirect("night", token=restored.edit_token)
    return render(
        request, "nights/restore.html", {"group": group, "token": token, "error": error}, status=400 if error else 200
    )


def paycode_png(request: HttpRequest, token: str, paycode_id: int) -> HttpResponse:
    """A 牌友圈 person's code on the night's settle page (the view link too: the payers need it)."""
    found, _can_edit = night.load_night(request, token)
    code = PayCode.objects.filter(pk=paycode_id, group=found.group_id).first()
    if code is None:
        raise Http404(_("没有这个收款码"))
    return paycode_requests.served_png(request, code)

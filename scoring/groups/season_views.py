"""赛季's pages: made, changed, closed and deleted from the 牌友圈 page (edit link only), its picture for
the group chat and the standings as CSV (view link too). docs/manual.md "赛季"."""

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_POST

from scoring import circle, services
from scoring.access import spend_change
from scoring.engine.errors import ScoringError
from scoring.engine.hygiene import loads
from scoring.forms import refusal
from scoring.groups import evenings, season_backup, seasons
from scoring.groups.season_forms import SeasonForm
from scoring.groups.season_picture import picture_svg
from scoring.lang import say
from scoring.models import Group, Season


def to_season(token: str, season_id: int | None = None) -> HttpResponse:
    period = f"?period={seasons.SEASON}{season_id}" if season_id else ""
    return redirect(reverse("group", args=[token]) + period + "#standings")


def _write(request: HttpRequest, token: str, write, done: str):
    """Run a season ``write`` for an edit link: a refusal is a warning and changes nothing."""
    group = circle.writable_group(request, token)
    spend_change(group=group)
    try:
        result = write(group)
    except circle.GroupConflict as conflict:
        messages.warning(request, say(conflict))
        return None
    messages.success(request, done)
    return result


@require_POST
def season_new(request: HttpRequest, token: str) -> HttpResponse:
    """新建赛季 (POST): a refused form says why and makes nothing."""
    form = SeasonForm(request.POST)
    if not form.is_valid():
        circle.writable_group(request, token)
        messages.warning(request, refusal(form))
        return to_season(token)
    made = _write(request, token, lambda g: services.create_season(g, **form.cleaned_data), _("赛季已建好。"))
    return to_season(token, made.pk if made else None)


@require_POST
def season_edit(request: HttpRequest, token: str, season_id: int) -> HttpResponse:
    """改赛季 (POST): name, dates and the hands to be ranked as typed."""
    form = SeasonForm(request.POST)
    if not form.is_valid():
        circle.writable_group(request, token)
        messages.warning(request, refusal(form))
        return to_season(token, season_id)
    _write(request, token, lambda g: services.edit_season(g, season_id, **form.cleaned_data), _("赛季已保存。"))
    return to_season(token, season_id)


@require_POST
def season_close(request: HttpRequest, token: str, season_id: int) -> HttpResponse:
    """结束赛季 (POST): it ends today."""
    _write(request, token, lambda g: services.close_season(g, season_id), _("赛季已结束：到今天为止。"))
    return to_season(token, season_id)


@require_POST
def season_delete(request: HttpRequest, token: str, season_id: int) -> HttpResponse:
    """删除赛季 (POST): its games stay in the group."""
    _write(request, token, lambda g: services.delete_season(g, season_id), _("赛季已删除，牌局都还在。"))
    return to_season(token)


def season_board(request: HttpRequest, token: str, season_id: int) -> tuple[Group, seasons.Board]:
    group, can_edit = circle.load_group(request, token)
    season = Season.objects.filter(group=group, pk=season_id).first()
    if season is None:
        raise Http404(_("牌友圈里没有这个赛季"))
    nights = evenings.evenings(group, can_edit)
    return group, seasons.board(nights, f"{seasons.SEASON}{season.pk}", season)


def season_picture(request: HttpRequest, token: str, season_id: int) -> HttpResponse:
    """The season's picture page: the image (a PNG the phone draws from the SVG), 长按保存, 下载, 发送."""
    group, found = season_board(request, token, season_id)
    stem = f"{found.season.start:%Y%m%d}-{found.season.end:%Y%m%d}"
    context = {"group": group, "token": token, "board": found, "season": found.season, "file_stem": stem}
    return render(request, "groups/season_picture.html", context)


def season_picture_file(request: HttpRequest, token: str, season_id: int) -> HttpResponse:
    group, found = season_board(request, token, season_id)
    return HttpResponse(picture_svg(found, group.name), content_type="image/svg+xml; charset=utf-8")


def standings_csv(request: HttpRequest, token: str) -> HttpResponse:
    """The standings of ``?period=`` as CSV (Excel and WPS read its BOM)."""
    group, can_edit = circle.load_group(request, token)
    period, season = seasons.chosen(request.GET.get("period", "all"), list(group.seasons.all()))
    found = seasons.board(evenings.evenings(group, can_edit), period, season)
    response = HttpResponse(seasons.board_csv(found), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="standings-{period}.csv"'
    return response


JSON = {"ensure_ascii": False}
MAX_SEASONS_BYTES = 256 * 1024  # 50 seasons with their standings of 40 people is under 200 KB


@csrf_exempt  # a POST is the JSON door's: the edit link in the address is the key, and it takes no cookie
def seasons_file(request: HttpRequest, token: str) -> HttpResponse:
    """The JSON door: GET the group's seasons with their standings; POST (edit link) a seasons file back."""
    if request.method == "POST":
        return seasons_door(request, token)
    group, can_edit = circle.load_group(request, token)
    body = season_backup.seasons_json(group.name, list(group.seasons.all()), evenings.evenings(group, can_edit))
    return JsonResponse(body, json_dumps_params=JSON)


def restore_from(group: Group, raw: bytes) -> int:
    """The seasons of ``raw`` made again in ``group``; ``SeasonsError`` or ``GroupConflict`` says why not."""
    if len(raw) > MAX_SEASONS_BYTES:
        raise season_backup.SeasonsError("赛季文件太大。", "The seasons file is too large.")
    try:
        data = loads(raw)
    except ScoringError as error:
        raise season_backup.SeasonsError(f"不是有效的 JSON：{error.zh}", f"Not valid JSON: {error.en}") from None
    spend_change(group=group)
    return services.restore_seasons(group, season_backup.read_seasons(data))


def seasons_door(request: HttpRequest, token: str) -> JsonResponse:
    """A seasons file POSTed as JSON: ``{"made": n}``, or 400 with ``error`` (Chinese) and ``error_en``."""
    group = circle.writable_group(request, token)
    try:
        made = restore_from(group, request.read(MAX_SEASONS_BYTES + 1))
    except (season_backup.SeasonsError, circle.GroupConflict) as refused:
        return JsonResponse({"error": refused.zh, "error_en": refused.en}, status=400, json_dumps_params=JSON)
    return JsonResponse({"made": made}, json_dumps_params=JSON)


@require_POST
def seasons_restore(request: HttpRequest, token: str) -> HttpResponse:
    """恢复赛季 from the group page: a seasons file; those the group holds already (name and dates) are skipped."""
    group = circle.writable_group(request, token)
    upload = request.FILES.get("file")
    try:
        made = restore_from(group, upload.read(MAX_SEASONS_BYTES + 1) if upload else b"")
    except (season_backup.SeasonsError, circle.GroupConflict) as refused:
        messages.warning(request, say(refused))
    else:
        messages.success(request, _("已恢复 %(n)d 个赛季。") % {"n": made})
    return to_season(token)

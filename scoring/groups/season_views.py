"""赛季's pages: made, changed, closed and deleted from the 牌友圈 page (edit link only), its picture for
the group chat and the standings as CSV (view link too). docs/manual.md "赛季"."""

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from scoring import circle, services
from scoring.access import spend_change
from scoring.forms import refusal
from scoring.groups import evenings, seasons
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

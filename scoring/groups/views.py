"""牌友圈's pages: new, the group page, share, each person's page, joining a game and settling together.

Only an edit link writes; a view link gets the 403 page."""

import re

from django import forms
from django.conf import settings
from django.contrib import messages
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from scoring import circle, device, paycode_requests, services
from scoring.access import claim, spend_change, spend_new_game, throttle, writable_game
from scoring.engine.seating import key
from scoring.forms import NAME_LIMIT, checks_required_field, no_control_characters, refusal
from scoring.groups import evenings, season_forms, seasons
from scoring.lang import say
from scoring.links import lan_base, qr_svg
from scoring.listing import lines
from scoring.models import Group, PayCode

GAMES_PAGE = 20
SEPARATORS = re.compile(r"[\n,，、;；]+")


def roster_names(text: str) -> list[str]:
    """The roster as typed: one name a line (or separated by commas)."""
    return circle.clean_roster(SEPARATORS.split(text or ""))


class GroupForm(forms.Form):
    """A group's name and its roster, one name a line."""

    name = forms.CharField(
        label=gettext_lazy("牌友圈的名字"),
        max_length=NAME_LIMIT,
        strip=True,
        validators=[no_control_characters],
        widget=forms.TextInput(attrs={"placeholder": gettext_lazy("例如：周五老地方"), "autocomplete": "off"}),
        error_messages={"required": gettext_lazy("请给牌友圈起个名字。")},
    )
    roster = forms.CharField(
        label=gettext_lazy("名单（每行一个名字）"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 4, "autocomplete": "off"}),
        help_text=gettext_lazy("一起打牌的人。开局时会自动加上新来的人。"),
    )
    checks_required = checks_required_field()

    def clean_roster(self):
        names = roster_names(self.cleaned_data.get("roster", ""))
        if len(names) > settings.MAX_PEOPLE_PER_GROUP:
            raise forms.ValidationError(_("名单最多 %(n)d 个名字。") % {"n": settings.MAX_PEOPLE_PER_GROUP})
        for name in names:
            no_control_characters(name)
            if len(name) > NAME_LIMIT:
                raise forms.ValidationError(
                    _("名字太长（最多 %(n)d 个字）：%(name)s") % {"n": NAME_LIMIT, "name": name[:NAME_LIMIT] + "…"}
                )
        return names


def new_group(request: HttpRequest) -> HttpResponse:
    """新建牌友圈: a name and a roster; ``game`` (an edit link's token) puts that game in it."""
    data = request.POST if request.method == "POST" else request.GET
    game_token = data.get("game", "")
    form = GroupForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        game = writable_game(request, game_token) if game_token else None
        throttle(request, "games")  # a new group spends the budget of new games (scoring/access.py)
        group = services.create_group(
            name=form.cleaned_data["name"],
            roster=form.cleaned_data["roster"],
            owner=request.user if request.user.is_authenticated else None,
            checks_required=form.cleaned_data["checks_required"],
        )
        left = services.join_group(game, group) if game is not None else []
        messages.success(request, _("已建好牌友圈「%(name)s」。") % {"name": group.name})
        if left:
            messages.warning(request, circle.roster_full(left))
        response = redirect("group", token=group.edit_token)
        device.remember_group(request, response, group.edit_token)
        return response
    response = render(request, "groups/group_new.html", {"form": form, "game_token": game_token})
    if game_token:  # the page holds the game's edit link
        response["Cache-Control"] = "private, no-store"
    return response


def group_page(request: HttpRequest, token: str) -> HttpResponse:
    """The group: 再来一局, standings, what is still owed, the games (``?archived=1`` the archived) and the roster."""
    group, can_edit = circle.load_group(request, token)
    standing = standings_context(request, group, can_edit)
    listed = games_context(request, group, can_edit)
    owed = owed_context(group, can_edit)
    last = circle.last_game(group)
    context = {
        "group": group,
        "token": token,
        "can_edit": can_edit,
        **standing,
        **listed,
        **owed,
        "plan": evenings.group_plan(group) if can_edit else None,
        "last": last,
        "last_seating": circle.seating_of(last) if last is not None else [],
        **paycode_context(group),
        "roster_form": GroupForm(
            initial={"name": group.name, "roster": "\n".join(group.roster), "checks_required": group.checks_required},
            auto_id="roster_%s",
        ),
    }
    response = render(request, "groups/group.html", context)
    device.remember_group(request, response, token)
    return response


def paycode_context(group: Group) -> dict:
    """The group's 收款码: under its settle-ups' transfers, listed by the roster, added there."""
    codes = paycode_requests.codes_by_person(group=group)
    return {
        "paycodes": codes,
        "paycode_list": paycode_requests.listed(codes, group.roster),
        "paycode_people": group.roster,
    }


def standings_context(request: HttpRequest, group: Group, can_edit: bool) -> dict:
    """The standings of the period asked for (this week, this month, all time, a season) and the games they count."""
    held = list(group.seasons.all())  # at most Season.MAX_PER_GROUP
    period, season = seasons.chosen(request.GET.get("period", "all"), held)
    found = seasons.board(evenings.evenings(group, can_edit), period, season)
    return {
        "period": period,
        "periods": [("week", _("本周")), ("month", _("本月")), ("all", _("全部"))],
        "seasons": held,
        "season": season,
        "today": timezone.localdate(),  # a season over already offers no 结束赛季
        "board": found,
        "standings": [s for _place, s in found.ranked] + found.unranked,
        "counted": found.counted,
        "unsettled": found.unsettled,
        "season_form": season_forms.new_form() if can_edit else None,
        "season_edit_form": season_forms.edit_form(season) if can_edit and season is not None else None,
    }


def games_context(request: HttpRequest, group: Group, can_edit: bool) -> dict:
    """A page of the group's games, newest first (``?archived=1``: the archived ones)."""
    archived = request.GET.get("archived") == "1"
    games = group.games.filter(archived_at__isnull=not archived).order_by("-created_at", "-pk")
    page = Paginator(games, GAMES_PAGE).get_page(request.GET.get("page"))
    tokens = [g.edit_token for g in page] if can_edit else []
    return {"rows": lines(page, tokens), "page": page, "archived": archived}


def owed_context(group: Group, can_edit: bool) -> dict:
    """What is still owed: each game's unpaid transfers, the open settle-ups, and each person's balance."""
    owed = circle.free_transfers(group)
    open_ups = evenings.open_settle_ups(group)
    return {
        "owed": [(o, evenings.game_token(o.game, can_edit)) for o in owed if not hasattr(o.transfer, "settle_up_part")],
        "open_ups": open_ups,
        "balances": evenings.balances_by_person(owed, open_ups),
    }


def share(request: HttpRequest, token: str) -> HttpResponse:
    """邀请: the group's links and QR codes; the view link hands out only the view link."""
    group, can_edit = circle.load_group(request, token)
    base = lan_base(request)

    def absolute(path: str) -> str:
        return base + path if base else request.build_absolute_uri(path)

    links = [("edit", absolute(reverse("group", args=[group.edit_token])))] if can_edit else []
    links.append(("view", absolute(reverse("group", args=[group.view_token]))))
    codes = [(kind, url, qr_svg(url)) for kind, url in links]
    return render(request, "groups/group_share.html", {"group": group, "token": token, "codes": codes})


def person(request: HttpRequest, token: str) -> HttpResponse:
    """A person's page (``?name=``): standings, their evenings, newest first, and what they owe or are owed."""
    group, can_edit = circle.load_group(request, token)
    name = request.GET.get("name", "").strip()
    nights = evenings.evenings(group, can_edit)
    theirs = [(e, e.night_of(name)) for e in nights if name and e.night_of(name) is not None]
    if not theirs and key(name) not in {key(n) for n in group.roster}:
        raise Http404(_("牌友圈里没有这个人"))
    shown = theirs[0][1].name if theirs else next(n for n in group.roster if key(n) == key(name))
    context = {
        "group": group,
        "token": token,
        "can_edit": can_edit,
        "name": shown,
        "periods": person_periods(nights, name),
        "theirs": theirs,
        **person_owed(group, name),
    }
    return render(request, "groups/group_person.html", context)


def person_periods(nights, name: str) -> list[tuple]:
    """(label, the person's standing or None) this week, this month and all time."""
    periods = []
    for period, label in (("week", _("本周")), ("month", _("本月")), ("all", _("全部"))):
        found = [s for s in evenings.standings(nights, evenings.period_start(period)) if key(s.name) == key(name)]
        periods.append((label, found[0] if found else None))
    return periods


def person_owed(group: Group, name: str) -> dict:
    """What the person still owes or is owed: each game's transfers, the settle-ups' and the balance."""
    owed = circle.free_transfers(group)
    open_ups = evenings.open_settle_ups(group)
    balance = next((fen for n, fen in evenings.balances_by_person(owed, open_ups) if key(n) == key(name)), 0)
    mine = [o for o in owed if not hasattr(o.transfer, "settle_up_part") and key(name) in (key(o.payer), key(o.payee))]
    netted = [
        t for up in open_ups for t in up.transfers if t.paid_at is None and key(name) in (key(t.payer), key(t.payee))
    ]
    return {"owed": mine, "netted": netted, "balance": balance}


@require_POST
def again(request: HttpRequest, token: str) -> HttpResponse:
    """再来一局: the next game, opened at once (``draw=1``: seats drawn at random)."""
    group = circle.writable_group(request, token)
    if circle.last_game(group) is None:
        messages.warning(request, _("这个牌友圈还没有牌局：先开一局。"))
        return redirect(reverse("new-game") + f"?group={group.edit_token}")
    spend_new_game(request)  # the budget of new games and an account's cap (429/403 page)
    game = services.again(group, draw=request.POST.get("draw") == "1")
    if request.POST.get("draw") == "1":
        messages.success(request, _("重新抽了座位：%(names)s") % {"names": " · ".join(game.players)})
    response = redirect("game", token=game.edit_token)
    device.remember_game(request, response, game.edit_token)
    claim(request, game, game.edit_token)
    return response


@require_POST
def edit_roster(request: HttpRequest, token: str) -> HttpResponse:
    """改名单: the group's name and roster as typed."""
    group = circle.writable_group(request, token)
    form = GroupForm(request.POST)
    if not form.is_valid():
        messages.warning(request, refusal(form))
        return redirect("group", token=token)
    spend_change(group=group)  # 429 past the group's changes per minute
    services.edit_group(group, **form.cleaned_data)
    messages.success(request, _("名单已保存。"))
    return redirect("group", token=token)


UNDONE = gettext_lazy("已撤销一起结清：各笔转账回到各自那场，仍然没付。")


def said(request: HttpRequest, write, done: str | None = None) -> None:
    """Run a group ``write``: a refusal is a warning and changes nothing, else ``done`` as a success."""
    try:
        write()
    except circle.GroupConflict as conflict:
        messages.warning(request, say(conflict))
    else:
        if done:
            messages.success(request, str(done))


def group_game(request: HttpRequest, token: str):
    """The game of an edit link, which must be in a group (its settle page's group writes)."""
    game = writable_game(request, token)
    if game.group_id is None:
        raise Http404(_("这局不在牌友圈里"))
    return game


@require_POST
def settle_up(request: HttpRequest, token: str) -> HttpResponse:
    """一起结清 from the group page: the unpaid transfers it showed, netted."""
    group = circle.writable_group(request, token)
    ids = evenings.parse_ids(request.POST.get("ids", ""))
    spend_change(group=group)
    said(request, lambda: services.settle_together(group, ids), _("已合并成最少的转账，付了就点「标为已付」。"))
    return redirect("group", token=token)


@require_POST
def paid(request: HttpRequest, token: str, transfer_id: int) -> HttpResponse:
    """已付 on a settle-up's transfer, from the group page."""
    group = circle.writable_group(request, token)
    spend_change(group=group)
    said(request, lambda: services.settle_up_paid(group, transfer_id, request.POST.get("paid") == "1"))
    return redirect("group", token=token)


@require_POST
def undo(request: HttpRequest, token: str, settle_up_id: int) -> HttpResponse:
    """撤销一起结清, from the group page."""
    group = circle.writable_group(request, token)
    spend_change(group=group)
    said(request, lambda: services.undo_settle_up(group, settle_up_id), UNDONE)
    return redirect("group", token=token)


@require_POST
def game_group(request: HttpRequest, token: str) -> HttpResponse:
    """Put a game in a group whose edit link this phone holds (``group``), or take it out (``group`` empty)."""
    game = writable_game(request, token)
    group_token = request.POST.get("group", "")
    if group_token:
        group = circle.writable_group(request, group_token)
        spend_change(game=game)  # 429 past the game's changes per minute
        left = services.join_group(game, group)
        messages.success(request, _("已加入牌友圈「%(name)s」。") % {"name": group.name})
        if left:
            messages.warning(request, circle.roster_full(left))
    else:
        spend_change(game=game)
        services.join_group(game, None)
        messages.success(request, _("已移出牌友圈。"))
    return redirect("game", token=token)


@require_POST
def carry(request: HttpRequest, token: str) -> HttpResponse:
    """Settle a finished group game together with the earlier unpaid transfers its settle page showed."""
    game = group_game(request, token)
    ids = evenings.parse_ids(request.POST.get("ids", ""))
    spend_change(game=game)
    said(
        request,
        lambda: services.settle_together(game.group, ids, game),
        _("已连同以前没付的一起结清：按下面的转账付。"),
    )
    return redirect("settle", token=token)


@require_POST
def carry_paid(request: HttpRequest, token: str, transfer_id: int) -> HttpResponse:
    """已付 on a settle-up's transfer, from the settle page of a game it holds."""
    game = group_game(request, token)
    spend_change(game=game)
    said(request, lambda: services.settle_up_paid(game.group, transfer_id, request.POST.get("paid") == "1", game=game))
    return redirect("settle", token=token)


@require_POST
def carry_undo(request: HttpRequest, token: str, settle_up_id: int) -> HttpResponse:
    """撤销一起结清, from the settle page of a game it holds."""
    game = group_game(request, token)
    spend_change(game=game)
    said(request, lambda: services.undo_settle_up(game.group, settle_up_id, game=game), UNDONE)
    return redirect("settle", token=token)


def _back_to_codes(token: str):
    return redirect(reverse("group", args=[token]) + "#paycodes")


@require_POST
def add_paycode(request: HttpRequest, token: str) -> HttpResponse:
    """A roster person's 收款码, kept for every evening of the group (only its address)."""
    paycode_requests.upload(request, group=circle.writable_group(request, token))
    return _back_to_codes(token)


@require_POST
def remove_paycode(request: HttpRequest, token: str, paycode_id: int) -> HttpResponse:
    paycode_requests.remove(request, paycode_id, group=circle.writable_group(request, token))
    return _back_to_codes(token)


def paycode_png(request: HttpRequest, token: str, paycode_id: int) -> HttpResponse:
    """A group's code as a PNG (view link too: the payers need it)."""
    group, _can_edit = circle.load_group(request, token)
    found = PayCode.objects.filter(pk=paycode_id, group=group).first()
    if found is None:
        raise Http404(_("没有这个收款码"))
    return paycode_requests.served_png(request, found)

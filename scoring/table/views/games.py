"""The home page, a new game, the game page (the ledger), its live updates, sharing and rules."""

import re

import markdown
from django.db.models import Q
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST, require_safe

from scoring import circle, device, live, ready, services
from scoring.access import claim, game_version, load_game, spend_new_game
from scoring.charts import game_chart
from scoring.engine import DEFAULT_RULESET, all_rulesets, get_ruleset
from scoring.engine.seating import key
from scoring.forms import NewGameForm
from scoring.handform import form_side_for
from scoring.lang import pick
from scoring.links import lan_base, qr_svg
from scoring.listing import lines, my_games, my_tokens
from scoring.models import Game
from scoring.people import Seatings, people_in_order
from scoring.table.pages import game_response, ledger_page


def healthz(request: HttpRequest) -> HttpResponse:
    """Liveness: the process answers. The floor the request benchmarks compare with: no query."""
    return HttpResponse("ok", content_type="text/plain")


@require_safe
def readyz(request: HttpRequest) -> HttpResponse:
    """Readiness for the load balancer: 200 or 503 naming each check (scoring/ready.py); writes only Redis's probe key."""
    results = ready.probes()
    ok = all(result == "ok" for result in results.values())
    response = JsonResponse(results, status=200 if ok else 503)
    response.headers["Cache-Control"] = "no-store"
    # A 503 here is logged once, with its reason, by scoring.ready: not again by django.request,
    # which would also mail ADMINS at every poll of the balancer.
    response._has_been_logged = True
    return response


HOME_GAMES = 10  # the latest played; 历史牌局 pages through the rest


@never_cache  # it lists edit links
def home(request: HttpRequest) -> HttpResponse:
    if request.GET.get("from") == "app" and (token := game_in_play(request)):
        return redirect("game", token=token)  # the app on the home screen reopens the game at the table
    tokens = my_tokens(request)
    games = list(my_games(tokens).order_by("-updated_at", "-pk")[: HOME_GAMES + 1])
    context = {"rows": lines(games[:HOME_GAMES], tokens), "more": len(games) > HOME_GAMES, "rulesets": all_rulesets()}
    if lan := lan_base(request, always=True):
        context.update(lan_url=lan + "/", lan_qr=qr_svg(lan + "/"))
    return render(request, "table/home.html", context)


def game_in_play(request: HttpRequest) -> str | None:
    """Where the installed app opens (``/?from=app``): the last game this phone opened if still played, else home."""
    last = device.remembered_tokens(request)[:1]
    if not last:
        return None
    token = last[0]
    game = Game.objects.filter(Q(edit_token=token) | Q(view_token=token)).only("status", "archived_at").first()
    if game is None or game.status != Game.PLAYING or game.archived_at is not None:
        return None
    return token


def new_game(request: HttpRequest) -> HttpResponse:
    """开新牌局: the ruleset first (a tap reloads the form), then its names, presets and rules."""
    data = request.POST if request.method == "POST" else request.GET
    code = data.get("ruleset", DEFAULT_RULESET)
    ruleset = next((r for r in all_rulesets() if r.code == code), None) or get_ruleset(DEFAULT_RULESET)
    group = circle.writable_group(request, data["group"]) if data.get("group") else None  # 在牌友圈里开
    form = NewGameForm(request.POST or None, ruleset=ruleset, initial=circle.new_game_initial(group, ruleset))
    circle.offer_roster(form, group)
    if request.method == "POST" and form.is_valid():
        spend_new_game(request)  # the budget of new games and an account's cap (429/403 page)
        first_dealer = form.cleaned_data["first_dealer"]
        game = services.create_game(
            ruleset=ruleset,
            players=form.names(),
            first_dealer=first_dealer,
            round_length=form.cleaned_data.get("round_length"),
            checks_required=form.cleaned_data["checks_required"],
            rules=form.rules().to_dict(),
            group=group,
        )
        response = redirect("game", token=game.edit_token)
        device.remember_game(request, response, game.edit_token)
        claim(request, game, game.edit_token)
        return response
    return new_game_form(request, form, ruleset, group)


def new_game_form(request: HttpRequest, form: NewGameForm, ruleset, group) -> HttpResponse:
    """The form of 开新牌局, at ``ruleset`` (and in ``group``, if any)."""
    context = {"form": form, "rulesets": all_rulesets(), "ruleset": ruleset, "group": group}
    response = render(request, "table/new_game.html", context)
    if group is not None:  # the page holds the group's edit link
        response["Cache-Control"] = "private, no-store"
    return response


def game_page(request: HttpRequest, token: str) -> HttpResponse:
    game, can_edit = load_game(request, token)
    return game_response(request, game, token, can_edit)


def poll(request: HttpRequest, token: str) -> HttpResponse:
    """Has the game changed since ``v``? 204 or the fresh ledger, with the version as ETag (304 on If-None-Match)."""
    if (quiet := live.quiet_answer(request, game_version(request, token))) is not None:
        return quiet
    game, can_edit = load_game(request, token)
    response = ledger_page(request, "scoring/_live.html", game, token, can_edit)
    response.headers["ETag"] = live.etag(game.version)
    return response  # Cache-Control: private, no-store, as for every token page


@require_POST
def set_me(request: HttpRequest, token: str, seat: int) -> HttpResponse:
    game, can_edit = load_game(request, token)
    if not can_edit or not 0 <= seat < game.plugin.seats:
        raise Http404(_("没有这个座位"))
    response = redirect("game", token=token)
    device.set_my_name(request, response, game.id, game.seating[seat])  # the person, wherever they sit later
    return response


@require_POST
def set_me_by_name(request: HttpRequest, token: str) -> HttpResponse:
    """「我是」 someone of the evening who sits out now (by name: they have no seat to tap)."""
    game, can_edit = load_game(request, token)
    wanted = key(request.POST.get("name", ""))
    seatings = Seatings.of_game(game)
    people = people_in_order(seatings.first, [names for _seq, names in seatings.changes])
    person = next((name for name in people if key(name) == wanted), None)
    if not can_edit or person is None:
        raise Http404(_("这一场没有这个人"))
    response = redirect("game", token=token)
    device.set_my_name(request, response, game.id, person)
    return response


def share(request: HttpRequest, token: str) -> HttpResponse:
    """邀请: the links and QR codes; the view link only hands out the view link."""
    game, can_edit = load_game(request, token)
    base = lan_base(request)

    def absolute(path: str) -> str:
        return base + path if base else request.build_absolute_uri(path)

    links = []
    if can_edit:
        links.append(("edit", absolute(reverse("game", args=[game.edit_token]))))
    links.append(("view", absolute(reverse("game", args=[game.view_token]))))
    codes = [(kind, url, qr_svg(url)) for kind, url in links]
    return render(request, "settle/share.html", {"game": game, "token": token, "codes": codes})


def chart(request: HttpRequest, token: str) -> HttpResponse:
    """走势图, fetched when the player unfolds it (the game page stays small)."""
    game, _can_edit = load_game(request, token)
    return HttpResponse(game_chart(game))


def rules_page(request: HttpRequest, token: str) -> HttpResponse:
    game, _can_edit = load_game(request, token)
    rules = game.house_rules().to_dict()
    house = [(info, rules[name]) for name, info in game.plugin.rule_info.items()]
    form_side = form_side_for(game)
    context = {
        "game": game,
        "token": token,
        "house": house,
        "ruleset_rules": form_side.RULES_TEMPLATE,
        **form_side.rules_context(game.house_rules()),
    }
    return render(request, "table/rules.html", context)


_rules_html: dict[tuple, tuple[str, str]] = {}  # (code, language) → (title, body), read once per process


def _render_rules_doc(code: str) -> tuple[str, str]:
    text = get_ruleset(code).rules_document.read_text(encoding="utf-8")
    # align="…" rather than style="…": the page's CSP allows no inline style.
    body = markdown.markdown(text, extensions=["tables"], extension_configs={"tables": {"use_align_attribute": True}})
    title = re.search(r"<h1>(.*?)</h1>", body)
    body = body.replace("<h1>", '<h1 class="h5">').replace("<h2>", '<h2 class="h6 mt-4">')
    # A wide table scrolls inside its own box, which a keyboard can reach and scroll too.
    tables = iter(range(1, body.count("<table>") + 1))
    body = re.sub(
        "<table>",
        lambda _m: (
            f'<div class="table-responsive" tabindex="0" role="region" aria-label="{_("表格 %(n)s，可左右滑动") % {"n": next(tables)}}">'
            '<table class="table table-sm align-middle">'
        ),
        body,
    )
    body = body.replace("</table>", "</table></div>")
    # Links between the documents (zhuji.md) point at their pages here.
    linked = "|".join(re.escape(r.code) for r in all_rulesets())
    body = re.sub(rf'href="({linked})\.md"', lambda m: f'href="{reverse("rules-doc", args=[m[1]])}"', body)
    return (title[1] if title else code), body


def rules_doc(request: HttpRequest, ruleset: str) -> HttpResponse:
    """规则全文: the ruleset's document (docs/rules/<ruleset>.md, its ``rules_document``) as a page."""
    if ruleset not in {r.code for r in all_rulesets()}:
        raise Http404(_("没有这个玩法"))
    key = (ruleset, translation.get_language())  # the table boxes' names follow the language
    if key not in _rules_html:
        _rules_html[key] = _render_rules_doc(ruleset)
    title, body = _rules_html[key]
    title = pick(title, title.partition(" · ")[2] or title)  # 「义乌麻将 · Yiwu mahjong …」: English alone in English
    return render(request, "table/rules_doc.html", {"ruleset": ruleset, "title": title, "body": body})

"""Looking back: history, stats, summary and share text, export and import."""

from django.contrib import messages
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache

from scoring import device
from scoring.access import load_game, spend_new_game, throttle
from scoring.charts import ledger_chart
from scoring.engine import ScoringError
from scoring.engine.hygiene import loads
from scoring.engine.seating import key
from scoring.forms import ImportForm
from scoring.handform import hand_title
from scoring.lang import say
from scoring.listing import lines, my_games, my_tokens
from scoring.models import Game, Settlement
from scoring.people import by_person
from scoring.records.backup import backup_text, notes
from scoring.records.exports import ImportRefused, game_csv, import_game
from scoring.records.render import summary_rows_html
from scoring.replay import stored_replay
from scoring.share import share_text
from scoring.stats import player_stats

MAX_IMPORT_BYTES = 10 * 1024 * 1024  # above the largest backup of any game (docs/contract.md "A backup")


HISTORY_PAGE = 20  # games per page of 历史牌局


@never_cache  # it lists edit links
def history(request: HttpRequest) -> HttpResponse:
    """历史牌局, newest first, a page at a time; ``?archived=1`` lists the archived games."""
    archived = request.GET.get("archived") == "1"
    tokens = my_tokens(request)
    games = my_games(tokens, archived=archived).order_by("-created_at", "-pk")
    page = Paginator(games, HISTORY_PAGE).get_page(request.GET.get("page"))
    context = {"rows": lines(page, tokens), "page": page, "archived": archived}
    return render(request, "records/history.html", context)


@never_cache
def stats(request: HttpRequest) -> HttpResponse:
    """个人统计 of every game this phone or account holds: the stored totals and tallies added up, no hand read."""
    tokens = my_tokens(request)
    games = [(line.names, line.totals, line.tally) for line in lines(my_games(tokens, archived=None), tokens)]
    return render(request, "records/stats.html", {"stats": player_stats(games), "game_count": len(games)})


def summary(request: HttpRequest, token: str) -> HttpResponse:
    game, _can_edit = load_game(request, token)
    ledger = stored_replay(game, limit=None)
    context = {
        "game": game,
        "token": token,
        "ledger": ledger,
        "share": share_text(ledger, Settlement.objects.filter(game=game).first()),
        "chart": ledger_chart(ledger),
    }
    seen = by_person(game, ledger.rows)
    context["people"] = seen.people
    shown = {key(name) for name in seen.people}  # no one who played no hand
    context["totals"] = [(name, total) for name, total in ledger.state.people() if key(name) in shown]
    hands = [
        (line.row.number, hand_title(game, line.row.hand.entry, line.row.result, line.names), line.nets)
        for line in seen.lines
        if line.row.result
    ]
    context["hands_html"] = summary_rows_html(hands, len(seen.people))
    return render(request, "records/summary.html", context)


def _download_name(game: Game, ext: str) -> str:
    """The ruleset and the table's date and time: nothing that counts the server's games."""
    return f"mahjong-{game.ruleset}-{timezone.localtime(game.created_at):%Y%m%d-%H%M}.{ext}"


def export_csv(request: HttpRequest, token: str) -> HttpResponse:
    game, _can_edit = load_game(request, token)
    response = HttpResponse(game_csv(stored_replay(game, limit=None)), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{_download_name(game, "csv")}"'
    return response


def export_json(request: HttpRequest, token: str) -> HttpResponse:
    game, _can_edit = load_game(request, token)
    response = HttpResponse(backup_text(stored_replay(game, limit=None)), content_type="application/json")
    response["Content-Disposition"] = f'attachment; filename="{_download_name(game, "json")}"'
    return response


def read_backup(raw: bytes):
    """The backup's JSON read as strictly as the API reads it, or ImportRefused saying why not."""
    try:
        data = loads(raw)
    except ScoringError as error:
        raise ImportRefused(f"不是有效的 JSON 文件：{error.zh}", f"Not a valid JSON file: {error.en}") from None
    if isinstance(data, dict) and set(data) == {"night", "tables"}:  # 今晚几桌's backup (scoring/nights/backup.py)
        raise ImportRefused(
            "这是「今晚几桌」的备份：一晚上的几桌属于一个牌友圈。请打开牌友圈（或新建一个），"
            "在「今晚几桌 · 开今晚」页点「恢复今晚的备份」。",
            "This is the backup of a night of several tables, which belongs to a group: open the group (or"
            " a new one), then 「Several tables tonight · Start」 → 「Restore a night's backup」.",
        )
    return data


def import_view(request: HttpRequest) -> HttpResponse:
    """恢复备份: a JSON file (or pasted text) in the scoring contract's shape becomes a game."""
    error = None
    if request.method == "POST":
        throttle(request, "anon")  # 429 past the client's or account's budget (scoring/access.py)
        spend_new_game(request, imported=True)  # and past the imports and new games allowed
        upload = request.FILES.get("file")
        raw = upload.read(MAX_IMPORT_BYTES + 1) if upload else request.POST.get("text", "").encode()
        try:
            if len(raw) > MAX_IMPORT_BYTES:
                raise ImportRefused("文件太大。", "The file is too large.")
            data = read_backup(raw)
            game = import_game(data)
        except ImportRefused as problem:
            error = say(problem)
        else:
            messages.success(request, _("已导入牌局。"))
            for note in notes(data, game):  # what the file could not restore: said, never silent
                messages.warning(request, note)
            response = redirect("game", token=game.edit_token)
            device.remember_game(request, response, game.edit_token)
            return response
    context = {"error": error, "form": ImportForm()}
    return render(request, "records/import.html", context, status=400 if error else 200)

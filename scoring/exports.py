"""A game out and back in: CSV for spreadsheets, contract JSON for backups and moving servers."""

import csv
import io

from django.db import transaction
from django.utils.translation import gettext as _

from scoring.cache import store
from scoring.engine import DEFAULT_RULESET, SEATS_ZH, ScoringError, get_ruleset, score_game
from scoring.engine.points import fmt, to_json
from scoring.entry import entry_for
from scoring.forms import control_character
from scoring.lang import table_words
from scoring.ledger import Ledger, build
from scoring.models import DEFAULT_NAMES, Game, Hand
from scoring.presenters import hand_title

BOM = "\ufeff"  # Excel and WPS read UTF-8 with Chinese intact only with it


def game_json(ledger: Ledger) -> dict:
    """The game as the scoring contract's input: ``score_game`` reproduces its totals.

    Voided hands are left out. A dealer correction before the first hand becomes
    ``first_dealer``; a correction later in the game has no place in the contract, so
    ``mid_game_fixes`` lists them for the caller to warn about.
    """
    game = ledger.game
    active = [row.hand for row in ledger.rows if row.result is not None]
    first_dealer = game.first_dealer
    if active and active[0].fix() is not None:
        first_dealer = active[0].fix()[0]
    return {
        "ruleset": game.ruleset,
        "rules": game.engine_rules().to_dict(),
        "first_dealer": first_dealer,
        "players": list(game.players),
        "hands": [hand.entry for hand in active],
    }


def mid_game_fixes(ledger: Ledger) -> list[int]:
    active = [row.hand for row in ledger.rows if row.result is not None]
    return [hand.seq for hand in active[1:] if hand.fix() is not None]


FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def safe_cell(value):
    """A text cell a spreadsheet would run as a formula gets a leading ' (numbers stay numbers)."""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value


class SafeWriter:
    """csv.writer whose text cells cannot start a formula (names, explanations, void reasons)."""

    def __init__(self, out):
        self.writer = csv.writer(out)

    def writerow(self, row) -> None:
        self.writer.writerow([safe_cell(cell) for cell in row])


CSV_HEADER = ["局", "状态", "庄家", "连庄", "结果", "{count}", "付款人", "收款人", "分数", "说明"]


def game_csv(ledger: Ledger) -> str:
    """One row per payment (a hand without payments gets one row), nets per player at the end."""
    names = ledger.game.players
    out = io.StringIO()
    writer = SafeWriter(out)
    field, label = entry_for(ledger.game).COUNT  # what a hand is paid on: 倍数, 台 or 番
    header = [label if h == "{count}" else h for h in CSV_HEADER]
    writer.writerow(header + [f"{n}输赢" for n in names] + [f"{n}累计" for n in names])
    totals = [0] * len(names)
    for row in ledger.rows:
        title = hand_title(ledger.game, row.hand.entry, row.result)
        if row.result is None:
            writer.writerow(
                [row.hand.seq, f"作废：{row.hand.void_reason}", "", "", title, "", "", "", "", ""]
                + [""] * (2 * len(names))
            )
            continue
        result = row.result
        totals = [t + n for t, n in zip(totals, result.net, strict=True)]
        head = [row.hand.seq, "有效", names[result.dealer], result.streak, title, getattr(result, field)]
        tail = [to_json(n) for n in [*result.net, *totals]]  # numbers a spreadsheet can sum
        for p in result.payments or [None]:
            pay = (
                [names[p.payer], names[p.payee], fmt(p.amount), p.formula(True, names)]
                if p
                else ["", "", "", "无人付分"]
            )
            writer.writerow(head + pay + tail)
    return BOM + out.getvalue()


class ImportError_(ValueError):
    """A file that is not a game this app can import; the message says why, in Chinese."""


def import_game(data) -> Game:
    """Create a game from contract JSON (a backup): scored first, so a bad file changes nothing."""
    try:
        score_game(data)
    except ScoringError as error:
        where = f"第{error.hand + 1}局：" if error.hand is not None else ""
        raise ImportError_(f"{where}{table_words(error.zh)}") from None
    ruleset = get_ruleset(data.get("ruleset", DEFAULT_RULESET))
    players = data.get("players") or list(DEFAULT_NAMES[: ruleset.seats])
    for name in players:
        if code := control_character(name):
            raise ImportError_(_("名字不能包含控制字符或文字方向字符（%(code)s）。") % {"code": code})
    rules = ruleset.parse_rules(data.get("rules", {}))
    with transaction.atomic():
        game = Game.objects.create(
            ruleset=ruleset.code,
            players=players,
            first_dealer=data.get("first_dealer", 0),
            rules=rules.to_dict(),
        )
        Hand.objects.bulk_create(Hand(game=game, seq=i, entry=entry) for i, entry in enumerate(data["hands"], start=1))
        store(game, build(game))
        if data["hands"]:
            game.bump_version()
    return game


def share_text(ledger: Ledger) -> str:
    """A few lines for WeChat: the players' totals and the hand count."""
    game = ledger.game
    lines = [f"{game.engine.zh} {game.created_at:%m-%d} · 共{ledger.active_count()}局"]
    order = sorted(range(len(game.players)), key=lambda s: -ledger.totals[s])
    lines += [f"{game.players[s]}（{SEATS_ZH[s]}）{fmt(ledger.totals[s], signed=True)}" for s in order]
    return "\n".join(lines)

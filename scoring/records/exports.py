"""A game out and back in: CSV for spreadsheets; a backup (scoring/records/backup.py) restored."""

import csv
import io
import re

from django.conf import settings

from scoring.engine import DEFAULT_RULESET, ScoringError, all_rulesets, get_ruleset, score_game
from scoring.engine.contract import seat_kept_the_deal
from scoring.engine.errors import BilingualError
from scoring.engine.points import fmt, to_json
from scoring.forms import control_character
from scoring.handform import hand_title
from scoring.lang import chinese, pick, table_words
from scoring.models import DEFAULT_NAMES, Game
from scoring.people import by_person
from scoring.records.backup import BackupError, restore_game
from scoring.replay import ReplayView

BOM = "\ufeff"  # Excel and WPS read UTF-8 with Chinese intact only with it

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
CSV_HEADER_EN = ["Hand", "Status", "Dealer", "Streak", "Result", "{count}", "Payer", "Payee", "Points", "Explanation"]


def game_csv(ledger: ReplayView) -> str:
    """One row per payment, then each person's net and running total in the evening's order; a seating is its own row."""
    evening_ = by_person(ledger.game, ledger.rows)
    people = evening_.people
    out = io.StringIO()
    writer = SafeWriter(out)
    zh = chinese()  # the header and the words in the cells follow the page's language
    label = pick(*ledger.game.plugin.count_word)  # what a hand is paid on: 倍数, 台 or 番
    header = [label if h == "{count}" else h for h in (CSV_HEADER if zh else CSV_HEADER_EN)]
    nets, runs = (
        ([f"{n}输赢" for n in people], [f"{n}累计" for n in people])
        if zh
        else (
            [f"{n} net" for n in people],
            [f"{n} total" for n in people],
        )
    )
    writer.writerow(header + nets + runs)
    void, counted, nobody = ("作废：", "有效", "无人付分") if zh else ("Void: ", "Counted", "Nobody pays")
    seating = "换人/换位" if zh else "Seating"
    totals = [0] * len(people)
    for line in evening_.lines:
        row, names = line.row, line.names
        title = hand_title(ledger.game, row.hand.entry, row.result, names)
        if row.result is None:
            writer.writerow(
                ["", f"{void}{row.hand.void_reason}", "", "", title, "", "", "", "", ""] + [""] * (2 * len(people))
            )
            continue
        if line.nets is None:  # a seating: who sits where from here on
            writer.writerow(["", seating, "", "", title, "", "", "", "", ""] + [""] * len(people) + totals)
            continue
        result = row.result
        totals = [t if n is None else t + n for t, n in zip(totals, line.nets, strict=True)]
        head = [row.number, counted, names[result.dealer], result.streak, title, result.paid_on]
        tail = ["" if n is None else to_json(n) for n in line.nets] + [to_json(t) for t in totals]
        for p in result.payments or [None]:
            pay = [names[p.payer], names[p.payee], fmt(p.amount), p.formula(zh, names)] if p else ["", "", "", nobody]
            writer.writerow(head + pay + tail)
    return BOM + out.getvalue()


class ImportRefused(BilingualError):
    """A file that is not a game this app can import; the message says why."""


# The contract's field names as the table says them, for import errors ("winner 应为…" → "谁胡了 应为…").
FIELD_TERMS = {
    "game": "牌局",
    "hands": "牌局记录",
    "players": "玩家名字",
    "first_dealer": "首局庄家",
    "rules": "约定",
    "ruleset": "玩法",
    "outcome": "结果",
    "winner": "谁胡了",
    "win_type": "胡牌型",
    "discarder": "谁放铳",
    "dealer_fix": "更正庄家",
    "corrections": "更正庄家",
    "backup": "备份",
    "tiles": "牌",
    "melded": "副露",
    "seat_wind": "门风",
}
_FIELD = re.compile(r"(?<![A-Za-z0-9_：:])[a-z][a-z0-9_]*(?![A-Za-z0-9_])")


def in_table_terms(text: str, code=None) -> str:
    """An engine refusal in the table's Chinese terms for a person restoring a backup; unknown names stay as spelled."""
    rulesets = [r for r in all_rulesets() if r.code == code] or all_rulesets()
    own = {n: t for r in rulesets for n, t in [*r.field_terms.items(), *((k, i.zh) for k, i in r.rule_info.items())]}
    terms = {**FIELD_TERMS, **own}
    return _FIELD.sub(lambda m: terms.get(m.group(0), m.group(0)), table_words(text))


def import_game(data) -> Game:
    """Create a game from a backup, scored first so a bad or oversized file changes nothing."""
    if isinstance(data, dict) and isinstance(data.get("backup"), dict) and data["backup"].get("format") == 2:
        data = seat_kept_the_deal(data)
    try:
        score_game(data, settings.MAX_PEOPLE_PER_GAME)
    except ScoringError as error:
        code = data.get("ruleset", DEFAULT_RULESET) if isinstance(data, dict) else None
        if error.hand is None:
            raise ImportRefused(in_table_terms(error.zh, code), error.en) from None
        raise ImportRefused(
            f"第{error.hand + 1}局：{in_table_terms(error.zh, code)}", f"Hand {error.hand + 1}: {error.en}"
        ) from None
    ruleset = get_ruleset(data.get("ruleset", DEFAULT_RULESET))
    players = data.get("players") or list(DEFAULT_NAMES[: ruleset.seats])
    for name in players:
        if code := control_character(name):
            raise ImportRefused(
                f"名字不能包含控制字符或文字方向字符（{code}）。",
                f"Names may not contain control or text-direction characters ({code}).",
            )
    rules = ruleset.parse_rules(data.get("rules", {}))
    try:
        return restore_game(data=data, ruleset=ruleset, players=players, rules=rules)
    except BackupError as error:
        raise ImportRefused(error.zh, error.en) from None

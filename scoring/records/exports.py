"""A game out and back in: CSV for spreadsheets; a backup (scoring/records/backup.py) restored."""

import csv
import io
import re

from django.conf import settings
from django.utils import timezone

from scoring.engine import DEFAULT_RULESET, SEATS_EN, SEATS_ZH, ScoringError, all_rulesets, get_ruleset, score_game
from scoring.engine.contract import seat_kept_the_deal
from scoring.engine.errors import BilingualError
from scoring.engine.points import fmt, from_json, to_json
from scoring.engine.seating import key
from scoring.engine.transfers import NOT_FEWEST, proven_fewest
from scoring.forms import control_character
from scoring.groups.evenings import netted_fewest, together_at
from scoring.lang import chinese, pick, table_words
from scoring.models import DEFAULT_NAMES, Game
from scoring.people import by_person
from scoring.records.backup import BackupError, restore_game
from scoring.replay import ReplayView, who_played
from scoring.table.presenters import hand_title
from scoring.yuan import money, rounding_words, won_or_lost, yuan_text

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


def share_text(ledger: ReplayView, settlement=None) -> str:
    """A few lines for WeChat in the page's language: totals, hand count and, once settled, 元, rate, fee and transfers."""
    game, zh = ledger.game, chinese()
    seats = SEATS_ZH if zh else SEATS_EN
    count = ledger.active_count()
    when = timezone.localtime(game.created_at)
    head = f"{game.plugin.zh} {when:%m-%d} · 共{count}局" if zh else f"{game.plugin.en} {when:%m-%d} · {count} hands"
    lines = [head]
    people = who_played(game)
    if settlement is not None:  # as settled (the game's people then are its people now: it is finished)
        people = list(zip(settlement.people(), [from_json(p) for p in settlement.points], strict=True))
    names, totals = [name for name, _t in people], [total for _name, total in people]
    seat_of = {key(name): s for s, name in enumerate(ledger.state.seating)}
    balances = settlement.balances_fen if settlement is not None else None
    order = sorted(range(len(names)), key=lambda i: -totals[i])
    for i in order:
        seat = seat_of.get(key(names[i]))
        if seat is None:  # sitting out
            where = " "
        else:
            where = f"（{seats[seat]}）" if zh else f" ({seats[seat]}) "
        line = f"{names[i]}{where}{fmt(totals[i], signed=True)}"
        if balances is not None:
            line += f" · {won_or_lost(balances[i], zh)}"
        lines.append(line)
    if settlement is None:
        return "\n".join(lines)
    if (moved := settlement.rounded_away()) is not None:
        lines.append(rounding_words(names, moved, zh))
    rate, fee = yuan_text(settlement.rate_fen), yuan_text(settlement.fee_fen)
    lines.append(f"每点 {rate} 元 · 台费 {fee} 元" if zh else f"¥{rate} a point · table fee ¥{fee}")
    if settlement.fee_fen:
        payer, paid = names[settlement.fee_payee], money(settlement.fee_fen, zh)
        lines.append(
            f"{payer} 垫付台费 {paid}（已算入）" if zh else f"{payer} advanced the table fee {paid} (counted in)"
        )
    together = together_lines(game, zh)
    if together:  # tonight's transfers were netted with earlier unpaid ones: only those are paid
        return "\n".join(lines + together)
    transfers = list(settlement.transfers.all())
    lines.append("转账：" if zh else "Transfers:")
    lines += [f"{names[t.payer]} → {names[t.payee]} {money(t.amount_fen, zh)}" for t in transfers]
    if not transfers:
        lines.append("没有人需要转账。" if zh else "Nobody needs to pay.")
    if not proven_fewest(settlement.balances_fen):
        lines.append(NOT_FEWEST[0] if zh else NOT_FEWEST[1])
    return "\n".join(lines)


def together_lines(game, zh: bool) -> list[str]:
    """The 一起结清 made at ``game`` (``together_at``) as share-text lines; none if settled alone."""
    together = together_at(game)
    if together is None:
        return []
    dates, transfers = together
    dates = ("、" if zh else ", ").join(dates)
    lines = [
        f"转账（连同 {dates} 没付的一起结清）："
        if zh
        else f"Transfers (settled together with what was unpaid from {dates}):"
    ]
    lines += [f"{payer} → {payee} {money(fen, zh)}" for payer, payee, fen in transfers]
    if not transfers:
        lines.append("正好抵消：谁也不用转账。" if zh else "It all cancels out: nobody needs to pay.")
    if not netted_fewest(transfers):
        lines.append(NOT_FEWEST[0] if zh else NOT_FEWEST[1])
    return lines

"""The evening as a 1080 px SVG for the group chat (晒图), from the same numbers as the settle page.

The phone turns it into a PNG with its own fonts (static/js/app.js), so the server needs none."""

import re
from dataclasses import dataclass, field

from django.utils import timezone
from django.utils.html import escape

from scoring import charts
from scoring.charts import RED, clip, money_colour, running_totals_svg, width
from scoring.circle import netted_fewest, together_at
from scoring.engine.points import fmt, from_json
from scoring.engine.transfers import NOT_FEWEST, proven_fewest
from scoring.lang import chinese, pick
from scoring.models import Game, Settlement
from scoring.replay import all_nets
from scoring.yuan import money, rounding_words, won_or_lost, yuan_text

WIDTH = 1080
MARGIN = 60
FONT = "'PingFang SC','Hiragino Sans GB','Noto Sans CJK SC','Source Han Sans SC','Microsoft YaHei',sans-serif"
NAME_ROOM = 16  # narrow characters a name may take before it is cut with …
ROUNDING_ROOM = 58  # narrow characters of 32 px text in the picture's width


@dataclass
class Person:
    name: str
    points: object  # int, or an exact half (诸暨)
    fen: int | None  # 元 in 分 once settled (the fee counted), None before

    @property
    def words(self) -> str:
        return money_words(self)


@dataclass
class Facts:
    """What the picture says, each as the settle page says it."""

    date: str
    ruleset: str
    rate: str  # 「每点 0.5 元 · 台费 40 元」, or 「未结算」
    people: list[Person]  # largest first
    transfers: list[tuple[str, str, int]] = field(default_factory=list)  # payer, payee, 分
    transfers_title: str = ""  # 「转账」, or which earlier evenings were settled with it
    transfers_note: str = ""  # 「人数较多，转账笔数未必最少。」 when they are not proven the fewest
    rounding: str = ""  # 「抹零：老王 −0.50，阿明 +0.50」 when the settlement rounded to whole 元
    hands: int = 0
    biggest: tuple[int, str, object] | None = None  # (第N局, winner, points)
    nets: list = field(default_factory=list)  # each counted hand's nets by person
    names: list[str] = field(default_factory=list)  # every person, in order of first appearance, for the chart


def facts_of(game: Game, settlement: Settlement | None) -> Facts:
    """The picture's facts by person who played: a settled game in 元 with its transfers, an open one in points."""
    names, nets = all_nets(game)
    if settlement is not None:
        points = [from_json(p) for p in settlement.points]
        settled = settlement.people()
        people = [Person(n, p, f) for n, p, f in zip(settled, points, settlement.balances_fen, strict=True)]
        names = settled
        transfers = [(settled[t.payer], settled[t.payee], t.amount_fen) for t in settlement.transfers.all()]
        title = pick("转账", "Transfers")
        fewest = proven_fewest(settlement.balances_fen)
        moved = settlement.rounded_away()
        rounding = "" if moved is None else rounding_words(settled, moved, chinese())
        if together := together_at(game):  # settled with earlier evenings' unpaid transfers: those netted
            transfers = together[1]
            title = pick("转账（连同以前没付的一起结清）", "Transfers (with earlier unpaid ones)")
            fewest = netted_fewest(transfers)
        rate = pick(
            f"每点 {yuan_text(settlement.rate_fen)} 元 · 台费 {yuan_text(settlement.fee_fen)} 元",
            f"¥{yuan_text(settlement.rate_fen)} a point · table fee ¥{yuan_text(settlement.fee_fen)}",
        )
        if settlement.fee_fen:  # whoever fronted the fee: their 元 already holds it back
            rate += pick(
                f"（{settled[settlement.fee_payee]}垫付，已算入）",
                f" (advanced by {settled[settlement.fee_payee]}, counted in)",
            )
    else:
        totals = [sum((net[person] for net in nets), 0) for person in range(len(names))]
        people = [Person(n, p, None) for n, p in zip(names, totals, strict=True)]
        transfers, rate, title, rounding = [], pick("未结算 · 按分计", "Not settled · in points"), "", ""
        fewest = True
    people.sort(key=lambda p: -(p.fen if p.fen is not None else p.points))  # stable: first seen first on ties
    return Facts(
        date=f"{timezone.localtime(game.created_at):%Y-%m-%d}",
        ruleset=pick(game.plugin.zh, game.plugin.en),
        rate=rate,
        people=people,
        transfers=transfers,
        transfers_title=title,
        transfers_note="" if fewest else pick(*NOT_FEWEST),
        rounding=rounding,
        hands=len(nets),
        biggest=biggest_hand(nets, names),
        nets=nets,
        names=names,
    )


def biggest_hand(nets: list, names: list[str]) -> tuple[int, str, object] | None:
    """(number, winner, points) of the counted hand with the largest single gain, the earliest on a tie."""
    best = None
    for number, net in enumerate(nets, start=1):
        person = max(range(len(net)), key=lambda s: net[s])
        if net[person] > 0 and (best is None or net[person] > best[2]):
            best = (number, names[person], net[person])
    return best


def money_words(person: Person) -> str:
    """「赢 153 元」「输 47 元」 as the share text says it (scoring/yuan.py); in points before settling."""
    if person.fen is not None:
        return won_or_lost(person.fen, chinese())
    value = person.points
    if value == 0:
        return pick("不输不赢", "even")
    won, amount = value > 0, fmt(abs(value))
    return pick(f"{'赢' if won else '输'} {amount} 分", f"{'+' if won else '−'}{amount} pts")


def transfer_words(payer: str, payee: str, fen: int) -> str:
    """「阿明 → 老王 47 元」."""
    return f"{clip(payer, NAME_ROOM)} → {clip(payee, NAME_ROOM)} {money(fen, chinese())}"


def wrapped(text: str, room: int) -> list[str]:
    """``text`` in lines of at most ``room`` narrow characters, broken after commas so each person's part stays whole."""
    lines: list[str] = []
    for piece in re.split(r"(?<=，)|(?<=, )", text) if text else []:
        if lines and width(lines[-1] + piece) <= room:
            lines[-1] += piece
        else:
            lines.append(piece if width(piece) <= room else clip(piece, room))
    return lines


def _text(x, y, body: str, size: int, *, fill: str = "#222", weight: int = 400, anchor: str = "start") -> str:
    return (
        f'<text x="{x}" y="{y}" font-size="{size}" font-weight="{weight}" fill="{fill}" '
        f'text-anchor="{anchor}">{escape(body)}</text>'
    )


def picture_svg(facts: Facts) -> str:
    """The picture: heading, each person's result, the transfers, the hands, the chart."""
    right = WIDTH - MARGIN
    parts = [
        _text(MARGIN, 100, pick("麻将记分", "Mahjong scores"), 56, weight=700, fill=RED),
        _text(right, 100, facts.date, 40, fill="#555", anchor="end"),
        _text(MARGIN, 160, f"{facts.ruleset} · {facts.rate}", 36, fill="#444"),
    ]
    y = 250
    for person in facts.people:
        value = person.fen if person.fen is not None else person.points
        parts.append(_text(MARGIN, y, clip(person.name, NAME_ROOM), 52, weight=700))
        parts.append(_text(right, y, money_words(person), 52, weight=700, fill=money_colour(value), anchor="end"))
        y += 84
    for line in wrapped(facts.rounding, ROUNDING_ROOM):
        parts.append(_text(MARGIN, y - 20, line, 32, fill="#555"))
        y += 44
    if facts.transfers:
        y += 20
        parts.append(_text(MARGIN, y, facts.transfers_title, 36, fill="#555"))
        y += 64
        for payer, payee, fen in facts.transfers:
            parts.append(_text(MARGIN, y, transfer_words(payer, payee, fen), 44))
            y += 64
        if facts.transfers_note:
            parts.append(_text(MARGIN, y - 10, facts.transfers_note, 30, fill="#555"))
            y += 44
    y += 30
    parts.append(_text(MARGIN, y, pick(f"共 {facts.hands} 局", f"{facts.hands} hands"), 36, fill="#444"))
    if facts.biggest is not None:
        number, winner, points = facts.biggest
        biggest = pick(
            f"最大一局：第{number}局 {clip(winner, NAME_ROOM)} +{fmt(points)}",
            f"Biggest hand: #{number} {clip(winner, NAME_ROOM)} +{fmt(points)}",
        )
        parts.append(_text(right, y, biggest, 36, fill="#444", anchor="end"))
    y += 30
    chart_height = WIDTH * charts.chart_height(len(facts.names)) // charts.WIDTH  # the chart's own units, scaled
    chart = running_totals_svg(
        facts.names, facts.nets, pick("每人总分走势", "Running totals"), place=(0, y, WIDTH, chart_height)
    )
    parts.append(chart)
    height = y + chart_height + 30
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{height}" '
        f'viewBox="0 0 {WIDTH} {height}" font-family="{FONT}">'
        f'<rect width="{WIDTH}" height="{height}" fill="#fffdf7"/>{"".join(parts)}</svg>'
    )

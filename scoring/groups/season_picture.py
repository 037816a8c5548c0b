"""The season as a 1080 px SVG for the group chat: its name and dates, the standings, the biggest hand
and who won most (docs/manual.md "赛季"). Drawn like the evening's picture (scoring/settle/picture.py):
the phone turns it into a PNG with its own fonts (static/js/app.js)."""

from dataclasses import dataclass

from django.utils import timezone
from django.utils.html import escape

from scoring.charts import RED, clip, money_colour
from scoring.engine.points import fmt, from_json
from scoring.engine.seating import key
from scoring.groups.seasons import Board, dates_text, per_hand_text
from scoring.lang import chinese, pick
from scoring.replay import ReplayError, all_nets
from scoring.settle.picture import FONT, MARGIN, NAME_ROOM, WIDTH
from scoring.yuan import won_or_lost

ROWS = 16  # the standings drawn; the rest are 「还有N人」
ROW = 84


@dataclass
class Biggest:
    name: str
    points: object
    date: str  # the game's local date
    number: int | None  # 第N局 among the game's counted hands, None if it no longer replays


def biggest_of(found: Board) -> Biggest | None:
    """The largest single-hand gain of the season, the earliest game on a tie: whose, how much, which game and 局.
    Read from the tallies; only that one game's hands are read, to find its 局."""
    best = None
    for s in found.everyone:
        if s.biggest > 0 and (best is None or s.biggest > best.biggest):
            best = s
    if best is None:
        return None
    evening = min(
        (e for e in best.nights if (n := e.night_of(best.name)) and from_json(n.tally["biggest"]) == best.biggest),
        key=lambda e: (e.game.created_at, e.game.pk),
    )
    day = f"{timezone.localtime(evening.game.created_at):%m-%d %H:%M}"  # several tables a night: the game's time too
    return Biggest(best.name, best.biggest, day, hand_number(evening.game, best.name, best.biggest))


def hand_number(game, name: str, points) -> int | None:
    try:
        names, nets = all_nets(game)
    except ReplayError:
        return None
    seat = next((i for i, n in enumerate(names) if key(n) == key(name)), None)
    if seat is None:
        return None
    return next((number for number, net in enumerate(nets, start=1) if net[seat] == points), None)


def most_wins(found: Board) -> tuple[list[str], int]:
    """Who won the most hands (all of them on a tie) and how many; nobody with no win."""
    top = max((s.wins for s in found.everyone), default=0)
    return ([s.name for s in found.everyone if s.wins == top] if top else []), top


def _text(x, y, body: str, size: int, *, fill: str = "#222", weight: int = 400, anchor: str = "start") -> str:
    return (
        f'<text x="{x}" y="{y}" font-size="{size}" font-weight="{weight}" fill="{fill}" '
        f'text-anchor="{anchor}">{escape(body)}</text>'
    )


def picture_svg(found: Board, group_name: str) -> str:
    """The picture: the season's name and dates, up to ``ROWS`` ranked rows, who else, the biggest hand, most wins."""
    season = found.season
    right = WIDTH - MARGIN
    parts = [
        _text(MARGIN, 100, clip(season.name, 24), 56, weight=700, fill=RED),
        _text(right, 100, clip(group_name, 16), 36, fill="#555", anchor="end"),
        _text(
            MARGIN,
            160,
            dates_text(season) + pick(f" · 已结算 {found.counted} 场", f" · {found.counted} settled games"),
            34,
            fill="#444",
        ),
        _text(MARGIN, 215, pick("名次 · 名字", "Rank · name"), 28, fill="#777"),
        _text(right - 330, 215, pick("每局（元）", "Per hand (¥)"), 28, fill="#777", anchor="end"),
        _text(right, 215, pick("输赢 · 局数", "Won · hands"), 28, fill="#777", anchor="end"),
    ]
    y = 290
    for place, s in found.ranked[:ROWS]:
        parts.append(_text(MARGIN, y, f"{place}", 44, weight=700, fill="#888"))
        parts.append(_text(MARGIN + 80, y, clip(s.name, NAME_ROOM), 48, weight=700))
        parts.append(_text(right - 330, y, per_hand_text(s), 40, fill=money_colour(s.fen), anchor="end"))
        parts.append(
            _text(right, y, won_or_lost(s.fen, chinese()), 46, weight=700, fill=money_colour(s.fen), anchor="end")
        )
        parts.append(_text(right, y + 34, pick(f"{s.hands} 局", f"{s.hands} hands"), 26, fill="#777", anchor="end"))
        y += ROW
    if not found.ranked:
        parts.append(_text(MARGIN, y, pick("还没有人排上名。", "Nobody is ranked yet."), 40, fill="#555"))
        y += ROW
    more = len(found.ranked) - ROWS
    if more > 0:
        parts.append(_text(MARGIN, y - 10, pick(f"还有 {more} 人", f"{more} more"), 34, fill="#555"))
        y += 56
    if found.unranked:
        under = pick(
            f"未满{found.min_hands}局，不排名：{len(found.unranked)} 人",
            f"Under {found.min_hands} hands, not ranked: {len(found.unranked)}",
        )
        parts.append(_text(MARGIN, y - 10, under, 32, fill="#555"))
        y += 56
    y += 30
    biggest = biggest_of(found)
    if biggest is not None:
        where = pick(f"{biggest.date} 那场", f"the {biggest.date} game")
        if biggest.number is not None:
            where += pick(f"第{biggest.number}局", f", hand {biggest.number}")
        words = pick(
            f"最大一局：{clip(biggest.name, NAME_ROOM)} +{fmt(biggest.points)} 分（{where}）",
            f"Biggest hand: {clip(biggest.name, NAME_ROOM)} +{fmt(biggest.points)} pts ({where})",
        )
        parts.append(_text(MARGIN, y, words, 36, fill="#444"))
        y += 60
    names, wins = most_wins(found)
    if names:
        shown = "、".join(clip(n, NAME_ROOM) for n in names[:3]) + ("…" if len(names) > 3 else "")
        parts.append(
            _text(MARGIN, y, pick(f"胡得最多：{shown} {wins} 次", f"Most wins: {shown}, {wins}"), 36, fill="#444")
        )
        y += 60
    height = y + 20
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{height}" '
        f'viewBox="0 0 {WIDTH} {height}" font-family="{FONT}">'
        f'<rect width="{WIDTH}" height="{height}" fill="#fffdf7"/>{"".join(parts)}</svg>'
    )

"""赛季: a 牌友圈's standings over a named period, who is ranked, and the period a page asks for
(docs/manual.md "赛季"). The numbers are the group's standings' (scoring/groups/evenings.py): settled
games only, in 元 as each settlement rounded them, each person's hands from the replay's tally by
person, so a night of several tables counts each table's game like any other."""

import io
from dataclasses import dataclass, field
from datetime import date, datetime, time, timedelta
from decimal import Decimal

from django.utils import timezone

from scoring.engine.points import fmt
from scoring.groups.evenings import GroupEvening, Standing, in_period, period_start, standings
from scoring.lang import chinese, pick
from scoring.models import Season
from scoring.records.exports import BOM, SafeWriter

SEASON = "season-"  # ?period=season-<id>


def local_midnight(day: date) -> datetime:
    return timezone.make_aware(datetime.combine(day, time.min))


def window(season: Season) -> tuple[datetime, datetime]:
    """From the first day's local midnight to the midnight after the last day (the end date counts)."""
    return local_midnight(season.start), local_midnight(season.end + timedelta(days=1))


def chosen(period: str, seasons: list[Season]) -> tuple[str, Season | None]:
    """The period asked for (``week``, ``month``, ``all``, ``season-<id>`` of this group), else ``all``."""
    if period in ("week", "month", "all"):
        return period, None
    if period.startswith(SEASON) and period[len(SEASON) :].isascii() and period[len(SEASON) :].isdigit():
        wanted = period[len(SEASON) :]
        found = next((s for s in seasons if str(s.pk) == wanted), None)
        if found is not None:
            return period, found
    return "all", None


@dataclass
class Board:
    """The standings of a period: the ranked (each with its place, ties sharing it), then those under the minimum."""

    ranked: list[tuple[int, Standing]]
    unranked: list[Standing]
    min_hands: int
    counted: int  # settled games in the period
    unsettled: int  # games in the period not settled yet (they count nowhere)
    season: Season | None = None
    everyone: list[Standing] = field(default_factory=list)


def bounds(period: str, season: Season | None) -> tuple[datetime | None, datetime | None]:
    return window(season) if season is not None else (period_start(period), None)


def board(nights: list[GroupEvening], period: str, season: Season | None) -> Board:
    """The standings of ``period`` (a season's window and minimum of hands; none for week, month, all)."""
    start, end = bounds(period, season)
    everyone = standings(nights, start, end)
    least = season.min_hands if season is not None else 0
    ranked, place = [], 0
    for s in (s for s in everyone if s.hands >= least):
        if not ranked or ranked[-1][1].fen != s.fen:
            place = len(ranked) + 1
        ranked.append((place, s))
    return Board(
        ranked=ranked,
        unranked=[s for s in everyone if s.hands < least],
        min_hands=least,
        counted=sum(1 for e in nights if e.settled and in_period(e, start, end)),
        unsettled=sum(1 for e in nights if not e.settled and in_period(e, start, end)),
        season=season,
        everyone=everyone,
    )


def per_hand_text(standing: Standing) -> str:
    """「+1.2」: 元 per hand to one decimal (``Standing.per_hand``), 「—」 without a hand."""
    jiao = standing.per_hand
    if jiao is None:
        return "—"
    sign = "+" if jiao > 0 else "−" if jiao < 0 else ""
    return f"{sign}{abs(jiao) // 10}.{abs(jiao) % 10}"


def dates_text(season: Season) -> str:
    return f"{season.start:%Y-%m-%d} – {season.end:%Y-%m-%d}"


CSV_HEADER = ["名次", "名字", "输赢（元）", "每局（元）", "局数", "场数", "胡", "自摸", "放铳", "最大一局（分）"]
CSV_HEADER_EN = [
    "Rank",
    "Name",
    "Won (¥)",
    "Per hand (¥)",
    "Hands",
    "Games",
    "Wins",
    "Self-drawn",
    "Dealt in",
    "Biggest",
]


def board_csv(found: Board) -> str:
    """The standings as a spreadsheet: the ranked with their place, then the unranked with 「未满N局」."""
    out = io.StringIO()
    writer = SafeWriter(out)
    writer.writerow(CSV_HEADER if chinese() else CSV_HEADER_EN)
    under = pick(f"未满{found.min_hands}局", f"under {found.min_hands} hands")
    rows = [(place, s) for place, s in found.ranked] + [(under, s) for s in found.unranked]
    for place, s in rows:
        average = "" if s.per_hand is None else Decimal(s.per_hand) / 10  # numbers stay numbers (no formula guard)
        row = [place, s.name, Decimal(s.fen) / 100, average, s.hands, s.games, s.wins, s.zimo, s.discards]
        writer.writerow([*row, fmt(s.biggest)])
    return BOM + out.getvalue()

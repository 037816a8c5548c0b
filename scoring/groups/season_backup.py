"""赛季 out and back in: a 牌友圈's seasons as JSON (``GET /group/<token>/seasons.json``, each with its
standings), and a file of them restored into a group (docs/manual.md "赛季"). Every season is checked
before any is made; a refusal says which one and why, in Chinese and English."""

from datetime import date

from scoring.engine.errors import BilingualError
from scoring.engine.points import to_json
from scoring.forms import control_character
from scoring.groups.evenings import GroupEvening
from scoring.groups.seasons import SEASON, board
from scoring.models import Season

FORMAT = 1
KIND = "seasons"
FIELDS = frozenset(("name", "start", "end", "min_hands"))
OPTIONAL = frozenset(("counted", "standings"))  # written for the reader; a restore computes them again


class SeasonsError(BilingualError):
    """A seasons file this app cannot restore."""


def seasons_json(group_name: str, held: list[Season], nights: list[GroupEvening]) -> dict:
    """The group's seasons (at most ``Season.MAX_PER_GROUP``), each with its standings as the page ranks them."""
    out = []
    for season in held:
        found = board(nights, f"{SEASON}{season.pk}", season)
        rows = [(place, s) for place, s in found.ranked] + [(None, s) for s in found.unranked]
        standings = [
            {
                "place": place,  # null: under the season's minimum of hands
                "name": s.name,
                "fen": s.fen,
                "hands": s.hands,
                "per_hand_jiao": s.per_hand,
                "games": s.games,
                "wins": s.wins,
                "zimo": s.zimo,
                "discards": s.discards,
                "biggest": to_json(s.biggest),
            }
            for place, s in rows
        ]
        fields = {"name": season.name, "start": f"{season.start:%Y-%m-%d}", "end": f"{season.end:%Y-%m-%d}"}
        out.append({**fields, "min_hands": season.min_hands, "counted": found.counted, "standings": standings})
    return {"format": FORMAT, "kind": KIND, "group": group_name, "seasons": out}


def _refuse(number: int | None, zh: str, en: str):
    where = ("", "") if number is None else (f"第{number}个赛季：", f"season {number}: ")
    raise SeasonsError(f"赛季文件：{where[0]}{zh}", f"Seasons file: {where[1]}{en}", "seasons")


def _date(value, number: int, what: tuple[str, str]) -> date:
    try:
        if isinstance(value, str) and len(value) == 10:
            return date.fromisoformat(value)
    except ValueError:
        pass
    _refuse(number, f"{what[0]}应为 YYYY-MM-DD 的日期。", f"{what[1]} must be a YYYY-MM-DD date.")


def _season(raw, number: int) -> dict:
    if not isinstance(raw, dict) or not FIELDS <= raw.keys() or not raw.keys() <= FIELDS | OPTIONAL:
        _refuse(number, "应有 name、start、end、min_hands。", "needs name, start, end and min_hands.")
    name = raw["name"].strip() if isinstance(raw["name"], str) else ""
    if not name or len(name) > Season.NAME_LIMIT or control_character(name):
        limit = Season.NAME_LIMIT
        _refuse(
            number,
            f"名字应为 1-{limit} 个字，不含控制字符。",
            f"the name must be 1-{limit} characters, no control ones.",
        )
    start, end = _date(raw["start"], number, ("开始日期", "start")), _date(raw["end"], number, ("结束日期", "end"))
    if end < start:
        _refuse(number, "结束日期早于开始日期。", "it ends before it starts.")
    hands = raw["min_hands"]
    if isinstance(hands, bool) or not isinstance(hands, int) or not 0 <= hands <= Season.MAX_MIN_HANDS:
        top = Season.MAX_MIN_HANDS
        _refuse(number, f"min_hands 应为 0-{top} 的整数。", f"min_hands must be a whole number 0-{top}.")
    return {"name": name, "start": start, "end": end, "min_hands": hands}


def read_seasons(data) -> list[dict]:
    """The seasons of a file ``seasons_json`` wrote, each checked; ``SeasonsError`` at the first wrong one."""
    if not isinstance(data, dict) or data.get("kind") != KIND or data.get("format") != FORMAT:
        _refuse(None, "这不是本应用导出的赛季文件。", "this is not a seasons file from this app.")
    raw = data.get("seasons")
    if not isinstance(raw, list) or len(raw) > Season.MAX_PER_GROUP:
        top = Season.MAX_PER_GROUP
        _refuse(None, f"seasons 应为最多 {top} 个赛季的列表。", f"seasons must be a list of at most {top}.")
    return [_season(item, number) for number, item in enumerate(raw, start=1)]

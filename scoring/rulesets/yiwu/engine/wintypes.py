"""The 14 win types (胡牌型) and their multipliers: docs/rules/yiwu.md §4. Types never stack."""

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class WinType:
    code: str
    zh: str
    en: str
    multiplier: int
    discard: bool  # won on another player's discard (放铳)
    piao_level: int = 0  # 1 = 单飘 types, 2 = 双飘 types
    caishentou: bool = False  # a 财神头 type (allowed with 3 财神, optionally after 双飘)


_TYPES = (
    WinType("pinghu", "平胡", "Plain win", 1, True),
    WinType("qidui", "七对子", "Seven pairs", 1, True),
    WinType("shisanbukao", "十三不靠", "13 unrelated", 1, True),
    WinType("zimo", "自摸", "Self-drawn", 2, False),
    WinType("qidui_zimo", "七对子自摸", "Seven pairs, self-drawn", 2, False),
    WinType("shisanbukao_zimo", "十三不靠自摸", "13 unrelated, self-drawn", 2, False),
    WinType("qianggang", "抢杠", "Robbing a kong", 2, False),
    WinType("caishentou", "财神头", "Wild head", 4, False, caishentou=True),
    WinType("qidui_caishentou", "特殊七对子", "Seven pairs, wild head", 4, False, caishentou=True),
    WinType("gangkai", "杠上开花", "Kong bloom", 4, False),
    WinType("danpiao", "单飘", "Single float", 8, False, piao_level=1),
    WinType("danpiao_gang", "单飘杠", "Single float + kong", 8, False, piao_level=1),
    WinType("shuangpiao", "双飘", "Double float", 16, False, piao_level=2),
    WinType("shuangpiao_gang", "双飘杠", "Double float + kong", 16, False, piao_level=2),
)

WIN_TYPES: dict[str, WinType] = {t.code: t for t in _TYPES}

# The order the entry form offers them in: most common first.
COMMON_ORDER = (
    "zimo",
    "pinghu",
    "caishentou",
    "gangkai",
    "qianggang",
    "qidui",
    "qidui_zimo",
    "qidui_caishentou",
    "shisanbukao",
    "shisanbukao_zimo",
    "danpiao",
    "danpiao_gang",
    "shuangpiao",
    "shuangpiao_gang",
)

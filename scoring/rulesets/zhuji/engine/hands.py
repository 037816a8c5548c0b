"""One 诸暨 hand as entered (docs/contract.md "A 诸暨 hand") and the 台 it declares (docs/rules/zhuji.md
§3); the rules of §4 that need the table state are in ``validity``."""

from dataclasses import dataclass

from scoring.engine.errors import ScoringError, required, shown, validate_object, win_or_draw

HAND_FIELDS = frozenset(("outcome", "winner", "discarder", "tai"))
TAI_FIELDS = frozenset(
    ("dragon_pungs", "wind_pungs", "shape", "hunyise", "qianggang", "gangkai", "no_caishen", "special", "extra")
)
# §3 every 台 item's name (zh, en), in table order: the one table explanations, sheet and 算牌 read.
TAI_NAMES: dict[str, tuple[str, str]] = {
    "zhong": ("中", "Red"),
    "fa": ("发", "Green"),
    "bai": ("白", "White"),
    "dong": ("东风", "East wind"),
    "nan": ("南风", "South wind"),
    "xi": ("西风", "West wind"),
    "bei": ("北风", "North wind"),
    "pinghu": ("平胡", "All chows"),
    "duiduihu": ("对对胡", "All pungs"),
    "mixed": ("其他", "Other"),
    "hunyise": ("混一色", "Half flush"),
    "qianggang": ("抢杠", "Robbing the kong"),
    "gangkai": ("杠开", "Kong replacement win"),
    "no_caishen": ("无财", "No wild tiles"),
    "tianhu": ("天胡", "Heavenly hand"),
    "dihu": ("地胡", "Earthly hand"),
    "quanzi": ("全字", "All honours"),
    "extra": ("另加", "Extra"),
}
DRAGONS = {code: TAI_NAMES[code] for code in ("zhong", "fa", "bai")}
WINDS = ("dong", "nan", "xi", "bei")  # in seat-wind order: 东 is the dealer
WIND_INDEX = {w: i for i, w in enumerate(WINDS)}
WIND_LABELS = tuple(TAI_NAMES[w] for w in WINDS)
SHAPES = ("pinghu", "duiduihu", "mixed")
FLAG_NAMES = ("hunyise", "qianggang", "gangkai", "no_caishen")
SPECIALS = {code: TAI_NAMES[code] for code in ("tianhu", "dihu", "quanzi")}
SPECIAL_TAI = 8  # §3: flat, nothing else counted
MAX_EXTRA = 20  # §6


@dataclass(frozen=True, slots=True)
class Tai:
    """What the winner declares (§3). Pung lists keep the order entered."""

    dragon_pungs: tuple[str, ...] = ()
    wind_pungs: tuple[str, ...] = ()
    shape: str = "mixed"
    hunyise: bool = False
    qianggang: bool = False
    gangkai: bool = False
    no_caishen: bool = False
    special: str | None = None
    extra: int = 0


@dataclass(frozen=True, slots=True)
class HandEntry:
    outcome: str  # "win" | "draw"
    winner: int | None = None
    discarder: int | None = None  # None = 自摸 (the field was absent)
    tai: Tai | None = None


NO_TAI = Tai()


def _seat(value, field: str) -> int:
    if type(value) is not int or not 0 <= value <= 3:
        raise ScoringError(f"{field} 应为座位号 0-3", f"{field} must be a seat 0-3", field)
    return value


FLAGS = frozenset(FLAG_NAMES)
PUNG_LISTS = {"dragon_pungs": (tuple(DRAGONS), "中发白", "dragons"), "wind_pungs": (WINDS, "风", "winds")}


def _bad_tai(name: str, zh: str, en: str) -> ScoringError:
    return ScoringError(f"台 {name} {zh}", f"tai.{name} {en}", f"tai.{name}")


def _tai_value(name: str, value):
    """One field of the tai object, checked (its kind and allowed values)."""
    if name in FLAGS:
        if value is not True and value is not False:
            raise _bad_tai(name, "应为 true 或 false", "must be true or false")
        return value
    if name in PUNG_LISTS:
        allowed, what_zh, what_en = PUNG_LISTS[name]
        if type(value) is not list or any(type(v) is not str or v not in allowed for v in value):
            names = " / ".join(allowed)
            raise _bad_tai(name, f"应为{what_zh}的列表（{names}）", f"must be a list of {what_en} ({names})")
        return tuple(value)
    if name == "shape":
        if type(value) is not str or value not in SHAPES:
            raise _bad_tai(
                name, "应为 pinghu（平胡）、duiduihu（对对胡）或 mixed（其他）", "must be pinghu, duiduihu or mixed"
            )
        return value
    if name == "special":
        if value is not None and (type(value) is not str or value not in SPECIALS):
            raise _bad_tai(
                name, "应为 null、tianhu（天胡）、dihu（地胡）或 quanzi（全字）", "must be null, tianhu, dihu or quanzi"
            )
        return value
    if type(value) is not int or not 0 <= value <= MAX_EXTRA:  # extra
        raise _bad_tai(name, f"（另加的台）应为整数 0-{MAX_EXTRA}", f"must be a whole number 0-{MAX_EXTRA}")
    return value


def parse_tai(raw) -> Tai:
    """A ``Tai`` from the contract's tai object; raises ``ScoringError`` naming the field."""
    if type(raw) is not dict:
        raise ScoringError("台 tai 应为对象", "tai must be an object", "tai")
    if not raw:
        return NO_TAI
    if not raw.keys() <= TAI_FIELDS:
        name = shown(sorted(raw.keys() - TAI_FIELDS)[0])
        raise ScoringError(f"台 tai 里有未知字段：{name}", f"Unknown field in tai: {name}", f"tai.{name}")
    return Tai(**{name: _tai_value(name, value) for name, value in raw.items()})


def parse_hand(raw) -> HandEntry:
    validate_object(raw, HAND_FIELDS, "每一局应为一个对象", "Each hand must be an object", "hand")
    if win_or_draw(raw, ("winner", "discarder", "tai")) == "draw":
        return DRAW
    winner = required(raw, "winner", "胡牌需要填写谁胡了（winner）", "A win needs the winner")
    tai = required(raw, "tai", "胡牌需要填写台（tai）", "A win needs its tai")
    # JSON null is not a 自摸: the field is absent on a self-drawn win (Input hygiene).
    discarder = _seat(raw["discarder"], "discarder") if "discarder" in raw else None
    return HandEntry("win", _seat(winner, "winner"), discarder, parse_tai(tai))


DRAW = HandEntry("draw")


def seat_wind(player: int, dealer: int) -> int:
    """§1: 0 东 (the dealer), 1 南, 2 西, 3 北."""
    return (player - dealer) % 4


def wind_tai(wind: int, own: int | None) -> int:
    """§3 a pung of the wind ``wind`` for a winner whose seat wind is ``own`` (None: no winner yet)."""
    if wind == 0:
        return 2 if own == 0 else 1
    return int(wind == own)


def tai_count(tai: Tai, winner: int, dealer: int) -> int:
    """§3: the 台 of a win before any cap (the fast path of ``tai_items``)."""
    if tai.special is not None:
        return SPECIAL_TAI
    n = len(tai.dragon_pungs) + tai.extra + tai.hunyise + tai.qianggang + (tai.shape != "mixed")
    if tai.wind_pungs:
        own = seat_wind(winner, dealer)
        n += sum(wind_tai(WIND_INDEX[w], own) for w in tai.wind_pungs)
    return n


def tai_items(tai: "Tai | dict", winner: int, dealer: int) -> list[tuple[str, str, int]]:
    """§3 the breakdown of a win's 台 as (zh, en, 台) items in table order, summing to ``tai_count``;
    items worth 0 are kept where the entry names them, so a table sees why they did not count."""
    if not isinstance(tai, Tai):
        tai = parse_tai(tai)
    if tai.special is not None:
        zh, en = SPECIALS[tai.special]
        return [(zh, en, SPECIAL_TAI)]
    own = seat_wind(winner, dealer)
    items = []
    for w in tai.wind_pungs:
        i = WIND_INDEX[w]
        zh, en = WIND_LABELS[i]
        items.append((zh, en, wind_tai(i, own)))
    for d in tai.dragon_pungs:
        zh, en = DRAGONS[d]
        items.append((zh, en, 1))
    if tai.shape != "mixed":
        items.append((*TAI_NAMES[tai.shape], 1))
    items.extend((*TAI_NAMES[flag], 1) for flag in ("hunyise", "qianggang") if getattr(tai, flag))
    if tai.extra:
        items.append((*TAI_NAMES["extra"], tai.extra))
    items.extend((*TAI_NAMES[flag], 0) for flag in ("gangkai", "no_caishen") if getattr(tai, flag))
    return items

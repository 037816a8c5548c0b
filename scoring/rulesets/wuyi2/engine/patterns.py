"""The patterns (番型) of docs/rules/wuyi2.md §2 and which go together (§4, §5): ``TABLE.problem`` is
the one source of truth for the validator and for the chips the app greys."""

from scoring.engine.fans import FanTable, Pattern, Problem

# group -> (中文, English); the order the entry form shows them in.
GROUPS: dict[str, tuple[str, str]] = {
    "shape": ("牌型", "Shape"),
    "suit": ("清一色", "One suit"),
    "caishen": ("财神", "Wilds"),
    "moment": ("天/地/人胡", "Heavenly / earthly / human"),
    "gangkai": ("杠开", "Kong bloom"),
    "haidi": ("海底", "Last tile"),
    "zimo": ("自摸", "Self-draw"),
}

# docs/rules/wuyi2.md §2, in its order; ``zimo`` last: added by itself, never listed in a hand.
PATTERNS: tuple[Pattern, ...] = (
    Pattern("pinghu", "平胡", "Plain win", 0, "shape"),
    Pattern("pengpenghu", "碰碰胡", "All pungs", 1, "shape"),
    Pattern("quanqiuren", "全求人", "All from others", 1, "shape"),
    Pattern("qidui", "七对子", "Seven pairs", 1, "shape"),
    Pattern("qingqidui", "清七对", "Pure seven pairs", 2, "shape"),
    Pattern("qidui_baotou", "七对子爆头", "Seven pairs, wild pair", 3, "shape"),
    Pattern("shisanbukao", "十三不靠", "Thirteen unrelated", 0, "shape"),
    Pattern("qifeng", "七风", "Seven winds", 1, "shape"),
    Pattern("luanfeng", "乱风", "Mixed honours", 3, "shape"),
    Pattern("qingfeng", "清风", "Pure honours", 4, "shape"),
    Pattern("qingyise_cai", "清一色带财神", "One suit with wilds", 1, "suit"),
    Pattern("qingyise", "清一色", "One suit", 2, "suit"),
    Pattern("baotou", "爆头", "Wild head", 1, "caishen"),
    Pattern("caishentou", "财神头", "Wild pair", 2, "caishen"),
    Pattern("sancai", "三财一刻", "Three wilds as a pung", 3, "caishen"),
    Pattern("tianhu", "天胡", "Heavenly hand", 1, "moment"),
    Pattern("dihu", "地胡", "Earthly hand", 1, "moment"),
    Pattern("renhu", "人胡", "Human hand", 1, "moment"),
    Pattern("gangkai", "杠上开花", "Kong bloom", 1, "gangkai"),
    Pattern("haidi", "海底捞月", "Last tile", 1, "haidi"),
    Pattern("zimo", "自摸", "Self-draw", 1, "zimo"),
)

DEFAULT_SHAPE = "pinghu"
FENG_SHAPES = frozenset(("shisanbukao", "qifeng", "luanfeng", "qingfeng"))  # no 清一色 with these
CAISHEN_SHAPES = frozenset(("pinghu", "pengpenghu"))  # the only shapes a 财神 pattern goes with


def _same_group(pa: Pattern, pb: Pattern) -> Problem:
    if pa.group == "shape":
        return (
            f"§2 只能有一种牌型：{pa.zh}和{pb.zh}不能同时算",
            f"§2 Only one shape: {pa.en} and {pb.en} cannot both count",
        )
    zh_group, en_group = GROUPS[pa.group]
    return (
        f"§2 {zh_group}只能算一种：{pa.zh}和{pb.zh}不能同时算",
        f"§2 At most one of the {en_group} group: {pa.en} and {pb.en} cannot both count",
    )


def _pair(x: Pattern, y: Pattern) -> Problem | None:
    """Why ``x`` cannot count with ``y`` of another group (asked both ways round), or None."""
    if x.group == "suit" and y.code in FENG_SHAPES:
        return (f"§2 清一色不能与{y.zh}同时算", f"§2 {x.en} cannot count with {y.en}")
    if x.code == "qingyise_cai" and y.code == "qingqidui":
        return (
            "§2 清七对没有财神，不能算有财神的清一色（应选无财神的清一色）",
            "§2 Pure seven pairs has no wilds: choose One suit (without wilds), not One suit with wilds",
        )
    if x.code == "qingyise" and (y.group == "caishen" or y.code == "qidui_baotou"):
        return (f"§2 {y.zh}有财神，清一色应选“有财神”的一种", f"§2 {y.en} holds a wild: choose One suit with wilds")
    if x.group == "caishen" and y.group == "shape" and y.code not in CAISHEN_SHAPES:
        return (
            f"§2 {x.zh}只能与平胡或碰碰胡同时算，不能与{y.zh}",
            f"§2 {x.en} goes only with Plain win or All pungs, not {y.en}",
        )
    return None


def _alone(code: str, winner: int | None, dealer: int, self_drawn: bool) -> Problem | None:
    """Why ``code`` cannot count for this winner and way of winning (§4), or None."""
    p = TABLE.by_code[code]
    if code in ("gangkai", "haidi", "tianhu", "renhu") and not self_drawn:
        return (f"§4 {p.zh}只能自摸，不能有放铳者", f"§4 {p.en} is self-drawn only: no discarder")
    if code == "dihu" and self_drawn:
        return ("§4 地胡是胡庄家打出的第一张牌，需要庄家放铳", "§4 Earthly hand needs the dealer as discarder")
    if winner is None:
        return None
    if code == "tianhu" and winner != dealer:
        return ("§4 天胡只有庄家能胡", "§4 Only the dealer can win a Heavenly hand")
    if code in ("dihu", "renhu") and winner == dealer:
        return (f"§4 {p.zh}只有闲家能胡", f"§4 Only the non-dealer can win a {p.en}")
    return None


TABLE = FanTable(
    PATTERNS,
    GROUPS,
    twice=lambda p: (f"§4 {p.zh}只能算一次", f"§4 {p.en} is listed twice"),
    same_group=_same_group,
    pair=_pair,
    alone=_alone,
    unlisted={
        "zimo": (
            "§5 自摸不用填写，没有放铳者时自动算",
            "§5 zimo is never listed: it counts by itself when nobody discarded",
        )
    },
)
BY_CODE = TABLE.by_code
CODES = TABLE.codes  # every code, zimo included (the ``fan`` rule's keys)
LISTABLE = TABLE.listable  # what a hand may list
SHAPES = TABLE.in_group("shape")


def validate_patterns(codes: tuple, winner: int, dealer: int, self_drawn: bool) -> None:
    """§4 validation of a hand's listed patterns; ``ScoringError`` (field ``patterns``)."""
    TABLE.validate(codes, winner, dealer, self_drawn, memo=(winner == dealer, self_drawn))


def conflicts(codes, winner: int | None, dealer: int, self_drawn: bool) -> dict[str, Problem]:
    """code -> (zh, en) reason for every listable pattern that cannot join the valid ``codes``
    (``winner`` None skips the checks needing who won)."""
    return TABLE.conflicts(codes, winner, dealer, self_drawn)

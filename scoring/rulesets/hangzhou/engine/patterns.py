"""The 番 of a 杭州 win (docs/rules/hangzhou.md §3) and which go together (§4, §5 承包): ``TABLE.problem``
is the one source of truth for the validator and for the chips the sheet greys; 财飘 is the chip
``caipiao`` when its count is 1 or more."""

from scoring.engine.errors import ScoringError
from scoring.engine.fans import FanTable, Pattern, Problem

# group -> (中文, English), in the order the entry sheet shows them (§3).
GROUPS: dict[str, tuple[str, str]] = {
    "baotou": ("爆头", "Wild head"),
    "caipiao": ("财飘", "Wild float"),
    "gangkai": ("杠开", "Kong bloom"),
    "qidui": ("七对", "Seven pairs"),
    "shifeng": ("十风", "Ten honours"),
    "no_caishen": ("无财神", "No wilds"),
}

# docs/rules/hangzhou.md §3, in its order; ``caipiao`` is counted by its own field, never listed.
PATTERNS: tuple[Pattern, ...] = (
    Pattern("baotou", "爆头", "Wild head", 1, "baotou"),
    Pattern("gangkai", "杠开", "Kong bloom", 1, "gangkai"),
    Pattern("caipiao", "财飘", "Wild float", 1, "caipiao"),
    Pattern("qidui", "七对子", "Seven pairs", 2, "qidui"),
    Pattern("haohua_qidui", "豪华七对", "Luxury seven pairs", 4, "qidui"),
    Pattern("shifeng", "十风", "Ten honours", 3, "shifeng"),
    Pattern("shifeng_bai", "十风带白", "Ten honours with a White", 4, "shifeng"),
    Pattern("no_caishen", "无财神", "No wilds", 1, "no_caishen"),
)

CAIPIAO = "caipiao"
MAX_CAIPIAO = 3  # §4: 财飘 0-3
QIDUI = frozenset(("qidui", "haohua_qidui"))
SHIFENG = frozenset(("shifeng", "shifeng_bai"))
NEEDS_A_WILD = frozenset(("baotou", CAIPIAO))  # 爆头 and 财飘 need a 财神 in the hand
NO_CHOWS = QIDUI | SHIFENG  # hands without a chow: their winner cannot have chowed three times


def _pair(x: Pattern, y: Pattern) -> Problem | None:
    """Why chip ``x`` cannot count with ``y`` of another group (asked both ways round), or None."""
    if x.code in SHIFENG and y.code != "no_caishen":
        return (
            f"§4 {x.zh}是单独的一种胡法，只能再加无财神，不能与{y.zh}同时算",
            f"§4 {x.en} is a hand of its own: only No wilds goes with it, not {y.en}",
        )
    if x.code == "no_caishen" and y.code in NEEDS_A_WILD:
        return (
            f"§4 {y.zh}要手里有财神，不能与无财神同时算",
            f"§4 {y.en} needs a wild in the hand: it cannot go with No wilds",
        )
    if x.code in QIDUI and y.code == "gangkai":
        return (f"§4 {x.zh}没有杠，不能算杠开", f"§4 {x.en} holds no kong: no Kong bloom with it")
    return None


TABLE = FanTable(
    PATTERNS,
    GROUPS,
    twice=lambda p: (f"§4 {p.zh}只能算一次", f"§4 {p.en} is counted once"),
    same_group=lambda pa, pb: (f"§4 {pa.zh}和{pb.zh}只能算一个", f"§4 Only one of {pa.en} and {pb.en} counts"),
    pair=_pair,
    unlisted={
        CAIPIAO: (
            "§4 财飘不列在番型里：在 caipiao 填连续打出的财神张数（1-3）",
            "§4 Wild float is not listed as a pattern: give caipiao, the wilds discarded in a row (1-3)",
        )
    },
)
BY_CODE = TABLE.by_code
CODES = TABLE.codes  # the ``fan`` rule's keys
LISTABLE = TABLE.listable  # what ``patterns`` may hold
problem = TABLE.problem  # problem(chip, chosen): why a chip cannot join the chips chosen, or None


def chengbao_problem(chips) -> Problem | None:
    """Why a winner holding ``chips`` cannot have chowed three times from their 上家 (§4, §5)."""
    for code in chips:
        if code in NO_CHOWS:
            p = BY_CODE[code]
            return (
                f"§4 {p.zh}没有吃牌，胡家不能是吃了三次的承包",
                f"§4 {p.en} has no chow: its winner cannot be liable for three chows",
            )
    return None


def chips_of(codes, caipiao: int) -> tuple[str, ...]:
    """The chips a hand holds: its listed codes, and ``caipiao`` when 财飘 is 1 or more."""
    return (*codes, CAIPIAO) if caipiao else tuple(codes)


def validate_patterns(codes: tuple, caipiao: int) -> None:
    """§4 for the listed codes and the 财飘 count; ``ScoringError`` (field ``patterns``)."""
    TABLE.validate(codes)
    if caipiao and (found := problem(CAIPIAO, codes)):
        raise ScoringError(found[0], found[1], field="caipiao")


def conflicts(chips) -> dict[str, Problem]:
    """chip -> (zh, en) reason for every chip that cannot join the valid ``chips`` (the chosen left out)."""
    return TABLE.conflicts(chips, among=CODES)

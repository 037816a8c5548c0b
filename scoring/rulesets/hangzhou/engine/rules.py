"""House rules (约定) of 杭州麻将: docs/rules/hangzhou.md §2, §3 and §9, the rulebook's reading as each default."""

from dataclasses import dataclass, field

from scoring.engine import houserules
from scoring.engine.houserules import RuleInfo

from .patterns import TABLE

MAX_FAN = 10  # §9: a table's own 番 for a code
MAX_CAP = 20  # §9: fan_cap
MAX_FACTOR = 64  # §9: each 老庄 factor
LEVELS = ("一老庄", "二老庄", "三老庄")  # §2, by level 1-3
LEVELS_EN = ("level 1", "level 2", "level 3")
LAOZHUANG = (2, 4, 8)  # §2 the rulebook's factors


@dataclass(frozen=True, slots=True)
class Rules:
    base: int = 1  # §5 B = base · 2^F
    fan_cap: int | None = 4  # §3 封顶 (None = no cap)
    laozhuang: tuple = LAOZHUANG  # §2 the dealer's factor at 一/二/三老庄
    laozhuang_on_draw: bool = True  # §2 a draw raises the 老庄 as a dealer win does
    next_dealer: str = "winner"  # §2 winner | next_seat
    caipiao_stack: bool = True  # §3 财飘 counts once per 财神 discarded in a row
    fan: dict = field(default_factory=dict)  # §3 code -> 番, overriding PATTERNS
    # Every code's 番 with the overrides applied (derived; not a house rule of its own).
    fan_table: dict = field(init=False, repr=False, compare=False)

    def __post_init__(self):
        object.__setattr__(self, "laozhuang", tuple(self.laozhuang))  # stored as a JSON list
        object.__setattr__(self, "fan_table", TABLE.fans(self.fan))

    def __hash__(self):
        return hash(
            (
                self.base,
                self.fan_cap,
                self.laozhuang,
                self.laozhuang_on_draw,
                self.next_dealer,
                self.caipiao_stack,
                tuple(sorted(self.fan.items())),
            )
        )

    def factor(self, streak: int) -> int:
        """§2 the dealer's factor d at the 老庄 level of ``streak``."""
        return self.laozhuang[level(streak) - 1]

    def to_dict(self) -> dict:
        return {
            "base": self.base,
            "fan_cap": self.fan_cap,
            "laozhuang": list(self.laozhuang),
            "laozhuang_on_draw": self.laozhuang_on_draw,
            "next_dealer": self.next_dealer,
            "caipiao_stack": self.caipiao_stack,
            "fan": dict(self.fan),
        }


def level(streak: int) -> int:
    """§2 the 老庄 level (1-3) of a dealer whose streak is ``streak`` (0, 1, 2, …)."""
    return min(streak, 2) + 1


EN_HELP = {
    "base": "Basic points B = base × 2^fan; the dealer pays or is paid B × the factor of their level.",
    "fan_cap": "The most fan a win is paid on (the rulebook: 4); empty = no cap.",
    "laozhuang": "The dealer's factor at level 1, 2 and 3 (1-64 each).",
    "laozhuang_on_draw": "A draw raises the dealer's level as a dealer win does (the rulebook's 5.10).",
    "next_dealer": "Who deals after another player wins.",
    "caipiao_stack": "Each wild discarded in a row before the win adds its fan.",
    "fan": "Each pattern's fan at your table (0-10); each starts at the rulebook's fan.",
}

RULE_INFO: dict[str, RuleInfo] = houserules.rule_table(
    RuleInfo("base", "int", "底分", "基本分 = 底分 × 2^番；庄家再乘老庄倍数。", "Base", minimum=1),
    RuleInfo(
        "fan_cap", "cap", "番数封顶", "一把最多按几番算（规则书：4番封顶）；空＝不封顶。", "Fan cap", maximum=MAX_CAP
    ),
    RuleInfo(
        "laozhuang",
        "list",
        "老庄倍数",
        "庄家付或收的倍数：一老庄、二老庄、三老庄（各 1-64）。",
        "Dealer factors",
        minimum=1,
        maximum=MAX_FACTOR,
        entries=tuple((str(n + 1), LEVELS[n], f"Dealer {LEVELS_EN[n]}", d) for n, d in enumerate(LAOZHUANG)),
    ),
    RuleInfo(
        "laozhuang_on_draw",
        "bool",
        "流局升老庄",
        "流局时庄家连庄并升一级老庄（规则书五.10）。",
        "A draw raises the level",
    ),
    RuleInfo(
        "next_dealer",
        "choice",
        "谁接庄",
        "闲家胡牌后下一局谁坐庄。",
        "Next dealer",
        (
            ("winner", "胡牌的人坐庄（规则书）", "The winner deals (the rulebook)"),
            ("next_seat", "庄家的下家坐庄", "The dealer's next seat deals"),
        ),
    ),
    RuleInfo("caipiao_stack", "bool", "财飘叠加", "连续打出几个财神，财飘就算几番。", "Wild floats stack"),
    TABLE.fan_rule("每个番型几番（0-10），默认是规则书的番数；按本桌习惯改。", MAX_FAN),
    en_help=EN_HELP,
)

PRESETS: dict[str, dict] = {"1分": {"base": 1}, "2分": {"base": 2}, "5分": {"base": 5}}
DEFAULT_PRESET = "1分"


def parse_rules(raw, base: Rules | None = None) -> Rules:
    return houserules.parse_rules(raw, base or Rules(), RULE_INFO)

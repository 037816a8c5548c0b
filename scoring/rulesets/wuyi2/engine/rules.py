"""House rules of 武义二人麻将: docs/rules/wuyi2.md §3 and §6, with their defaults."""

from dataclasses import dataclass, field

from scoring.engine import houserules
from scoring.engine.houserules import RuleInfo

from .patterns import TABLE

MAX_FAN = 20  # §6: an overridden 番
MAX_CAP = 100  # §6: fan_cap


@dataclass(frozen=True, slots=True)
class Rules:
    base: int = 1  # §3 X = base · 2^N
    dealer_double: str = "both"  # §3 both | payer | none
    fan_cap: int | None = None  # §3 N is at most this (None = no cap)
    fan: dict = field(default_factory=dict)  # §6 code -> 番, overriding PATTERNS
    # Every code's 番 with the overrides applied (derived; not a house rule of its own).
    fan_table: dict = field(init=False, repr=False, compare=False)

    def __post_init__(self):
        object.__setattr__(self, "fan_table", TABLE.fans(self.fan))

    def __hash__(self):
        return hash((self.base, self.dealer_double, self.fan_cap, tuple(sorted(self.fan.items()))))

    def to_dict(self) -> dict:
        return {"base": self.base, "dealer_double": self.dealer_double, "fan_cap": self.fan_cap, "fan": dict(self.fan)}


EN_HELP = {
    "base": "Every payment is base × 2^fan, then the doublings.",
    "dealer_double": "Which payments double because the dealer takes part.",
    "fan_cap": "The most fan a hand pays on; empty = no cap.",
    "fan": "Each pattern's fan at your table (0-20); each starts at the standard fan.",
}

RULE_INFO: dict[str, RuleInfo] = houserules.rule_table(
    RuleInfo("base", "int", "底分", "每笔输赢 = 底分 × 2^番，再按放铳、庄家加倍。", "Base", minimum=1),
    RuleInfo(
        "dealer_double",
        "choice",
        "庄家加倍",
        "哪些输赢因为有庄家而乘 2。",
        "Dealer doubles",
        (
            ("both", "庄家输赢都乘2（两人麻将每笔都乘2）", "Every payment (the dealer is always in it)"),
            ("payer", "只在庄家付钱时乘2", "Only when the dealer pays"),
            ("none", "不加倍", "Never"),
        ),
    ),
    RuleInfo("fan_cap", "cap", "番数封顶", "一把最多按几番算；空＝不封顶。", "Fan cap (empty = none)", maximum=MAX_CAP),
    TABLE.fan_rule("每个番型几番（0-20），默认是标准番数；按本桌习惯改。", MAX_FAN),
    en_help=EN_HELP,
)

PRESETS: dict[str, dict] = {"1分": {"base": 1}, "2分": {"base": 2}, "5分": {"base": 5}}
DEFAULT_PRESET = "1分"


def parse_rules(raw, base: Rules | None = None) -> Rules:
    return houserules.parse_rules(raw, base or Rules(), RULE_INFO)

"""House rules (约定) of 诸暨麻将: docs/rules/zhuji.md §2, §5, §6, with their defaults."""

from dataclasses import asdict, dataclass

from scoring.engine import houserules
from scoring.engine.houserules import RuleInfo

MAX_TAI_CAP = 100


@dataclass(frozen=True, slots=True)
class Rules:
    base: int = 1  # §5 points of one payment at 0 台 (1-1,000,000)
    tai_cap: int | None = None  # §5 台 are counted up to this; None = no cap (0-100)
    draw_passes_deal: bool = False  # §2 a draw passes the deal to the next seat

    def to_dict(self) -> dict:
        return asdict(self)


RULE_INFO: dict[str, RuleInfo] = houserules.rule_table(
    RuleInfo(
        "base",
        "int",
        "底分",
        "每笔输赢 = 底分 × 2^台数（放冲时另两家付一半）。",
        "Base points",
        minimum=1,
        en_help="Each payment is base × 2^tai (on a discard the other two pay half).",
    ),
    RuleInfo(
        "tai_cap",
        "cap",
        "台数封顶",
        "台数最多算到这里（天胡、地胡、全字的8台也封顶）；空＝不封顶。",
        "Tai cap (empty = none)",
        minimum=0,
        maximum=MAX_TAI_CAP,
        en_help="Tai are counted up to this, the flat 8 included; empty = no cap.",
    ),
    RuleInfo(
        "draw_passes_deal",
        "bool",
        "流局过庄",
        "流局时庄家轮到下家（默认流局庄家连庄）。",
        "A draw passes the deal",
        en_help="After a draw the next seat deals (by default the same dealer deals again).",
    ),
)

PRESETS: dict[str, dict] = {"1分": {"base": 1}, "2分": {"base": 2}, "5分": {"base": 5}}
DEFAULT_PRESET = "1分"


def parse_rules(raw, base: Rules | None = None) -> Rules:
    return houserules.parse_rules(raw, base or Rules(), RULE_INFO)

"""The toy's one house rule: ``base`` (rules.md §2)."""

from dataclasses import asdict, dataclass

from scoring.engine import houserules
from scoring.engine.houserules import RuleInfo


@dataclass(frozen=True, slots=True)
class Rules:
    base: int = 1  # §2: every payment is base × 2 (自摸) or base × 3 (discard)

    def to_dict(self) -> dict:
        return asdict(self)


RULE_INFO: dict[str, RuleInfo] = houserules.rule_table(
    RuleInfo("base", "int", "底分", "自摸每家付 底分×2；放冲一家付 底分×3。", "Base", minimum=1, maximum=1000),
    en_help={"base": "Self-drawn: each loser pays base × 2; a discard: the discarder pays base × 3."},
)

PRESETS: dict[str, dict] = {"1分": {"base": 1}, "2分": {"base": 2}}
DEFAULT_PRESET = "1分"


def parse_rules(raw, base: Rules | None = None) -> Rules:
    return houserules.parse_rules(raw, base or Rules(), RULE_INFO)

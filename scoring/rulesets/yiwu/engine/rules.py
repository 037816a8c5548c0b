"""House rules (约定): every contested point of docs/rules/yiwu.md, with its default."""

from dataclasses import asdict, dataclass

from scoring.engine import houserules
from scoring.engine.houserules import RuleInfo


@dataclass(frozen=True, slots=True)
class Rules:
    base_dealer: int = 7  # §3 庄 base
    base_other: int = 5  # §3 闲 base
    maizi_points: int = 2  # §3/§7 per 买子 buyer in a pair
    maizi_buy: str = "any_hand"  # §7 any_hand | tenure_start
    xiazi_points: int = 1  # §3/§8 per 下子 unit
    xiazi_amount: str = "fixed"  # §8 fixed | up_to
    xiazi_cap: int | None = None  # §8 optional limit on a bet
    discarder_extra: str = "plus1"  # §5.1 plus1 | double
    fanpei_factor: int = 2  # §5.3 反赔
    shuangpiao_draw_mult: int = 4  # §6
    shuangpiao_draw_includes_xiazi: bool = True  # §6
    multi_feeder: str = "shared"  # §5.3 shared | first
    others_may_caishentou_after_shuangpiao: bool = False  # §9
    abandon_enabled: bool = False  # §10

    def to_dict(self) -> dict:
        return asdict(self)


EN_HELP = {
    "base_dealer": "Base of every payment the dealer takes part in.",
    "base_other": "Base of a payment between two non-dealers.",
    "maizi_points": "Added to every payment of a player holding a buy-in (maizi).",
    "maizi_buy": "Once bought it stays until the dealer changes.",
    "xiazi_points": "Added per bet (xiazi) between the dealer and the bettor.",
    "xiazi_amount": "After a dealer win each non-dealer may bet the multiplier of that win.",
    "xiazi_cap": "Bets double with each further dealer win, up to this; empty = no cap.",
    "discarder_extra": "How much more the discarder pays than the other losers.",
    "fanpei_factor": "A feeder wins instead: the floating player pays them this many times the total.",
    "shuangpiao_draw_mult": "A failed double float in a draw: the floater pays each player unit × this (4 = wild head, 2 = self-drawn).",
    "shuangpiao_draw_includes_xiazi": "Whether that penalty counts the bets (xiazi).",
    "multi_feeder": "How several feeders share the liability when the float succeeds.",
    "others_may_caishentou_after_shuangpiao": "After a double float the others may also win by a wild head, not only by a kong bloom.",
    "abandon_enabled": "Record a player leaving mid-hand; the leaver pays everyone.",
}

RULE_INFO: dict[str, RuleInfo] = houserules.rule_table(
    RuleInfo("base_dealer", "int", "庄家底分", "庄家参与的每笔输赢的基数。", "Dealer base", minimum=1),
    RuleInfo("base_other", "int", "闲家底分", "两个闲家之间每笔输赢的基数。", "Non-dealer base", minimum=1),
    RuleInfo("maizi_points", "int", "买子分", "每个买子的玩家给他参与的每笔输赢加的分。", "Points per buy-in (maizi)"),
    RuleInfo(
        "maizi_buy",
        "choice",
        "何时可买子",
        "买了就到换庄为止（连庄不退）。",
        "When a buy-in (maizi) may be bought",
        (
            ("any_hand", "任何一局前", "Before any hand"),
            ("tenure_start", "只在坐庄第一局（连庄后不可买）", "Only on a dealer's first hand"),
        ),
    ),
    RuleInfo("xiazi_points", "int", "下子分", "每个下子在庄闲之间加的分。", "Points per bet (xiazi) unit"),
    RuleInfo(
        "xiazi_amount",
        "choice",
        "下子数额",
        "庄家胡牌后，闲家可下子，数额按庄家这把的倍数。",
        "Bet (xiazi) amount",
        (
            ("fixed", "等于庄家胡牌倍数", "Exactly the dealer's multiplier"),
            ("up_to", "最多到庄家胡牌倍数", "Up to the dealer's multiplier"),
        ),
    ),
    RuleInfo(
        "xiazi_cap",
        "cap",
        "下子封顶",
        "再次连庄下子翻番，到此为止；空＝不封顶。",
        "Bet (xiazi) cap (empty = none)",
        minimum=1,
    ),
    RuleInfo(
        "discarder_extra",
        "choice",
        "放铳多付",
        "放铳者比其他输家多付多少。",
        "Discarder's extra",
        (("plus1", "多付1个分（底分+1再乘倍数）", "+1 on the unit"), ("double", "多付一倍", "Pays double")),
    ),
    RuleInfo(
        "fanpei_factor",
        "int",
        "反赔倍数",
        "飘的人被喂家胡了，飘的人按总数的几倍赔给喂家。",
        "Reverse-pay factor",
        minimum=1,
    ),
    RuleInfo(
        "shuangpiao_draw_mult",
        "int",
        "双飘流局赔付倍数",
        "双飘不成流局，飘的人赔每家 底分×此倍数（4＝财神头，2＝自摸）。",
        "Failed double-float multiplier",
        minimum=1,
    ),
    RuleInfo(
        "shuangpiao_draw_includes_xiazi",
        "bool",
        "双飘流局算下子",
        "双飘流局赔付时是否算上下子。",
        "Failed double float counts the bets (xiazi)",
    ),
    RuleInfo(
        "multi_feeder",
        "choice",
        "多个喂家",
        "飘成时有几个喂家，怎样承包。",
        "Several feeders",
        (
            ("shared", "分摊：各付自己的份再平分其他人的份", "Shared"),
            ("first", "只由第一个喂家全包", "First feeder pays all"),
        ),
    ),
    RuleInfo(
        "others_may_caishentou_after_shuangpiao",
        "bool",
        "双飘后他人可财神头",
        "双飘后其他人除了杠开，也可以财神头胡。",
        "Others may win a wild head after a double float",
    ),
    RuleInfo("abandon_enabled", "bool", "允许逃跑", "记录有人中途逃跑（逃跑者赔各家）。", "Record abandons"),
    en_help=EN_HELP,
)

# §3 presets: the bases; every other option at its default.
PRESETS: dict[str, dict] = {
    name: {"base_dealer": d, "base_other": o}
    for name, (d, o) in {"7/5": (7, 5), "5/3": (5, 3), "9/7": (9, 7), "13/11": (13, 11)}.items()
}
DEFAULT_PRESET = "7/5"


def parse_rules(raw, base: Rules | None = None) -> Rules:
    return houserules.parse_rules(raw, base or Rules(), RULE_INFO)

"""杭州: the 番 of the reading worth most (docs/analysis.md "杭州"; docs/rules/hangzhou.md §3, §8).

The four 白 are the 财神 and every win is self-drawn; what the tiles cannot show (财飘, 十风, 承包)
the 算牌 page asks (``analyse_questions``).
"""

from scoring.engine.analyse.decompose import is_qidui, is_standard
from scoring.engine.analyse.hand import Hand
from scoring.engine.analyse.request import Context
from scoring.engine.errors import ScoringError

from .analyse_questions import QUESTIONS, questions, with_answers
from .patterns import BY_CODE, CAIPIAO, TABLE

# §3's order, the order ``patterns`` lists its codes in, is the tie-break ("Readings settled").
_TIE = TABLE.tie_bits()


def _readings(ctx: Context, hand: Hand):
    """The codes of each reading the tiles allow (无财神 left out: it is every reading's or none's)."""
    counts, wilds, lone = hand.counts, hand.wilds, hand.lone
    if is_standard(counts, wilds):
        codes = []
        if lone is not None and is_standard(*lone, nsets=4, npair=0):
            codes.append("baotou")
        if ctx.after_kong:
            codes.append("gangkai")
        yield codes
    if ctx.melded == 0 and is_qidui(counts, wilds):
        six = lone is not None and is_qidui(*lone, npairs=6)
        yield ["baotou", "qidui"] if six else ["qidui"]
        if 4 in counts:  # four real tiles of one kind: two of the pairs
            yield ["baotou", "haohua_qidui"] if six and 4 in lone[0] else ["haohua_qidui"]


def _worth(codes, table: dict) -> tuple[int, int]:
    """(番 at the table, tie bits): the greater pair is the better reading."""
    return sum(table[c] for c in codes), sum(_TIE[c] for c in codes)


def answer(ctx: Context, hand: Hand) -> dict:
    """The reading with the most 番 at the table's 番 (``ctx.rules``; no cap here: the scorer caps)."""
    table = ctx.rules.fan_table
    best = max(_readings(ctx, hand), key=lambda codes: _worth(codes, table), default=None)
    if best is None:
        return {"complete": False}
    if hand.wilds == 0:
        best = [*best, "no_caishen"]
    return {"complete": True, "caishen": hand.wilds, "patterns": best, "fan": _worth(best, table)[0]}


def waits_extra(ctx: Context, counts, wilds: int) -> dict:
    """``any_tile``: the 13 tiles are 可爆头 (a 白 held, the rest whole), so any tile drawn wins as 爆头 (§3)."""
    rest = wilds - 1
    lone = rest >= 0 and (
        is_standard(counts, rest, nsets=4, npair=0) or (ctx.melded == 0 and is_qidui(counts, rest, 6))
    )
    return {"any_tile": lone}


def validate(ctx: Context) -> None:
    """杠开 is won on the tile drawn after one's own kong, and a kong is a melded set (§3)."""
    if ctx.after_kong and ctx.melded == 0:
        raise ScoringError(
            "杠开要先有杠：after_kong 需要 melded 至少 1（杠出的那副）（docs/rules/hangzhou.md §3）",
            "Kong bloom needs a kong: after_kong needs melded of at least 1, the kong (docs/rules/hangzhou.md §3)",
            "after_kong",
        )


def breakdown(answer: dict, zh: bool = True, rules=None) -> str:
    """「2 番：爆头 1 · 无财神 1」, 「0 番：平和」, with 财飘 and the cap (English with zh false); a refusal its reason."""
    if answer.get("reason"):
        return answer["reason"][0 if zh else 1]
    table = rules.fan_table
    parts = [(BY_CODE[c].zh if zh else BY_CODE[c].en, table[c]) for c in answer["patterns"]]
    piao = answer.get("caipiao", 0)
    if piao:
        name = BY_CODE[CAIPIAO].zh if zh else BY_CODE[CAIPIAO].en
        parts.insert(1, (f"{name} ×{piao}", answer["fan"] - sum(v for _, v in parts)))
    shown = " · ".join(f"{name} {value}" for name, value in parts) or ("平和" if zh else "Plain win")
    fan, cap = answer["fan"], rules.fan_cap
    unit = "番" if zh else "fan"
    head = (
        f"{fan} {unit}"
        if cap is None or fan <= cap
        else f"{fan} {unit}（封顶 {cap}）"
        if zh
        else f"{fan} fan (capped at {cap})"
    )
    return f"{head}：{shown}" if zh else f"{head}: {shown}"


WILDS = ("P",)  # the four 白 are the 财神; nothing is flipped (§1)
FIELDS = ("ruleset", "tiles", "last", "self_drawn", "after_kong", "melded", "dealer", "rules")
SELF_DRAWN_ONLY = True  # only self-drawn wins (§1)
FLAGS = ("after_kong",)
FIRST_ROUND: tuple[str, ...] = ()
NEXT_IS_WILD = False
BAI_STANDS_IN = False  # 白 is the 财神 itself
SEAT_WIND = False
__all__ = ["QUESTIONS", "questions", "with_answers"]  # the page's questions (analyse_questions.py)


def can_win(answer: dict) -> bool:
    """A complete hand wins, unless the page's answers to its questions break §4 (its ``reason``)."""
    return bool(answer.get("complete")) and not answer.get("reason")


def is_discard(answer: dict, self_drawn: bool) -> bool:
    return False


def hand_entry(answer: dict, winner: int) -> dict:
    """The contract HAND object of the win the answer describes (§7)."""
    entry = {"outcome": "win", "winner": winner, "patterns": list(answer["patterns"])}
    if answer.get("caipiao"):
        entry["caipiao"] = answer["caipiao"]
    if answer.get("chengbao"):
        entry["chengbao"] = list(answer["chengbao"])
    return entry

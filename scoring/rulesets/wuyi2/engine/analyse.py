"""武义二人: the patterns of the reading with the most 番 (docs/analysis.md "What each ruleset
answers"; docs/rules/wuyi2.md §2 patterns, 番 and "allowed with").

Every reading offers its shape (pinghu included), at most one suit pattern and one 财神 pattern
as §2 allows; the context adds tianhu / dihu / renhu, gangkai, haidi and 自摸 (in ``fan`` only).
Ties: compare the §2 items top to bottom, the holder of the first differing item wins.
"""

from scoring.engine.analyse.decompose import is_luanfeng, is_qidui, is_shisanbukao, plain_mask, standard_readings
from scoring.engine.analyse.decompose import wild_pair_options as _wild_pairs
from scoring.engine.analyse.hand import Hand
from scoring.engine.analyse.request import Context
from scoring.engine.analyse.tiles import suit_of

from .patterns import BY_CODE, LISTABLE

# §2 in its order (the tie-break order): the engine's pattern table, 自摸 left out (only in ``fan``).
ORDER = LISTABLE
CAI_SHAPES = ("pinghu", "pengpenghu")
_PLACE = {code: i for i, code in enumerate(ORDER)}


def _standard(ctx: Context, hand: Hand) -> set[tuple]:
    """Standard readings ``(has chow, suit mask, caishentou, sancai, baotou)``."""
    out = {(*r, False) for r in standard_readings(hand.counts, hand.wilds, "w", ctx.flip)}
    if hand.lone is not None:
        counts, wilds = hand.lone
        sets_only = standard_readings(counts, wilds, "w", ctx.flip, nsets=4, npair=0)
        if hand.last is not None:
            suit = suit_of(hand.last)
            pairs = [(1 << suit, 0)]
        else:  # last is a wild: two wilds pair, read as anything
            pairs = [(mask, cst) for _, mask, cst in _wild_pairs("w", ctx.flip)]
        for chow, mask, _, sancai in sets_only:
            for pmask, cst in pairs:
                out.add((chow, mask | pmask, cst, sancai, True))
    return out


def _candidates(ctx: Context, hand: Hand):
    """Every allowed pattern set (without the context's moment patterns)."""
    wild = hand.wilds > 0
    suit_code = "qingyise_cai" if wild else "qingyise"
    for chow, mask, cst, sancai, baotou in _standard(ctx, hand):
        shapes = ["pinghu"]
        if not chow:
            shapes.append("pengpenghu")
        if ctx.melded == 4 and not ctx.self_drawn:
            shapes.append("quanqiuren")
        if mask & 7 == 0:
            shapes.append("qingfeng")
        suits = [None, suit_code] if mask in (1, 2, 4) else [None]
        cais = [None] + ["baotou"] * baotou + ["caishentou"] * cst + ["sancai"] * sancai
        for shape in shapes:
            for suit in suits:
                for cai in cais:
                    if cai and (shape not in CAI_SHAPES or suit == "qingyise"):
                        continue
                    yield [p for p in (shape, suit, cai) if p]
    if ctx.melded == 0 and is_qidui(hand.counts, hand.wilds):
        shapes = ["qidui" if wild else "qingqidui"]
        if hand.lone is not None and is_qidui(*hand.lone, npairs=6):
            shapes.append("qidui_baotou")
        suits = [None, suit_code] if plain_mask(hand.counts) in (1, 2, 4) else [None]
        for shape in shapes:
            for suit in suits:
                if suit == "qingyise" and shape == "qidui_baotou":
                    continue
                if suit == "qingyise_cai" and shape == "qingqidui":
                    continue
                yield [p for p in (shape, suit) if p]
    if ctx.melded == 0 and is_shisanbukao(hand.counts, hand.wilds):
        yield ["shisanbukao"]
        if is_shisanbukao(hand.counts, hand.wilds, all_honours_plain_winds=True):
            yield ["qifeng"]
    if is_luanfeng(hand.counts):
        yield ["luanfeng"]


def _ties(held: set) -> tuple[bool, ...]:
    """Between readings of equal 番: the §2 items top to bottom, holding one wins."""
    return tuple(code in held for code in ORDER)


def answer(ctx: Context, hand: Hand) -> dict:
    """The reading with the most 番 under the table's 番 table (``ctx.rules``, wuyi2.md §6)."""
    table = ctx.rules.fan_table
    extra = []
    if ctx.first_round:
        extra.append(ctx.first_round)
    if ctx.after_kong:
        extra.append("gangkai")
    if ctx.last_tile and ctx.self_drawn:
        extra.append("haidi")
    best_fan, best = None, None
    for patterns in _candidates(ctx, hand):
        held = set(patterns) | set(extra)
        fan = sum(map(table.__getitem__, held))
        if best is None or fan > best_fan or (fan == best_fan and _ties(held) > _ties(best)):
            best_fan, best = fan, held
    if best is None:
        return {"complete": False}
    fan = best_fan + (table["zimo"] if ctx.self_drawn else 0)
    patterns = sorted(best.intersection(_PLACE), key=_PLACE.__getitem__)  # in §2 order
    return {"complete": True, "caishen": hand.wilds, "patterns": patterns, "fan": fan}


def breakdown(answer: dict, zh: bool = True, rules=None) -> str:
    """「3 番：清一色 2 · 自摸 1」 (English with zh false), each pattern at the table's 番 (``rules``,
    the ruleset's ``Rules``). 自摸 is what ``fan`` holds beyond the patterns."""
    table = rules.fan_table
    parts = [(BY_CODE[c].zh if zh else BY_CODE[c].en, table[c]) for c in answer["patterns"] if table[c]]
    rest = answer["fan"] - sum(v for _, v in parts)
    if rest:
        parts.append((BY_CODE["zimo"].zh if zh else BY_CODE["zimo"].en, rest))
    shown = " · ".join(f"{name} {value}" for name, value in parts) or "0"
    return f"{answer['fan']} 番：{shown}" if zh else f"{answer['fan']} fan: {shown}"


# What the table's 算牌 page asks of the ruleset (scoring/analyse.py asks these, never its code).
FLAGS = ("self_drawn", "after_kong", "robbing_kong", "last_tile")  # the context toggles it offers
FIRST_ROUND = ("tianhu", "dihu", "renhu")  # the first-round wins a request may claim (§2)
NEXT_IS_WILD = False  # only the flip's kind is wild
BAI_STANDS_IN = True  # 白板 plays as the flip's kind (unless the flip is 白)
SEAT_WIND = False  # the answer does not need the winner's seat wind


def can_win(answer: dict) -> bool:
    return True


def is_discard(answer: dict, self_drawn: bool) -> bool:
    return not self_drawn


def hand_entry(answer: dict, winner: int) -> dict:
    """The contract HAND object of a win the answer describes (the discarder added by the caller)."""
    return {"outcome": "win", "winner": winner, "patterns": list(answer["patterns"])}

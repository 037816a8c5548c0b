"""武义二人: the patterns of the reading with the most 番 (docs/analysis.md "What each ruleset answers";
docs/rules/wuyi2.md §2 patterns, 番 and "allowed with"); ties compare the §2 items top to bottom."""

from functools import lru_cache

from scoring.engine.analyse.decompose import is_luanfeng, is_qidui, is_shisanbukao, plain_mask, standard_readings
from scoring.engine.analyse.decompose import wild_pair_options as _wild_pairs
from scoring.engine.analyse.hand import Hand
from scoring.engine.analyse.request import Context
from scoring.engine.analyse.tiles import Memo, suit_of

from .patterns import BY_CODE, LISTABLE, TABLE

# §2 in its order (the tie-break order): the engine's pattern table, 自摸 left out (only in ``fan``).
ORDER = LISTABLE
CAI_SHAPES = ("pinghu", "pengpenghu")
# A code's tie bit: an earlier §2 item outweighs all later ones together ("Readings settled").
_TIE_BIT = TABLE.tie_bits()
_FAN = 1 << len(ORDER)  # one 番 in a worth: above every tie bit together


def _worths(table: dict) -> dict:
    """Each code's worth under a 番 table: its 番 times ``_FAN`` plus its tie bit, so a pattern set's
    sum orders by 番, then the tie; kept per table, which request.py hands back as the same dict."""
    found = _WORTHS.get(id(table))
    if found is None or found[0] is not table:
        if len(_WORTHS) >= 256:
            _WORTHS.clear()
        worths = {code: table[code] * _FAN + bit for code, bit in _TIE_BIT.items()}
        worths[None] = 0
        found = _WORTHS[id(table)] = (table, worths)  # (the table kept: its id stays its own)
    return found[1]


_WORTHS = Memo()  # id(table) -> (table, its worths)


@lru_cache(maxsize=4096)
def _codes(bits: int) -> tuple[str, ...]:
    """The codes of a set of tie bits, in §2 order (a few thousand sets in all)."""
    return tuple(code for code in ORDER if bits & _TIE_BIT[code])


def _baotou(ctx: Context, hand: Hand):
    """爆头 readings ``(has chow, suit mask, caishentou, sancai)``: sets without ``last`` and the lone wild."""
    counts, wilds = hand.lone
    sets_only = standard_readings(counts, wilds, "w", ctx.flip, nsets=4, npair=0)
    if hand.last is not None:
        suit = suit_of(hand.last)
        pairs = [(1 << suit, 0)]
    else:  # last is a wild: two wilds pair, read as anything
        pairs = [(mask, cst) for _, mask, cst in _wild_pairs("w", ctx.flip)]
    for chow, mask, _, sancai in sets_only:
        for pmask, cst in pairs:
            yield chow, mask | pmask, cst, sancai


@lru_cache(maxsize=1024)
def _with_reading(chow: bool, mask: int, cst: int, sancai: int, baotou: bool, quanqiuren: bool, wild: bool) -> tuple:
    """The pattern sets ``(shape, suit, 财神)`` a standard reading allows (§2 "allowed with")."""
    shapes = ["pinghu"]
    if not chow:
        shapes.append("pengpenghu")
    if quanqiuren:
        shapes.append("quanqiuren")
    if mask & 7 == 0:
        shapes.append("qingfeng")
    suits = [None]
    if mask in (1, 2, 4):
        suits.append("qingyise_cai" if wild else "qingyise")
    cais = [None] + ["baotou"] * baotou + ["caishentou"] * cst + ["sancai"] * sancai
    return tuple(
        (shape, suit, cai)
        for shape in shapes
        for suit in suits
        for cai in cais
        if not cai or (shape in CAI_SHAPES and suit != "qingyise")
    )


def _candidates(ctx: Context, hand: Hand):
    """Every allowed pattern set ``(shape, suit, 财神)`` without the context's, None where it has none."""
    wild = hand.wilds > 0
    quanqiuren = ctx.melded == 4 and not ctx.self_drawn
    standard = False
    for chow, mask, cst, sancai in standard_readings(hand.counts, hand.wilds, "w", ctx.flip):
        standard = True
        yield from _with_reading(chow, mask, cst, sancai, False, quanqiuren, wild)
    if hand.lone is not None:
        for chow, mask, cst, sancai in _baotou(ctx, hand):
            yield from _with_reading(chow, mask, cst, sancai, True, quanqiuren, wild)
    suit_code = "qingyise_cai" if wild else "qingyise"
    if ctx.melded == 0 and is_qidui(hand.counts, hand.wilds):
        shapes = ["qidui" if wild else "qingqidui"]
        if hand.lone is not None and is_qidui(*hand.lone, npairs=6):
            shapes.append("qidui_baotou")
        suits = (None, suit_code) if plain_mask(hand.counts) in (1, 2, 4) else (None,)
        for shape in shapes:
            for suit in suits:
                if suit == "qingyise" and shape == "qidui_baotou":
                    continue
                if suit == "qingyise_cai" and shape == "qingqidui":
                    continue
                yield shape, suit, None
    # 十三不靠 holds no kind twice: a wild-free hand read as standard holds its pair (most hands)
    if ctx.melded == 0 and (wild or not standard) and is_shisanbukao(hand.counts, hand.wilds):
        yield "shisanbukao", None, None
        if is_shisanbukao(hand.counts, hand.wilds, all_honours_plain_winds=True):
            yield "qifeng", None, None
    if is_luanfeng(hand.counts):
        yield "luanfeng", None, None


def answer(ctx: Context, hand: Hand) -> dict:
    """The reading with the most 番 under ``ctx.rules``'s table, with the context's patterns added."""
    table = ctx.rules.fan_table
    worth = _worths(table)
    best = None
    for shape, suit, cai in _candidates(ctx, hand):
        value = worth[shape] + worth[suit] + worth[cai]
        if best is None or value > best:
            best = value
    if best is None:
        return {"complete": False}
    if ctx.first_round:  # the context's patterns: in every reading, never in a candidate
        best += worth[ctx.first_round]
    if ctx.after_kong:
        best += worth["gangkai"]
    if ctx.last_tile and ctx.self_drawn:
        best += worth["haidi"]
    fan, bits = divmod(best, _FAN)
    if ctx.self_drawn:
        fan += table["zimo"]
    return {"complete": True, "caishen": hand.wilds, "patterns": list(_codes(bits)), "fan": fan}


def breakdown(answer: dict, zh: bool = True, rules=None) -> str:
    """「3 番：清一色 2 · 自摸 1」 (English with zh false), each pattern at the table's 番 (``rules``)."""
    table = rules.fan_table
    parts = [(BY_CODE[c].zh if zh else BY_CODE[c].en, table[c]) for c in answer["patterns"] if table[c]]
    rest = answer["fan"] - sum(v for _, v in parts)
    if rest:
        parts.append((BY_CODE["zimo"].zh if zh else BY_CODE["zimo"].en, rest))
    shown = " · ".join(f"{name} {value}" for name, value in parts) or "0"
    return f"{answer['fan']} 番：{shown}" if zh else f"{answer['fan']} fan: {shown}"


FLAGS = ("self_drawn", "after_kong", "robbing_kong", "last_tile")
FIRST_ROUND = ("tianhu", "dihu", "renhu")  # §2
NEXT_IS_WILD = False
BAI_STANDS_IN = True
SEAT_WIND = False


def can_win(answer: dict) -> bool:
    return True


def is_discard(answer: dict, self_drawn: bool) -> bool:
    return not self_drawn


def hand_entry(answer: dict, winner: int) -> dict:
    """The contract HAND object of a win the answer describes (the discarder added by the caller)."""
    return {"outcome": "win", "winner": winner, "patterns": list(answer["patterns"])}

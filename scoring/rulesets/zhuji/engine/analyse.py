"""诸暨: the TAI object of the standard reading with the most 台 (docs/analysis.md "What each ruleset
answers", ties by its "Readings settled"; docs/rules/zhuji.md §3 items, §4 who may win)."""

from scoring.engine.analyse.decompose import HONOURS_BIT, standard_readings
from scoring.engine.analyse.hand import Hand
from scoring.engine.analyse.request import Context
from scoring.engine.analyse.tiles import DRAGONS, HONOUR0, WINDS, E

from .hands import DRAGONS as DRAGON_CODES
from .hands import SPECIAL_TAI, TAI_NAMES
from .hands import WINDS as WIND_NAMES

DRAGON_NAMES = tuple(DRAGON_CODES)  # in 中发白 order, as DRAGONS (the tiles)


def _pungs(pungs: int) -> tuple[tuple, tuple, tuple, tuple]:
    """(dragon names, wind names, wind kinds, 中发白东南西北 held) of an honour-pung mask."""
    return (
        tuple(DRAGON_NAMES[i] for i, k in enumerate(DRAGONS) if pungs >> (k - HONOUR0) & 1),
        tuple(WIND_NAMES[i] for i, k in enumerate(WINDS) if pungs >> (k - HONOUR0) & 1),
        tuple(k for k in WINDS if pungs >> (k - HONOUR0) & 1),
        tuple(bool(pungs >> (k - HONOUR0) & 1) for k in (*DRAGONS, *WINDS)),
    )


_PUNGS = [_pungs(mask) for mask in range(1 << 7)]  # every honour-pung mask, worked out once
_SCORING_PAIRS = frozenset((*DRAGONS, E))  # a pair of these (or of the seat wind) is no 平胡


def _read(reading: tuple, ctx: Context) -> tuple[int, str, bool, bool, str | None]:
    """(台 total, shape, 混一色, 全字, special) of one reading ``(chows, honour pungs, pair, suits)``."""
    chows, pungs, pair, mask = reading
    if chows == 0:
        shape = "duiduihu"
    elif chows == 4 and pair not in _SCORING_PAIRS and pair != ctx.seat_wind:
        shape = "pinghu"
    else:
        shape = "mixed"
    suits = mask & 7
    hunyise = bool(mask & HONOURS_BIT) and suits in (1, 2, 4)
    quanzi = suits == 0
    special = ctx.first_round or ("quanzi" if quanzi else None)
    if special:
        return SPECIAL_TAI, shape, hunyise, quanzi, special
    dragons, _, wind_kinds, _ = _PUNGS[pungs]
    total = len(dragons) + (shape != "mixed") + hunyise + ctx.robbing_kong
    for kind in wind_kinds:
        if kind == E:
            total += 2 if ctx.dealer else 1
        elif kind == ctx.seat_wind:
            total += 1
    return total, shape, hunyise, quanzi, special


def _key(reading: tuple, ctx: Context) -> tuple:
    """What picks the best of several readings: the total, then the table order; equal keys read alike."""
    total, shape, hunyise, quanzi, _ = _read(reading, ctx)
    return (total, *_PUNGS[reading[1]][3], shape == "pinghu", shape == "duiduihu", hunyise, quanzi)


def answer(ctx: Context, hand: Hand) -> dict:
    """The TAI object of the best standard reading (mostly there is one: nothing to compare)."""
    readings = standard_readings(hand.counts, hand.wilds, "z", ctx.flip)  # none: not standard
    if not readings:
        return {"complete": False}
    if len(readings) == 1:
        (best,) = readings
    else:
        best = max(readings, key=lambda reading: _key(reading, ctx))
    total, shape, hunyise, _, special = _read(best, ctx)
    dragons, winds, _, _ = _PUNGS[best[1]]
    tai = {
        "dragon_pungs": list(dragons),
        "wind_pungs": list(winds),
        "shape": shape,
        "hunyise": hunyise,
        "qianggang": ctx.robbing_kong,
        "gangkai": ctx.after_kong,
        "no_caishen": hand.wilds == 0,
        "special": special,
    }
    can_win = total >= 1 or hand.wilds == 0 or ctx.after_kong
    return {"complete": True, "caishen": hand.wilds, "tai": tai, "tai_total": total, "can_win": can_win}


def breakdown(answer: dict, zh: bool = True, rules=None) -> str:
    """「5 台：东风 2 · 中 1 · 混一色 1 · 对对胡 1」 (English with zh false; ``rules``: the common interface)."""
    tai, total = answer["tai"], answer["tai_total"]
    unit = "台" if zh else "tai"
    lang = 0 if zh else 1
    if tai["special"]:
        name = TAI_NAMES[tai["special"]][lang]
        return f"{total} {unit}：{name} {total}" if zh else f"{total} {unit}: {name} {total}"
    parts = [(TAI_NAMES[name][lang], 1) for name in tai["dragon_pungs"]]
    if tai["shape"] != "mixed":
        parts.append((TAI_NAMES[tai["shape"]][lang], 1))
    parts.extend((TAI_NAMES[flag][lang], 1) for flag in ("hunyise", "qianggang") if tai[flag])
    if tai["wind_pungs"]:
        # a wind's worth depends on the seat, which the answer leaves out: the winds get the rest
        names = "+".join(TAI_NAMES[n][lang] for n in tai["wind_pungs"])
        parts.insert(0, (names, total - sum(v for _, v in parts)))
    shown = " · ".join(f"{name} {value}" for name, value in parts if value) or ("0" if zh else "none")
    return f"{total} {unit}：{shown}" if zh else f"{total} {unit}: {shown}"


FLAGS = ("self_drawn", "after_kong", "robbing_kong")
FIRST_ROUND = ("tianhu", "dihu")  # §3
NEXT_IS_WILD = True  # the flip's kind and the next are wild (§1)
BAI_STANDS_IN = False  # 白板 is a plain tile unless it is itself wild
SEAT_WIND = True  # the winner's seat wind counts (§3)


def can_win(answer: dict) -> bool:
    """0 台 with a 财神 in hand may not win (§4)."""
    return bool(answer.get("can_win"))


def is_discard(answer: dict, self_drawn: bool) -> bool:
    return not self_drawn


def hand_entry(answer: dict, winner: int) -> dict:
    """The contract HAND object of a win the answer describes (the discarder added by the caller)."""
    tai = {k: v for k, v in answer["tai"].items() if v not in (False, None, [], "mixed")}
    return {"outcome": "win", "winner": winner, "tai": tai}

"""义乌: the win type the tiles and context allow (docs/analysis.md "What each ruleset answers";
docs/rules/yiwu.md §4 types, §9 the 财神 rules); a hand both 七对 and standard reads as 七对."""

from scoring.engine.analyse.decompose import is_qidui, is_shisanbukao, is_standard
from scoring.engine.analyse.hand import Hand
from scoring.engine.analyse.request import Context

from .wintypes import WIN_TYPES

CAISHENTOU_TYPES = ("caishentou", "qidui_caishentou", "gangkai")


def _family(hand: Hand, melded: int) -> str | None:
    """'qidui', 'shisanbukao', 'standard' or None (incomplete); 七对 first."""
    if melded == 0 and is_qidui(hand.counts, hand.wilds):
        return "qidui"
    if is_standard(hand.counts, hand.wilds):
        return "standard"
    if melded == 0 and is_shisanbukao(hand.counts, hand.wilds):
        return "shisanbukao"
    return None


def _caishentou(hand: Hand, melded: int) -> str | None:
    """财神头: without ``last``, a standard hand short of its pair plus a lone wild (six pairs: qidui_caishentou)."""
    if hand.lone is None:
        return None
    counts, wilds = hand.lone
    if melded == 0 and is_qidui(counts, wilds, npairs=6):
        return "qidui_caishentou"
    if is_standard(counts, wilds, nsets=4, npair=0):
        return "caishentou"
    return None


def answer(ctx: Context, hand: Hand) -> dict:
    family = _family(hand, ctx.melded)
    if family is None:
        return {"complete": False}
    if ctx.after_kong:
        code = "gangkai"
    elif ctx.self_drawn and (cst := _caishentou(hand, ctx.melded)):
        code = cst
    elif ctx.robbing_kong:
        code = "qianggang"
    elif ctx.self_drawn:
        code = {"qidui": "qidui_zimo", "shisanbukao": "shisanbukao_zimo", "standard": "zimo"}[family]
    else:
        code = {"qidui": "qidui", "shisanbukao": "shisanbukao", "standard": "pinghu"}[family]
    out = {"complete": True, "caishen": hand.wilds, "win_type": code}
    n = hand.wilds
    if n >= 3 and code not in CAISHENTOU_TYPES:
        out["win_type"] = None
        out["reason"] = f"holding {n} 财神: only 财神头 or 杠开 (docs/rules/yiwu.md §9)"
    elif n == 2 and WIN_TYPES[code].discard:
        out["win_type"] = None
        out["reason"] = "holding 2 财神: no discard win (docs/rules/yiwu.md §9)"
    return out


def breakdown(answer: dict, zh: bool = True, rules=None) -> str:
    """「自摸 ×2」 / "Self-drawn ×2"; the reason when §9 forbids the win (``rules``: the common interface)."""
    code = answer.get("win_type")
    if code is None:
        return answer.get("reason", "")
    kind = WIN_TYPES[code]
    return f"{kind.zh if zh else kind.en} ×{kind.multiplier}"


FLAGS = ("self_drawn", "after_kong", "robbing_kong")
FIRST_ROUND: tuple[str, ...] = ()
NEXT_IS_WILD = False
BAI_STANDS_IN = True
SEAT_WIND = False


def can_win(answer: dict) -> bool:
    """A complete hand may be won: §9 leaves no win type with 3+ 财神 (or 2 on a discard)."""
    return answer.get("win_type") is not None


def is_discard(answer: dict, self_drawn: bool) -> bool:
    return WIN_TYPES[answer["win_type"]].discard


def hand_entry(answer: dict, winner: int) -> dict:
    """The contract HAND object of a win the answer describes (the discarder added by the caller)."""
    return {"outcome": "win", "winner": winner, "win_type": answer["win_type"], "caishen": answer["caishen"]}

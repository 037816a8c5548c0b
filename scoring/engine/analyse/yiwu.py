"""义乌: the win type the tiles and context allow (docs/analysis.md "What each ruleset answers";
docs/rules/yiwu.md §4 types, §9 the 财神 rules).

Order of choice: gangkai · caishentou / qidui_caishentou · qianggang · the self-drawn family ·
the discard family. A hand that is both 七对 and standard reads as 七对 ("Readings settled").
"""

from ..yiwu.wintypes import WIN_TYPES
from .decompose import is_qidui, is_shisanbukao, is_standard
from .hand import Hand
from .request import Context

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
    """财神头: without ``last``, a standard hand short of its pair plus a lone wild (or six pairs +
    a lone wild → qidui_caishentou, preferred as 七对 is)."""
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
    """「自摸 ×2」 / "Self-drawn ×2"; the reason when §9 forbids the win. (No house rule changes
    a win type's multiplier: ``rules`` is taken for the common interface.)"""
    code = answer.get("win_type")
    if code is None:
        return answer.get("reason", "")
    kind = WIN_TYPES[code]
    return f"{kind.zh if zh else kind.en} ×{kind.multiplier}"

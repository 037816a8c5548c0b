"""算牌 — hand analysis (docs/analysis.md): tiles in, what the scoring entry form needs out; plain Python, no Django."""

from ..errors import ScoringError
from .analyser import trait
from .decompose import completing, is_qidui, is_shisanbukao, is_standard, standard_readings
from .hand import Hand
from .request import MAX_TILES, Context, analyser, parse, table_rules
from .tiles import CODES, INDEX, N_KINDS, played_kinds, split_hand


def _waits(ctx: Context) -> dict:
    """Every kind that completes the 13 tiles, in code order, with its 14-tile answer and the ruleset's
    ``waits_extra``; only the kinds ``completing`` lets in are answered in full."""
    counts, wilds = split_hand(ctx.ruleset, ctx.flip, ctx.kinds)
    plain, wild = completing(counts, wilds)
    held = [0] * N_KINDS
    for kind in ctx.kinds:
        held[kind] += 1
    answer_of = analyser(ctx.ruleset).answer
    waits = []
    for kind, played in enumerate(played_kinds(ctx.ruleset, ctx.flip)):
        if held[kind] < 4 and (wild if played is None else plain[played]):
            answer = answer_of(ctx, Hand.plus(counts, wilds, played))
            if answer["complete"]:
                waits.append({"tile": CODES[kind], **answer})
    extra = trait(ctx.ruleset, "waits_extra")
    return {"waits": waits} if extra is None else {"waits": waits, **extra(ctx, counts, wilds)}


def analyse(request: dict) -> dict:
    """The answer JSON of docs/analysis.md for one request; ScoringError for a bad request."""
    ctx = parse(request)
    if len(ctx.kinds) == 13:
        return _waits(ctx)
    return analyser(ctx.ruleset).answer(ctx, Hand.of(ctx.ruleset, ctx.flip, ctx.kinds, ctx.last))


def analyse_or_error(request) -> tuple[bool, dict]:
    """(True, the answer) or (False, the contract's error object): what both doors answer."""
    try:
        return True, analyse(request)
    except ScoringError as error:
        return False, error.to_dict()


def breakdown(answer: dict, ruleset: str, zh: bool = True, rules=None) -> str:
    """A line for the UI: 「5 台：东风 2 · 中 1 · …」, 「3 番：清一色 2 · 自摸 1」, 「自摸 ×2」, 「未胡」.
    ``rules``: the request's house rules (None: the defaults), which gave the answer."""
    if "waits" in answer:
        tiles = " ".join(w["tile"] for w in answer["waits"])
        return (f"听：{tiles}" if zh else f"Waits: {tiles}") if tiles else ("不听" if zh else "No waits")
    if not answer.get("complete"):
        return "未胡" if zh else "Not complete"
    return analyser(ruleset).breakdown(answer, zh, table_rules(ruleset, rules))


__all__ = [
    "CODES",
    "INDEX",
    "MAX_TILES",
    "analyse",
    "analyse_or_error",
    "analyser",
    "breakdown",
    "is_qidui",
    "is_shisanbukao",
    "is_standard",
    "parse",
    "standard_readings",
]

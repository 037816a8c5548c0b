"""A ruleset's 算牌 as the registry holds it; ``TRAITS`` a ruleset states only where it differs
(docs/analysis.md "A ruleset's own request"), ``trait`` reads them.

Every analyser also states what its page asks (scoring/analyse/sheet.py asks these, never its code):
``FLAGS`` (the context toggles), ``FIRST_ROUND`` (the first-round wins a request may claim),
``NEXT_IS_WILD``, ``BAI_STANDS_IN`` (白板 plays as the flip's kind) and ``SEAT_WIND``."""

from types import ModuleType

from ..errors import ScoringError
from ..ruleset import get_ruleset

TRAITS = {
    "WILDS": None,  # the codes of the tiles wild whatever is flipped (then a request sends no flip); None: the flip decides
    "FIELDS": None,  # the request fields it takes (None: every one of request.FIELDS)
    "SELF_DRAWN_ONLY": False,  # every win is self-drawn: self_drawn is true or absent, and no page asks it
    "validate": None,  # validate(ctx): its own rules for a parsed request (ScoringError), or None
    "waits_extra": None,  # waits_extra(ctx, counts, wilds) -> dict: what a waits answer adds, or None
    # What its 算牌 page asks that the tiles cannot show (scoring/analyse/sheet.py): the query keys and
    # options, questions(answer, chosen, request, winner) and with_answers(...) applying the choice.
    "QUESTIONS": {},
    "questions": None,
    "with_answers": None,
}


def analyser(ruleset: str) -> ModuleType:
    """The ruleset's 算牌 (its ``engine/analyse.py``); ScoringError when unknown or it has none."""
    try:
        found = get_ruleset(ruleset).analyser
    except ScoringError:
        shown = repr(ruleset)[:20]
        raise ScoringError(f"未知规则：{shown}", f"Unknown ruleset: {shown}", "ruleset") from None
    if found is None:
        shown = repr(ruleset)[:20]
        raise ScoringError(f"玩法 {shown} 没有算牌", f"Ruleset {shown} has no tile reading", "ruleset")
    return found


def trait(ruleset: str, name: str):
    """The analyser's ``name`` (one of ``TRAITS``), or its default when the analyser leaves it out."""
    return getattr(analyser(ruleset), name, TRAITS[name])
